//! The exploration behind `augur run`: in one process ([`in_process`]: all paths, one
//! shard, or a split), or spread over processes (`jobs.rs`), with the shard files
//! (`shard.rs`), the split (`split.rs`) and the merging of outputs (`merge.rs`). Below
//! `run.rs` (the front door), above the engine: nothing here calls back up.

pub mod jobs;
pub mod merge;
pub mod shard;
pub mod split;

use crate::session::{self, ExploreArgs};
use crate::{progress::Progress, seed};
use augur_engine::{summary_json, write_summary, FileSink, TestsOnDisk};
use augur_engine::{Executor, Options, SeedInput, TestPolicy, TestSink};
use augur_ir::{FuncId, Program};
use clap::Args;
use serde_json::Value as Json;
use shard::{ProgramId, Shard};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Options of `augur run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Program sources: .c, .bc or .ll files (several are linked).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    pub program_args: Vec<String>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    pub output_dir: Option<PathBuf>,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// Follow the path of this test (JSON or .ktest) only, keeping symbolic values.
    #[arg(long, conflicts_with_all = ["shard", "split", "shard_worker"])]
    pub seed_test: Option<PathBuf>,
    /// Also write the tests in Test-Comp's XML format (metadata.xml + one file per test) to DIR.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "split", "shard_worker"])]
    pub write_testcomp: Option<PathBuf>,
    /// Write a test only for paths that covered new code (and errors at new places), from
    /// the first test on [default: after the first 1000 tests].
    #[arg(long, conflicts_with = "all_tests")]
    pub only_output_states_covering_new: bool,
    /// Write a test for every path, however many.
    #[arg(long)]
    pub all_tests: bool,
    /// Explore with N processes: split the paths into shards (8 per process unless
    /// `--split` says how many), run them N at a time, merge their outputs into `-o`.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: u32,
    /// Explore breadth-first until N states wait, write each as a shard file into
    /// `--shards-dir` and stop (paths that ended before are this run's output).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with = "shard")]
    pub split: Option<u32>,
    /// Where `--split` writes its shard files (with `--jobs`: keep them there).
    #[arg(long, value_name = "DIR")]
    pub shards_dir: Option<PathBuf>,
    /// Run only the paths of this shard (written by `--split`, with the same options).
    #[arg(long, value_name = "FILE", conflicts_with = "jobs")]
    pub shard: Option<PathBuf>,
    /// Run shards named on standard input, one `SHARD<TAB>OUTPUT-DIR` line each, answering
    /// `done` on standard output, the program being this bitcode (compiled from the inputs
    /// by the parent): the worker processes of `--jobs`.
    #[arg(long, hide = true, value_name = "BC", conflicts_with_all = ["shard", "split", "jobs"])]
    pub shard_worker: Option<PathBuf>,
}

/// Tests written for every path before only paths covering new code get one.
const TESTS_BEFORE_FILTERING: u64 = 1000;

/// What every exploration of one `augur run` shares: the compiled program, the options,
/// the symbolic environment, the entry call.
pub struct Setup {
    /// The lowered program (each executor gets a copy).
    pub program: Program,
    /// Engine options from the command line.
    pub opts: Options,
    /// Whether the command line chose the test policy (else a shard's applies).
    pub tests_given: bool,
    /// The program and the options that shape its path tree (shards must match).
    pub id: ProgramId,
    /// The program's linked bitcode.
    pub bitcode: PathBuf,
    spec: augur_env::EnvSpec,
    entry: FuncId,
    argv: Vec<String>,
    seed: Option<SeedInput>,
    _work: tempfile::TempDir,
}

impl Setup {
    /// Compile the inputs and read the options of `a`.
    pub fn new(a: &RunArgs) -> Result<Setup, String> {
        let mut opts = a.explore.options()?;
        opts.tests = if a.only_output_states_covering_new {
            TestPolicy::CoveringNew
        } else if a.all_tests {
            TestPolicy::All
        } else {
            TestPolicy::CoveringNewAfter(TESTS_BEFORE_FILTERING)
        };
        let spec = a.explore.env_spec()?;
        let seed = a.seed_test.as_deref().map(seed::load).transpose()?;
        let work = session::workdir()?;
        let bitcode = match &a.shard_worker {
            Some(bc) => bc.clone(),
            None => augur_env::build_program(&a.inputs, a.explore.cflags(), work.path())?,
        };
        let program = augur_ir::load_program(&bitcode).map_err(|e| e.to_string())?;
        let entry = augur_env::entry_function(&program, &a.explore.entry, &a.inputs[0])?;
        let id = ProgramId::of(&a.inputs, &a.explore, &a.program_args)?;
        let mut argv: Vec<String> = vec![augur_env::program_name(&a.inputs[0])];
        argv.extend(a.program_args.iter().cloned());
        Ok(Setup {
            program,
            opts,
            tests_given: a.only_output_states_covering_new || a.all_tests,
            id,
            bitcode,
            spec,
            entry,
            argv,
            seed,
            _work: work,
        })
    }

    /// A test sink writing into `out`.
    pub fn file_sink(&self, out: &Path) -> Result<FileSink, String> {
        FileSink::new(out, self.argv.clone()).map_err(|e| format!("{}: {e}", out.display()))
    }

    /// An executor with `opts`, its initial states queued, stopped by `interrupt`.
    pub fn executor(
        &self,
        opts: Options,
        sink: Box<dyn TestSink>,
        interrupt: Arc<AtomicBool>,
    ) -> Executor {
        let mut ex = Executor::new(self.program.clone(), &augur_env::handlers(), opts, sink);
        ex.set_interrupt_flag(interrupt);
        session::start(
            &mut ex,
            self.entry,
            &self.spec,
            &self.argv,
            self.seed.clone(),
        );
        ex
    }

    /// Run the paths of the shard in `file` into `out` (summary written); an error if the
    /// shard does not fit the program.
    pub fn run_shard(
        &self,
        mut opts: Options,
        file: &Path,
        out: &Path,
        interrupt: Arc<AtomicBool>,
        progress: &Progress,
    ) -> Result<Executor, String> {
        let shard = Shard::load(file, &self.id)?;
        shard.limits.apply(&mut opts, self.tests_given);
        opts.path_prefix = shard.prefix;
        opts.path_examples = shard.examples;
        let sink = self.file_sink(out)?;
        let on_disk = sink.on_disk();
        let mut ex = self.executor(opts, Box::new(sink), interrupt);
        ex.run(&mut |ex| progress.update(ex));
        progress.finish();
        summarise(&ex, &on_disk, out)?;
        match &ex.stats.prefix_diverged {
            Some(why) => Err(format!(
                "{}: the shard does not fit this program: {why}",
                file.display()
            )),
            None => Ok(ex),
        }
    }
}

/// Explore in this process: every path, the paths of `--shard`, or (`--split`) until
/// enough states wait, written as shard files.
pub fn in_process(a: &RunArgs, setup: &Setup) -> Result<(), String> {
    let out = augur_engine::prepare_output_dir(a.output_dir.as_deref())?;
    let interrupt = session::ctrl_c_flag();
    let progress = Progress::new();
    if let (Some(n), Some(dir)) = (a.split, &a.shards_dir) {
        let shards = split::split(setup, n, &out, dir, interrupt, &progress)?;
        print_done(&read_json(&out.join("summary.json"))?, &out);
        eprintln!(
            "augur: wrote {} shards into {}",
            shards.len(),
            dir.display()
        );
        return Ok(());
    }
    let ex = match &a.shard {
        Some(file) => setup.run_shard(setup.opts.clone(), file, &out, interrupt, &progress)?,
        None => {
            let files = setup.file_sink(&out)?;
            let on_disk = files.on_disk();
            let mut sink: Box<dyn TestSink> = Box::new(files);
            if let Some(dir) = &a.write_testcomp {
                sink = testcomp_sink(dir, &a.inputs[0], &a.explore.entry, sink)?;
            }
            let mut ex = setup.executor(setup.opts.clone(), sink, interrupt);
            ex.run(&mut |ex| progress.update(ex));
            progress.finish();
            summarise(&ex, &on_disk, &out)?;
            ex
        }
    };
    print_done(&summary_json(&ex), &out);
    Ok(())
}

/// Wait until the tests of `ex` are on disk, then write its summary and coverage into
/// `out` (so that a summary means a complete output directory).
pub fn summarise(ex: &Executor, on_disk: &TestsOnDisk, out: &Path) -> Result<(), String> {
    on_disk.wait();
    write_summary(ex, out).map_err(|e| format!("{}: cannot write summary: {e}", out.display()))
}

/// A JSON file.
pub fn read_json(path: &Path) -> Result<Json, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A sink also writing Test-Comp XML tests into `dir`.
fn testcomp_sink(
    dir: &std::path::Path,
    program: &std::path::Path,
    entry: &str,
    next: Box<dyn TestSink>,
) -> Result<Box<dyn TestSink>, String> {
    let source = std::fs::read(program).map_err(|e| format!("{}: {e}", program.display()))?;
    let hash = shard::sha256_hex(&source);
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta = augur_engine::metadata_xml(&name, &hash, entry);
    let sink = augur_engine::TestCompSink::new(dir, &meta, next)
        .map_err(|e| format!("{}: cannot write Test-Comp tests: {e}", dir.display()))?;
    Ok(Box::new(sink))
}

/// KLEE-style closing lines on stderr, from a run's summary.json.
pub fn print_done(s: &Json, out: &Path) {
    eprintln!("augur: output directory is {}", out.display());
    eprintln!("augur: done: total instructions = {}", s["instructions"]);
    eprintln!(
        "augur: done: completed paths = {}, partial paths = {}",
        s["paths_completed"], s["paths_partial"]
    );
    eprintln!("augur: done: generated tests = {}", s["tests"]);
    if s["tests_not_written"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: paths without a test (no new coverage) = {}",
            s["tests_not_written"]
        );
    }
    eprintln!(
        "augur: done: lines covered = {}/{}",
        s["coverage"]["lines_covered"], s["coverage"]["lines_total"]
    );
    eprintln!(
        "augur: done: solver queries = {}, solver calls = {}, cache hits = {}, solver time = {:.2}s",
        s["solver"]["queries"], s["solver"]["solver_calls"], s["solver"]["cache_hits"],
        s["solver"]["time_s"].as_f64().unwrap_or(0.0)
    );
    let (timeouts, sampled) = (&s["solver"]["timeouts"], &s["solver"]["sampled"]);
    if timeouts.as_u64().unwrap_or(0) + sampled.as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: solver timeouts = {timeouts} (paths ended or branch sides left \
             unexplored), models found by sampling = {sampled}"
        );
    }
    if s["solver"]["cross_checks"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: solver cross-checks = {}, mismatches = {}",
            s["solver"]["cross_checks"], s["solver"]["cross_check_mismatches"]
        );
    }
    for e in s["errors"].as_array().into_iter().flatten() {
        eprintln!(
            "augur: error: {} at {}:{}: {} (test{:06})",
            e["kind"].as_str().unwrap_or_default(),
            e["file"].as_str().unwrap_or_default(),
            e["line"],
            e["message"].as_str().unwrap_or_default(),
            e["test"].as_u64().unwrap_or(0)
        );
    }
    eprintln!(
        "augur: done: time = {:.2}s",
        s["time_s"].as_f64().unwrap_or(0.0)
    );
}
