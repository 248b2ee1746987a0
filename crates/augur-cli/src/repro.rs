//! `augur repro`: find an input that reproduces a field crash from its report (stack
//! trace) and, optionally, the log of `augur record`'s binary; verify it natively
//! (`augur_repro::driver`).

use crate::numbers;
use crate::progress::Progress;
use crate::session::{self, ExploreArgs};
use clap::Args;
use std::path::PathBuf;

/// Options of `augur repro`.
#[derive(Args, Debug)]
pub struct ReproArgs {
    /// Program sources (.c files, linked together).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The crash report: an ASan/UBSan report, gdb `bt` output or an augur test JSON.
    #[arg(long, value_name = "REPORT")]
    crash: PathBuf,
    /// The log the recorded binary wrote (omitted: a search directed by the stack alone).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Native-only files linked into the verification build (as given to `augur record`).
    #[arg(long = "link", value_name = "FILE")]
    link: Vec<PathBuf>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// Time limit of each native verification run, in seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    timeout: f64,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Concrete arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// Run `augur repro`.
pub fn run(a: ReproArgs) -> Result<(), String> {
    let work = session::workdir()?;
    let config = augur_repro::Config {
        common: a.explore.common(a.output_dir, &work)?,
        spec: a.explore.env_spec()?,
        timeout: session::positive("timeout", a.timeout)?,
        inputs: a.inputs,
        link: a.link,
        crash: a.crash,
        log: a.log,
        program_args: a.program_args,
    };
    let progress = Progress::new();
    let o = augur_repro::driver(&config, &progress)?;
    progress.finish();
    for w in &o.warnings {
        eprintln!("augur: warning: {w}");
    }
    o.write(&o.out)?;
    eprintln!("augur: output directory is {}", o.out.display());
    match &o.found {
        Some(f) => {
            eprintln!(
                "augur: reproduced ({}) in {:.2}s: {}",
                f.how.name(),
                f.time_s,
                o.report.headline
            );
            if let Some(c) = &o.command {
                eprintln!("augur: input: {c}");
            }
            Ok(())
        }
        None => {
            eprintln!(
                "augur: not reproduced: reached goal {}/{} ({}), {} candidate(s), {} blocked",
                o.goal + 1,
                o.goals.len(),
                o.goal_reached(),
                o.candidates,
                o.blocked
            );
            std::process::exit(1);
        }
    }
}
