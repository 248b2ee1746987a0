//! `augur run --jobs N`: split the exploration into shards, run them on a pool of N worker
//! processes (this executable with `--shard-worker`; a worker takes the next shard when it
//! finishes one), then merge every output into `-o`. `--max-time` is global: workers get
//! the time left; Ctrl-C stops the workers, and what they wrote is still merged.

use super::done::{print_done, read_json};
use super::merge::{Merger, Transfer};
use super::setup::{RunArgs, Setup};
use super::split;
use crate::progress::Progress;
use crate::session;
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Shards per worker process unless `--split` says how many in all: many more shards than
/// workers, so that a worker finding its shard small takes another.
const SHARDS_PER_JOB: u32 = 8;

/// Run `augur run --jobs N`.
pub fn run(a: &RunArgs, setup: &Setup) -> Result<(), String> {
    let started = Instant::now();
    let out = augur_engine::prepare_output_dir(a.output_dir.as_deref())?;
    let scratch = out.join(".shards");
    let _ = std::fs::remove_dir_all(&scratch);
    let shards_dir = a.shards_dir.clone().unwrap_or(scratch.join("shards"));
    let split_out = scratch.join("split");
    let interrupt = session::ctrl_c_flag();
    let progress = Progress::new();
    let n = a.split.unwrap_or(SHARDS_PER_JOB * a.jobs);
    let shards = split::split(
        setup,
        n,
        &split_out,
        &shards_dir,
        interrupt.clone(),
        &progress,
    )?;
    let deadline = setup.opts.max_time.map(|t| started + t);
    let mut merger = Merger::new(&out, Transfer::Move);
    merger.add(&split_out)?;
    let mut pool = Pool::new(shards, scratch.clone(), deadline, interrupt);
    for _ in 0..a.jobs.min(pool.shards.len() as u32) {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        pool.spawn(worker_command(a, &setup.bitcode, left)?)?;
    }
    pool.run(&mut merger, &progress)?;
    progress.finish();
    let mut merged = merger.finish();
    let s = &mut merged.summary;
    let unexplored = (pool.shards.len() - pool.given) as u64;
    for k in ["paths_partial", "partial_without_test"] {
        s[k] = json!(s[k].as_u64().unwrap_or(0) + unexplored);
    }
    s["time_s"] = json!(started.elapsed().as_secs_f64());
    s["shards"] = json!(pool.shards.len());
    s["shards_unexplored"] = json!(unexplored);
    s["jobs"] = json!(a.jobs);
    merged.write(&out)?;
    let _ = std::fs::remove_dir_all(&scratch);
    print_done(&merged.summary, &out);
    eprintln!(
        "augur: done: {} shards on {} processes ({unexplored} not explored)",
        pool.shards.len(),
        a.jobs
    );
    if pool.failed.is_empty() {
        Ok(())
    } else {
        Err(format!("shards failed: {}", pool.failed.join("; ")))
    }
}

/// The command line of a worker: this run's options, with the time `left` as `--max-time`,
/// loading the program from `bitcode` (compiled once, by the parent).
fn worker_command(a: &RunArgs, bitcode: &Path, left: Option<Duration>) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find augur itself: {e}"))?;
    let mut explore = a.explore.clone();
    explore.max_time = left.map(|t| t.max(Duration::from_millis(1)).as_secs_f64());
    let mut cmd = Command::new(exe);
    cmd.arg("run").args(&a.inputs).args(explore.to_args());
    if a.all_tests {
        cmd.arg("--all-tests");
    }
    if a.only_output_states_covering_new {
        cmd.arg("--only-output-states-covering-new");
    }
    cmd.arg("--shard-worker")
        .arg(bitcode)
        .arg("--")
        .args(&a.program_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    Ok(cmd)
}

/// One worker process and the shard it runs.
struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    running: Option<usize>,
}

/// What a worker said: a line, or the end of its output (it exited).
type Said = (usize, Option<String>);

/// The shards and the worker processes running them.
struct Pool {
    shards: Vec<PathBuf>,
    scratch: PathBuf,
    deadline: Option<Instant>,
    interrupt: Arc<AtomicBool>,
    workers: Vec<Worker>,
    said: (mpsc::Sender<Said>, mpsc::Receiver<Said>),
    next: usize,
    done: usize,
    paths: u64,
    /// Shards given to a worker.
    given: usize,
    /// Why shards failed.
    failed: Vec<String>,
}

impl Pool {
    fn new(
        shards: Vec<PathBuf>,
        scratch: PathBuf,
        deadline: Option<Instant>,
        interrupt: Arc<AtomicBool>,
    ) -> Self {
        Pool {
            shards,
            scratch,
            deadline,
            interrupt,
            workers: Vec::new(),
            said: mpsc::channel(),
            next: 0,
            done: 0,
            paths: 0,
            given: 0,
            failed: Vec::new(),
        }
    }

