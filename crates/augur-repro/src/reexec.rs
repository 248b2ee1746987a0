//! The re-execution (SymCrash's Algorithm 1, ReExecution): a search directed along the
//! crash's stack, goal by goal from `main` to the crash site, with SymCon substituting
//! logged results. Every path ending in an error of the report's kind at the crash line
//! with the report's frames is a candidate; its input is verified natively, and the first
//! verified input stops the run. An input that does not verify is blocked (never tried
//! again) and the search goes on.

use crate::report::{Matched, Report};
use crate::symcon::Cursor;
use crate::verify::{self, Native, Reproduction, Verdict};
use augur_engine::{Executor, FileSink, Goal, Observer, Outcome, State, TestCase, TestSink};
use augur_ir::{FuncId, Program};
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The goals of a stack (innermost first): its frames from the outermost to the crash
/// site, each a line inside its function.
pub fn goals(frames: &[Matched]) -> Vec<Goal> {
    frames
        .iter()
        .rev()
        .map(|f| Goal {
            file: f.file.clone(),
            line: f.line,
            function: Some(f.function.clone()),
        })
        .collect()
}

/// What the re-execution found so far (shared by its sink and observer).
#[derive(Default)]
pub struct Findings {
    /// The deepest goal whose function a path entered along the stack (index into the
    /// goals).
    pub goal: usize,
    /// Candidates (paths ending like the crash) seen.
    pub candidates: usize,
    /// Candidate inputs verified natively and not reproducing (blocked).
    pub blocked: usize,
    /// The reproduction, its input and the hard calls the path substituted.
    pub found: Option<Found>,
    /// A native verification that could not run (e.g. the program does not start).
    pub error: Option<String>,
    /// Substituted calls of the path that ended last (set by the observer).
    last_substituted: u32,
}

/// A verified reproduction.
#[derive(Clone, Debug)]
pub struct Found {
    /// Full or with the log.
    pub how: Reproduction,
    /// The input objects.
    pub objects: Vec<(String, Vec<u8>)>,
    /// Calls of hard functions whose logged results the path used.
    pub substituted: u32,
    /// Seconds from the start of the run.
    pub time_s: f64,
}

/// Watches paths: the deepest goal reached, and each ending path's substitutions.
pub struct GoalObserver {
    prog: Rc<Program>,
    goals: Vec<Goal>,
    shared: Rc<RefCell<Findings>>,
}

impl GoalObserver {
    /// An observer of the run towards `goals`.
    pub fn new(prog: Rc<Program>, goals: Vec<Goal>, shared: Rc<RefCell<Findings>>) -> Self {
        GoalObserver {
            prog,
            goals,
            shared,
        }
    }

    /// How many goals a stack (outermost first) is at or past.
    fn reached(&self, frames: &[(FuncId, u32)]) -> usize {
        let mut k = 0;
        for (i, &(func, pc)) in frames.iter().enumerate() {
            let Some(goal) = self.goals.get(i) else { break };
            let f = self.prog.func(func);
            if goal.function.as_deref() != Some(f.name.as_str()) {
                break;
            }
            k = i + 1;
            let line = f
                .locs
                .get(pc.saturating_sub(1) as usize)
                .and_then(|l| self.prog.loc(*l))
                .map_or(0, |l| l.line);
            if line != goal.line {
                break;
            }
        }
        k
    }
}

impl Observer for GoalObserver {
    fn on_call(&mut self, st: &State, func: FuncId, _args: &[augur_engine::Value]) {
        // The callee's frame is not pushed yet.
        let frames: Vec<(FuncId, u32)> = st
            .frames()
            .iter()
            .map(|f| (f.func, f.pc))
            .chain([(func, 0)])
            .collect();
        let k = self.reached(&frames).saturating_sub(1);
        let mut p = self.shared.borrow_mut();
        p.goal = p.goal.max(k);
    }

    fn on_terminate(&mut self, st: &State, _outcome: &Outcome) {
        self.shared.borrow_mut().last_substituted =
            st.ext().get::<Cursor>().map_or(0, |c| c.substituted);
    }
}

/// The test sink of a re-execution: checks each finished path, verifies candidates
/// natively, writes the reproducing test and stops the run.
pub struct CandidateSink {
    prog: Program,
    report: Report,
    frames: Vec<Matched>,
    native: Native,
    out: FileSink,
    tried: FxHashSet<Vec<(String, Vec<u8>)>>,
    shared: Rc<RefCell<Findings>>,
    stop: Arc<AtomicBool>,
    started: Instant,
}

