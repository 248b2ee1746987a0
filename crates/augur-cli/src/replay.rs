//! `augur replay`: run tests on the natively compiled program and check their outcomes.

use crate::numbers;
use augur_env::{replay, split_inputs, ReplayOptions};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `augur replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Program sources (.c, .bc or .ll), then test directories or files
    /// (e.g. `augur replay prog.c augur-out-last`).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Tests to replay: directories (every testNNNNNN.json or .ktest) or files.
    #[arg(long, num_args = 1..)]
    tests: Vec<PathBuf>,
    /// Extra flags for clang, as given to `augur run`.
    #[arg(long, allow_hyphen_values = true)]
    cflags: Option<String>,
    /// Libraries the program links, as its own build links them (e.g. `--libs "-lm
    /// -lresolv"`): given to the native link after the program.
    #[arg(long, allow_hyphen_values = true)]
    libs: Option<String>,
    /// Time limit of each test, in seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    timeout: f64,
    /// Concrete arguments passed to the program (after `--`), as given to `augur run`.
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// Run `augur replay`: one line per test, then the counts; exits with status 1 when a
/// test failed.
pub fn run(a: ReplayArgs) -> Result<(), String> {
    if !(a.timeout.is_finite() && a.timeout > 0.0) {
        return Err(format!(
            "--timeout must be a positive number of seconds, not {}",
            a.timeout
        ));
    }
    let (inputs, mut tests) = split_inputs(&a.inputs);
    tests.extend(a.tests);
    let words = |flags: Option<String>| -> Vec<String> {
        flags
            .as_deref()
            .map(|f| f.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    };
    let opts = ReplayOptions {
        inputs,
        tests,
        cflags: words(a.cflags),
        libs: words(a.libs),
        program_args: a.program_args,
        timeout: Duration::from_secs_f64(a.timeout),
    };
    let stdout = std::io::stdout();
    let summary = replay(&opts, &mut stdout.lock())?;
    println!("{}", summary.line());
    let _ = std::io::stdout().flush();
    if summary.failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}
