//! Native verification of a found input: the program compiled with sanitizers and its
//! hard functions wrapped (the `augur record` build) runs the input once with the real
//! functions ("full": the input alone crashes the program) and, if that does not
//! reproduce the crash, once with the log's results substituted ("with-log"). A run
//! reproduces the crash when its sanitizer report shows an error of the report's kind
//! with the same frames of the program (function and line, crash line included).

use crate::report::{self, Matched, Report};
use augur_env::{environment, run_native, RunSpec};
use augur_ir::Program;
use std::path::PathBuf;
use std::time::Duration;

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
}

/// One native run of `objects`, with the log substituted when `log` is given. The log is
/// named to the recording runtime through the environment (`AUGUR_LOG_REPLAY`), which
/// the child inherits.
fn run_once(
    n: &Native,
    objects: &[(String, Vec<u8>)],
    log: Option<&PathBuf>,
) -> Result<String, String> {
    let env = environment(objects);
    let spec = RunSpec {
        argv0: &n.argv0,
        args: &n.args,
        objects,
        env: &env,
        timeout: n.timeout,
        revision: None,
    };
    match log {
        Some(l) => std::env::set_var("AUGUR_LOG_REPLAY", l),
        None => std::env::remove_var("AUGUR_LOG_REPLAY"),
    }
    let run = run_native(&n.binary, &spec);
    std::env::remove_var("AUGUR_LOG_REPLAY");
    Ok(String::from_utf8_lossy(&run?.stderr).into_owned())
}

/// Does a native run's stderr show the crash of `report` with the frames `frames`?
pub fn shows_crash(stderr: &str, report: &Report, frames: &[Matched], prog: &Program) -> bool {
    let Ok(got) = report::parse(stderr) else {
        return false;
    };
    let kind_ok = report.kinds.is_empty() || got.kinds.iter().any(|k| report.kinds.contains(k));
    let key = |m: &[Matched]| -> Vec<(String, u32)> {
        m.iter().map(|f| (f.function.clone(), f.line)).collect()
    };
    kind_ok && key(&report::match_frames(&got, prog)) == key(frames)
}

/// Verify `objects` natively: full first, then with the log.
pub fn verify(
    n: &Native,
    objects: &[(String, Vec<u8>)],
    report: &Report,
    frames: &[Matched],
    prog: &Program,
) -> Result<Option<Reproduction>, String> {
    let full = run_once(n, objects, None)?;
    if shows_crash(&full, report, frames, prog) {
        return Ok(Some(Reproduction::Full));
    }
    tracing::debug!("candidate {objects:?} does not crash alone:\n{full}");
    if let Some(log) = &n.log {
        let with_log = run_once(n, objects, Some(log))?;
        if shows_crash(&with_log, report, frames, prog) {
            return Ok(Some(Reproduction::WithLog));
        }
        tracing::debug!("nor with the log:\n{with_log}");
    }
    Ok(None)
}