impl CandidateSink {
    /// A sink verifying candidates of `report` (matched `frames`) with `native`, writing
    /// the reproducing test into `out` (argv as given) and setting `stop` when found or
    /// when the time is up; times are counted from `started`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        prog: Program,
        report: Report,
        frames: Vec<Matched>,
        native: Native,
        out: &std::path::Path,
        argv: Vec<String>,
        shared: Rc<RefCell<Findings>>,
        stop: Arc<AtomicBool>,
        started: Instant,
    ) -> Result<Self, String> {
        Ok(CandidateSink {
            prog,
            report,
            frames,
            native,
            out: FileSink::new(out, argv).map_err(|e| format!("{}: {e}", out.display()))?,
            tried: FxHashSet::default(),
            shared,
            stop,
            started,
        })
    }

    /// Does a path's outcome end like the crash: kind, crash line and the program's frames?
    fn is_candidate(&self, t: &TestCase) -> bool {
        let Outcome::Error(e) = &t.outcome else {
            return false;
        };
        if !self.report.kinds.is_empty() && !self.report.kinds.contains(&e.kind.name()) {
            return false;
        }
        let mut user: Vec<(String, u32)> = Vec::new();
        for f in &e.stack {
            let own = self
                .prog
                .func_named(&f.function)
                .is_some_and(|id| crate::hard::is_user_function(&self.prog, id));
            if own && user.last() != Some(&(f.function.clone(), f.line)) {
                user.push((f.function.clone(), f.line));
            }
        }
        self.report.frames_match(&user, &self.frames)
    }
}

impl TestSink for CandidateSink {
    fn write(&mut self, t: &TestCase) {
        if self.shared.borrow().found.is_some() || !self.is_candidate(t) {
            return;
        }
        let substituted = self.shared.borrow().last_substituted;
        self.shared.borrow_mut().candidates += 1;
        if !self.tried.insert(t.objects.clone()) {
            return;
        }
        match verify::verify(
            &self.native,
            &t.objects,
            &self.report,
            &self.frames,
            &self.prog,
        ) {
            Ok(Verdict::Reproduced(how)) => {
                self.out.write(t);
                self.shared.borrow_mut().found = Some(Found {
                    how,
                    objects: t.objects.clone(),
                    substituted,
                    time_s: self.started.elapsed().as_secs_f64(),
                });
                self.stop.store(true, Ordering::Relaxed);
            }
            Ok(Verdict::Blocked) => self.shared.borrow_mut().blocked += 1,
            Ok(Verdict::OutOfTime) => self.stop.store(true, Ordering::Relaxed),
            Err(e) => {
                self.shared.borrow_mut().error = Some(e);
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// Run the re-execution on `ex` (states already started) until it finds the crash, the
/// states run out or a limit stops it; `progress` hears of it every tenth of a second.
/// States left at a stop are dropped: a path cut short is no candidate, so there is no
/// test to write for it.
pub fn run(
    ex: &mut Executor,
    shared: &Rc<RefCell<Findings>>,
    goals: &[Goal],
    progress: &mut dyn FnMut(&Executor, String),
) {
    let shared2 = shared.clone();
    let goals = goals.to_vec();
    ex.run_until_pending(usize::MAX, &mut |ex| {
        let p = shared2.borrow();
        let g = &goals[p.goal.min(goals.len() - 1)];
        progress(
            ex,
            format!(
                "goal {}/{}: {g} | candidates {} | blocked {} | paths {} | live {}",
                p.goal + 1,
                goals.len(),
                p.candidates,
                p.blocked,
                ex.stats.paths_completed,
                ex.live_states()
            ),
        );
    });
    drop(ex.take_pending());
}

/// A shell word for `bytes` (single-quoted; `$'...'` with escapes when not printable).
pub fn shell_word(bytes: &[u8]) -> String {
    if bytes
        .iter()
        .all(|b| (0x20..0x7f).contains(b) && *b != b'\'')
    {
        return format!("'{}'", String::from_utf8_lossy(bytes));
    }
    let mut s = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' | b'\\' => s.push_str(&format!("\\{}", b as char)),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('\'');
    s
}

/// The input as a command line to paste (argv and stdin; files are not shown), or None
/// when the program reads files.
pub fn command_line(
    program: &str,
    args: &[String],
    objects: &[(String, Vec<u8>)],
) -> Option<String> {
    let env = augur_env::environment(objects);
    if !env.files.is_empty() {
        return None;
    }
    let mut words = vec![format!("./{program}")];
    words.extend(args.iter().map(|a| shell_word(a.as_bytes())));
    words.extend(env.args().into_iter().map(shell_word));
    let cmd = words.join(" ");
    Some(match env.stdin {
        Some(input) => format!("printf '%s' {} | {cmd}", shell_word(&input)),
        None => cmd,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words() {
        assert_eq!(shell_word(b"kfo"), "'kfo'");
        assert_eq!(shell_word(b"it's"), "$'it\\'s'");
        assert_eq!(shell_word(&[0x41, 0x01]), "$'A\\x01'");
    }

    #[test]
    fn command_lines() {
        let objs = vec![
            ("n_args".to_string(), vec![1, 0, 0, 0]),
            ("arg00".to_string(), b"kfo\0".to_vec()),
            ("stdin".to_string(), b"x y".to_vec()),
        ];
        assert_eq!(
            command_line("prog", &["-v".into()], &objs).unwrap(),
            "printf '%s' 'x y' | ./prog '-v' 'kfo'"
        );
    }
}
