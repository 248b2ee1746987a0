//! `augur diff`: tell N revisions of a program apart with differential tests and a decision
//! tree (`augur_diff::driver`). Revisions are whole files or directories, unified diffs
//! over a base, or one hand-written meta program.

use crate::numbers;
use crate::progress::Progress;
use crate::session::{self, ExploreArgs};
use augur_diff::{Config, Outcome, OutputSelection};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `augur diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// BASE then each revision (C files or directories of C files); or BASE alone with
    /// --patch; or one hand-written meta program using `augur_meta(site)`.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// A revision given as a unified diff over BASE (repeatable).
    #[arg(long = "patch", value_name = "FILE")]
    patches: Vec<PathBuf>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// Outputs compared, comma-separated: annotations, stdout, exit, returns, all.
    #[arg(long, default_value = "all")]
    outputs: String,
    /// Differential tests to solve for per pair of revisions.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = numbers::count)]
    tests_per_pair: usize,
    /// Time limit of each native run of a test, in seconds.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = numbers::seconds)]
    timeout: f64,
    /// Number of revisions of a hand-written meta program (default: inferred from the
    /// revision numbers its code compares `augur_meta` results with).
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::at_least_one_u32)]
    revisions: Option<u32>,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// Run `augur diff`.
pub fn run(a: DiffArgs) -> Result<(), String> {
    let work = session::workdir()?;
    let common = a.explore.common(a.output_dir, &work)?;
    let spec = a.explore.env_spec()?;
    let selected = OutputSelection::parse(&a.outputs)?;
    if !(a.timeout.is_finite() && a.timeout > 0.0) {
        return Err(format!(
            "--timeout must be a positive number of seconds, not {}",
            a.timeout
        ));
    }
    let config = Config {
        common,
        inputs: a.inputs,
        patches: a.patches,
        revisions: a.revisions,
        program_args: a.program_args,
        spec,
        selected,
        tests_per_pair: a.tests_per_pair,
        native_timeout: Duration::from_secs_f64(a.timeout),
    };
    let progress = Progress::new();
    let outcome = augur_diff::driver(&config, &progress)?;
    progress.finish();
    outcome.write(&outcome.out)?;
    print_result(&outcome)
}

/// The classes and the tree on the terminal.
fn print_result(o: &Outcome) -> Result<(), String> {
    let summary = &o.summary;
    eprintln!("augur: output directory is {}", o.out.display());
    eprintln!(
        "augur: done: {} differential tests, {} paths explored ({}), {} instructions",
        o.tests.len(),
        summary["paths_completed"],
        if o.complete { "complete" } else { "cut short" },
        summary["instructions"]
    );
    println!("classes:");
    for c in summary["classes"].as_array().into_iter().flatten() {
        let names: Vec<&str> = c
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str())
            .collect();
        println!("  {{{}}}", names.join(", "));
    }
    if let Some(e) = summary["equivalence"].as_str() {
        println!("({e})");
    }
    println!("{}", o.tree.to_text());
    for (k, t) in o.tests.iter().enumerate() {
        let objects: Vec<String> = t
            .input
            .objects
            .iter()
            .map(|(n, b)| format!("{n} = {}", show_object(b)))
            .collect();
        println!("difftest {:03}: {}", k + 1, objects.join(", "));
    }
    Ok(())
}

/// An input object for people: text when it looks like text (printable, then perhaps
/// NULs; at least two printable bytes in an object of up to 8), a little-endian integer
/// when it has at most 8 bytes, else hexadecimal bytes.
fn show_object(bytes: &[u8]) -> String {
    let text_len = bytes
        .iter()
        .take_while(|b| b.is_ascii_graphic() || **b == b' ')
        .count();
    // A short object with a single printable byte is more likely a number (100 is 'd').
    let min_text = if bytes.len() <= 8 { 2 } else { 1 };
    if text_len >= min_text && bytes[text_len..].iter().all(|b| *b == 0) {
        return format!("{:?}", augur_engine::escape_bytes(bytes));
    }
    if bytes.is_empty() || bytes.len() > 8 {
        return augur_diff::show_output("", bytes);
    }
    augur_engine::signed_le(bytes).to_string()
}
