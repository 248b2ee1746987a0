//! Native verification of an injected bug: the buggy program, built with sanitizers,
//! fails with the intended kind at the intended line on the trigger; on other inputs it
//! behaves exactly as the original (same exit status and stdout) unless the bug fires.

use augur_env::{judge, Expect, NativeProgram, NativeRun, ReplayOptions, Verdict};
use std::path::PathBuf;
use std::time::Duration;

/// A native build of a program.
pub struct Build {
    prog: NativeProgram,
    args: Vec<String>,
    timeout: Duration,
}

impl Build {
    /// Compile `sources` natively (with the replay runtime and sanitizers).
    pub fn new(
        sources: Vec<PathBuf>,
        cflags: &[String],
        args: &[String],
        timeout: Duration,
    ) -> Result<Build, String> {
        let opts = ReplayOptions {
            inputs: sources,
            tests: Vec::new(),
            cflags: cflags.to_vec(),
            libs: Vec::new(),
            program_args: args.to_vec(),
            timeout,
        };
        Ok(Build {
            prog: NativeProgram::build(&opts)?,
            args: args.to_vec(),
            timeout,
        })
    }

    /// Run it on a test's objects.
    pub fn run(&self, objects: &[(String, Vec<u8>)]) -> Result<NativeRun, String> {
        self.prog.run(objects, &self.args, self.timeout, None)
    }
}

/// Where a bug must fire: its error kind and the file name and line of its action.
#[derive(Clone, Debug)]
pub struct Target {
    /// augur's error kind (`assertion`, `out-of-bounds`, ...).
    pub error: &'static str,
    /// File name of the last point.
    pub file: String,
    /// Its line.
    pub line: u32,
}

impl Target {
    /// Did `run` fail with this bug: the right kind, reported at the right line?
    pub fn fired(&self, run: &NativeRun) -> bool {
        let kind_ok = matches!(
            judge(&Expect::Error(self.error.into()), run, 1.0),
            Verdict::Passed(_)
        );
        let at = format!("{}:{}:", self.file, self.line);
        kind_ok && String::from_utf8_lossy(&run.stderr).contains(&at)
    }
}

/// The outcome of verifying one bug.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Did the trigger fire the bug?
    pub trigger_fires: bool,
    /// How the trigger run ended (for the report).
    pub trigger_run: String,
    /// Other inputs tried.
    pub inputs: usize,
    /// Of which: behaved as the original.
    pub same: usize,
    /// Of which: fired the bug (rare triggers besides the seed).
    pub fired: usize,
    /// Of which: behaved differently without firing the bug (a failure).
    pub differed: usize,
    /// In one-program mode: other bugs the trigger fired (must be none).
    pub crossed: usize,
}

impl Verification {
    /// Did the bug pass?
    pub fn passed(&self) -> bool {
        self.trigger_fires && self.differed == 0 && self.crossed == 0
    }

    /// One line: what went wrong or right.
    pub fn summary(&self) -> String {
        let trigger = if self.trigger_fires {
            "trigger fires".to_string()
        } else {
            format!("trigger does not fire ({})", self.trigger_run)
        };
        format!(
            "{trigger}; {} input(s): {} as the original, {} fire, {} differ; {} other trigger(s) fire it",
            self.inputs, self.same, self.fired, self.differed, self.crossed
        )
    }
}

/// Same exit status and standard output?
fn same(a: &NativeRun, b: &NativeRun) -> bool {
    a.status == b.status && a.stdout == b.stdout
}

/// Verify bug `own` of the bugs in `buggy` (their `targets`): `trigger` must fire it;
/// each of `inputs` must behave as on `original` unless it fires one of the bugs.
pub fn verify(
    buggy: &Build,
    original: &Build,
    own: usize,
    targets: &[Target],
    trigger: &[(String, Vec<u8>)],
    inputs: &[Vec<(String, Vec<u8>)>],
) -> Result<Verification, String> {
    let t = buggy.run(trigger)?;
    let mut v = Verification {
        trigger_fires: targets[own].fired(&t),
        trigger_run: augur_env::describe(&t, buggy.timeout.as_secs_f64()),
        crossed: (0..targets.len())
            .filter(|&j| j != own && targets[j].fired(&t))
            .count(),
        ..Verification::default()
    };
    for objects in inputs {
        let b = buggy.run(objects)?;
        v.inputs += 1;
        if targets.iter().any(|t| t.fired(&b)) {
            v.fired += 1;
        } else if same(&b, &original.run(objects)?) {
            v.same += 1;
        } else {
            v.differed += 1;
        }
    }
    Ok(v)
}
