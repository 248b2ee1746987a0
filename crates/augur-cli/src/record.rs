//! `augur record`: choose the hard-to-resolve functions of a program and build it natively,
//! instrumented to log their results (`--list` prints the choice; `--show LOG` prints a log).

use crate::session;
use augur_repro::{Models, Verdict};
use clap::Args;
use std::path::PathBuf;

/// Options of `augur record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// Program sources (.c files, linked together).
    #[arg(required_unless_present = "show")]
    inputs: Vec<PathBuf>,
    /// Extra flags for clang, e.g. "-I include -DDEBUG".
    #[arg(long, allow_hyphen_values = true)]
    cflags: Option<String>,
    /// Record this function too (repeatable).
    #[arg(long = "hard", value_name = "FUNC")]
    hard: Vec<String>,
    /// Never record this function (repeatable).
    #[arg(long = "not-hard", value_name = "FUNC")]
    not_hard: Vec<String>,
    /// Print every function's verdict with its reason, and exit.
    #[arg(long)]
    list: bool,
    /// Native-only files linked into BIN (objects, libraries, C files the analysis does
    /// not see), repeatable.
    #[arg(long = "link", value_name = "FILE")]
    link: Vec<PathBuf>,
    /// Print the log LOG readably, and exit.
    #[arg(long, value_name = "LOG")]
    show: Option<PathBuf>,
    /// The instrumented binary to write.
    #[arg(short = 'o', value_name = "BIN")]
    output: Option<PathBuf>,
}

/// The extra clang flags of `--cflags`, split.
pub fn split_cflags(cflags: &Option<String>) -> Vec<String> {
    cflags
        .as_deref()
        .map(|f| f.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// The verdicts of the hard-function analysis on `inputs`.
pub fn verdicts(
    inputs: &[PathBuf],
    cflags: Vec<String>,
    hard: &[String],
    not_hard: &[String],
) -> Result<Vec<Verdict>, String> {
    let work = session::workdir()?;
    let program = augur_env::load_program(inputs, cflags, work.path())?;
    let handlers = augur_env::handlers();
    let has_handler = |n: &str| handlers.get(n).is_some();
    augur_repro::analyse_hard_functions(
        &program,
        &Models {
            has_handler: &has_handler,
        },
        hard,
        not_hard,
    )
}

/// Run `augur record`.
pub fn run(a: RecordArgs) -> Result<(), String> {
    if let Some(log) = &a.show {
        let log = augur_repro::Log::read(log)?;
        print!("{}", log.show());
        return Ok(());
    }
    let cflags = split_cflags(&a.cflags);
    let verdicts = verdicts(&a.inputs, cflags.clone(), &a.hard, &a.not_hard)?;
    if a.list {
        print!("{}", augur_repro::hard_listing(&verdicts));
        return Ok(());
    }
    let out = a
        .output
        .ok_or("augur record: give the binary to write with -o BIN (or --list)")?;
    let hard: Vec<String> = verdicts
        .iter()
        .filter(|v| v.hard)
        .map(|v| v.name.clone())
        .collect();
    let built = augur_repro::build_recorder(&augur_repro::BuildSpec {
        inputs: &a.inputs,
        cflags: &cflags,
        link: &a.link,
        hard: &hard,
        out: &out,
    })?;
    for w in &built.skipped {
        eprintln!("augur: warning: {w}");
    }
    eprintln!(
        "augur: {} records {} function(s): {}",
        out.display(),
        built.recorded.len(),
        built.recorded.join(", ")
    );
    if hard.is_empty() {
        eprintln!("augur: {}", augur_repro::NOTHING_HARD);
    }
    Ok(())
}
