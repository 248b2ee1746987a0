//! Native verification of a found input: the program compiled with sanitizers and its
//! hard functions wrapped (the `augur record` build) runs the input once with the real
//! functions ("full": the input alone crashes the program) and, if that does not
//! reproduce the crash, once with the log's results substituted ("with-log"). A run
//! reproduces the crash when its sanitizer report shows an error of the report's kind
//! with the same frames of the program (function and line, crash line included), or, for
//! an abort, when it ends by SIGABRT at the crash line with no report (see
//! [`shows_crash`]). No run goes past the deadline of `augur repro`.

use crate::report::{self, Matched, Report, ABORT_KINDS};
use augur_env::{environment, run_native, NativeRun, RunSpec, Status};
use augur_ir::Program;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The signal number of SIGABRT (Linux).
const SIGABRT: i32 = 6;

/// How a crash was reproduced natively.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reproduction {
    /// The input alone crashes the real program.
    Full,
    /// The input crashes the program when the hard functions return the logged results.
    WithLog,
}

impl Reproduction {
    /// The status word of `repro.json`.
    pub fn name(self) -> &'static str {
        match self {
            Reproduction::Full => "full",
            Reproduction::WithLog => "with-log",
        }
    }
}

/// The instrumented native program and what a run of it needs.
pub struct Native {
    /// The binary (`build::build`).
    pub binary: PathBuf,
    /// The log to substitute for a "with-log" run.
    pub log: Option<PathBuf>,
    /// argv[0].
    pub argv0: String,
    /// Concrete arguments before the symbolic ones.
    pub args: Vec<String>,
    /// Time limit of one run.
    pub timeout: Duration,
    /// No run goes on past this instant (the end of `augur repro`'s time).
    pub deadline: Option<Instant>,
}

/// What the native verification of one input concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It reproduces the crash.
    Reproduced(Reproduction),
    /// It does not (blocked: never tried again).
    Blocked,
    /// The time was up before it could run.
    OutOfTime,
}

/// One native run of `objects`, with the log substituted when `log` is given; None when
/// the deadline has passed. The log is named to the recording runtime through the
/// environment (`AUGUR_LOG_REPLAY`), a copy of it put where the program can see it.
fn run_once(
    n: &Native,
    objects: &[(String, Vec<u8>)],
    log: Option<&PathBuf>,
) -> Result<Option<NativeRun>, String> {
    let timeout = match n.deadline {
        Some(d) => match d.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => n.timeout.min(left),
            _ => return Ok(None),
        },
        None => n.timeout,
    };
    let env = environment(objects);
    let log_file = log.map(|l| ("AUGUR_LOG_REPLAY", l.as_path()));
    let spec = RunSpec {
        argv0: &n.argv0,
        args: &n.args,
        objects,
        env: &env,
        timeout,
        revision: None,
        env_files: log_file.as_slice(),
        extra_env: &[],
    };
    run_native(&n.binary, &spec).map(Some)
}

/// Does a native run show the crash of `report` with the frames `frames`? A sanitizer
/// report must show an error of the report's kind with the same frames of the program
/// (function and line, crash line included). An abort with no sanitizer report (e.g.
/// ASAN_OPTIONS=handle_abort=0) counts when the report is an abort and the failed
/// assertion's message, if there is one, names the crash line.
pub fn shows_crash(run: &NativeRun, report: &Report, frames: &[Matched], prog: &Program) -> bool {
    let stderr = String::from_utf8_lossy(&run.stderr);
    let Ok(got) = report::parse(&stderr) else {
        return aborted_at(run, &stderr, report, frames);
    };
    let kind_ok = report.kinds.is_empty() || got.kinds.iter().any(|k| report.kinds.contains(k));
    let seen: Vec<(String, u32)> = report::match_frames(&got, prog)
        .into_iter()
        .map(|f| (f.function, f.line))
        .collect();
    kind_ok && report.frames_match(&seen, frames)
}

/// A run killed by SIGABRT without a stack, for a report of an abort at `frames[0]`.
fn aborted_at(run: &NativeRun, stderr: &str, report: &Report, frames: &[Matched]) -> bool {
    let abort = report.kinds.is_empty() || report.kinds.iter().any(|k| ABORT_KINDS.contains(k));
    let at_crash_line = match (report::assertion_site(stderr), frames.first()) {
        (Some((file, line)), Some(crash)) => {
            line == crash.line && report::names_file(&crash.file, &file)
        }
        (None, _) => true,
        (Some(_), None) => false,
    };
    run.status == Status::Signal(SIGABRT) && abort && at_crash_line
}

/// Verify `objects` natively: full first, then with the log.
pub fn verify(
    n: &Native,
    objects: &[(String, Vec<u8>)],
    report: &Report,
    frames: &[Matched],
    prog: &Program,
) -> Result<Verdict, String> {
    let Some(full) = run_once(n, objects, None)? else {
        return Ok(Verdict::OutOfTime);
    };
    if shows_crash(&full, report, frames, prog) {
        return Ok(Verdict::Reproduced(Reproduction::Full));
    }
    tracing::debug!(
        "candidate {objects:?} does not crash alone:\n{}",
        String::from_utf8_lossy(&full.stderr)
    );
    if let Some(log) = &n.log {
        let Some(with_log) = run_once(n, objects, Some(log))? else {
            return Ok(Verdict::OutOfTime);
        };
        if shows_crash(&with_log, report, frames, prog) {
            return Ok(Verdict::Reproduced(Reproduction::WithLog));
        }
        tracing::debug!(
            "nor with the log:\n{}",
            String::from_utf8_lossy(&with_log.stderr)
        );
    }
    Ok(Verdict::Blocked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(status: Status, stderr: &str) -> NativeRun {
        NativeRun {
            status,
            stdout: Vec::new(),
            stderr: stderr.as_bytes().to_vec(),
            outputs: Default::default(),
        }
    }

    fn at(line: u32) -> Vec<Matched> {
        vec![Matched {
            function: "count_fields".into(),
            file: "/src/prog.c".into(),
            line,
        }]
    }

    /// Without a sanitizer report, an abort is the crash when the report is an abort and
    /// the assertion message, if any, names the crash line.
    #[test]
    fn aborts_without_a_report() {
        let report = Report {
            format: report::Format::Sanitizer,
            kinds: ABORT_KINDS.to_vec(),
            headline: "AddressSanitizer: ABRT".into(),
            frames: Vec::new(),
        };
        let msg = "prog: prog.c:16: void count_fields(const char *): Assertion `n < 4' failed.\n";
        let aborted = run(Status::Signal(SIGABRT), msg);
        assert!(aborted_at(&aborted, msg, &report, &at(16)));
        assert!(!aborted_at(&aborted, msg, &report, &at(17)));
        assert!(aborted_at(
            &run(Status::Signal(SIGABRT), ""),
            "",
            &report,
            &at(17)
        ));
        assert!(!aborted_at(&run(Status::Exit(0), ""), "", &report, &at(16)));
        assert!(!aborted_at(
            &run(Status::Signal(11), ""),
            "",
            &report,
            &at(16)
        ));
        let segv = Report {
            kinds: vec!["null-dereference"],
            ..report
        };
        assert!(!aborted_at(&aborted, msg, &segv, &at(16)));
    }
}