    /// Start a worker (`cmd`), and give it a shard.
    fn spawn(&mut self, mut cmd: Command) -> Result<(), String> {
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start a worker process: {e}"))?;
        let stdout = child.stdout.take().expect("piped");
        let (w, tx) = (self.workers.len(), self.said.0.clone());
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send((w, Some(line)));
            }
            let _ = tx.send((w, None));
        });
        self.workers.push(Worker {
            stdin: child.stdin.take(),
            child,
            running: None,
        });
        self.assign(w);
        Ok(())
    }

    /// Give worker `w` the next shard, or close its input (it exits) when there is none,
    /// the time is up or the run was interrupted.
    fn assign(&mut self, w: usize) {
        let time_up = self.deadline.is_some_and(|d| Instant::now() >= d);
        let out = self.part(self.next);
        let worker = &mut self.workers[w];
        if self.next < self.shards.len() && !time_up && !self.interrupt.load(Ordering::Relaxed) {
            let line = format!("{}\t{}\n", self.shards[self.next].display(), out.display());
            if let Some(stdin) = &mut worker.stdin {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.flush())
                    .is_ok()
                {
                    worker.running = Some(self.next);
                    self.given += 1;
                    self.next += 1;
                    return;
                }
            }
        }
        worker.stdin = None;
    }

    /// The output directory of shard number `s`.
    fn part(&self, s: usize) -> PathBuf {
        self.scratch.join(format!("part-{:04}", s + 1))
    }

    /// Hand out shards until every worker has exited, merging each shard's output as it
    /// ends (a shard whose worker died gives the tests it wrote).
    fn run(&mut self, merger: &mut Merger, progress: &Progress) -> Result<(), String> {
        let mut alive = self.workers.len();
        let mut stopping = false;
        while alive > 0 {
            if self.interrupt.load(Ordering::Relaxed) && !stopping {
                stopping = true;
                for w in &mut self.workers {
                    if let Some(stdin) = &mut w.stdin {
                        let _ = stdin.write_all(b"stop\n").and_then(|_| stdin.flush());
                    }
                }
            }
            match self.said.1.recv_timeout(Duration::from_millis(100)) {
                Ok((w, Some(line))) => {
                    if let Some(s) = self.heard(w, &line) {
                        self.merge_part(merger, s)?;
                    }
                }
                Ok((w, None)) => {
                    alive -= 1;
                    let _ = self.workers[w].child.wait();
                    if let Some(s) = self.workers[w].running.take() {
                        self.failed.push(format!(
                            "{}: its worker exited before finishing it",
                            self.shards[s].display()
                        ));
                        self.merge_part(merger, s)?;
                    }
                }
                Err(_) => {}
            }
            progress.message(format!(
                "shards {}/{} | running {} | paths {}",
                self.done,
                self.shards.len(),
                self.workers.iter().filter(|w| w.running.is_some()).count(),
                self.paths
            ));
        }
        Ok(())
    }

    /// Merge the output of shard `s` (if it wrote any) and remove it.
    fn merge_part(&mut self, merger: &mut Merger, s: usize) -> Result<(), String> {
        let part = self.part(s);
        if part.is_dir() {
            merger.add(&part)?;
            let _ = std::fs::remove_dir_all(&part);
        }
        Ok(())
    }

    /// Worker `w` finished its shard (`done`) or could not run it (`failed: WHY`): give it
    /// the next; returns the shard.
    fn heard(&mut self, w: usize, line: &str) -> Option<usize> {
        let s = self.workers[w].running.take()?;
        self.done += 1;
        if let Some(why) = line.strip_prefix("failed: ") {
            self.failed.push(why.to_string());
        }
        if let Ok(summary) = read_json(&self.part(s).join("summary.json")) {
            self.paths += ["paths_completed", "paths_partial"]
                .iter()
                .map(|k| summary[*k].as_u64().unwrap_or(0))
                .sum::<u64>();
        }
        self.assign(w);
        Some(s)
    }
}

/// A worker (`augur run ... --shard-worker`): runs the shards named on standard input, one
/// `SHARD<TAB>OUTPUT-DIR` line each, answering `done` (or `failed: WHY`) on standard
/// output; `stop` on standard input (or Ctrl-C) stops the current shard, keeping what it
/// found, and ends the worker. `--max-time` is the worker's, over all its shards.
pub fn worker(setup: &Setup) -> Result<(), String> {
    let started = Instant::now();
    let interrupt = session::ctrl_c_flag();
    let (tx, jobs) = mpsc::channel::<String>();
    let stop = interrupt.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line == "stop" {
                stop.store(true, Ordering::Relaxed);
            } else if tx.send(line).is_err() {
                break;
            }
        }
    });
    let progress = Progress::hidden();
    for job in jobs {
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        let (shard, out) = job
            .split_once('\t')
            .ok_or_else(|| format!("worker: expected SHARD<TAB>OUTPUT-DIR, not `{job}`"))?;
        let mut opts = setup.opts.clone();
        if let Some(t) = setup.opts.max_time {
            opts.max_time = Some(
                t.saturating_sub(started.elapsed())
                    .max(Duration::from_millis(1)),
            );
        }
        let ran = setup.run_shard(
            opts,
            Path::new(shard),
            Path::new(out),
            interrupt.clone(),
            &progress,
        );
        let answer = match ran {
            Ok(_) => "done".to_string(),
            Err(why) => format!("failed: {why}"),
        };
        let mut stdout = std::io::stdout().lock();
        if writeln!(stdout, "{answer}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    Ok(())
}
