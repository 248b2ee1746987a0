//! `augur explain`: run a buggy program and a reference ("golden") one on the same input,
//! and report the source lines that explain why their behaviour differs
//! (`augur_explain::driver`).

use crate::progress::Progress;
use crate::seed;
use crate::session::{self, ExploreArgs};
use augur_explain::Config;
use clap::Args;
use std::path::PathBuf;

/// Seconds each implication or tautology query may take unless `--solver-timeout` says
/// otherwise: an undecided query counts as "not implied", so a long wait buys little.
const IMPLICATION_TIMEOUT: f64 = 2.0;

/// Options of `augur explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The reference program's sources (.c, .bc or .ll; several are linked).
    #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
    golden: Vec<PathBuf>,
    /// The sources of the program to debug.
    #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
    buggy: Vec<PathBuf>,
    /// The input: a test (augur JSON or .ktest) whose objects both programs read.
    #[arg(long, conflicts_with = "program_args")]
    test: Option<PathBuf>,
    /// Standard input of both programs (its bytes are input variables).
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Slice from this variable at the last execution of this line instead of the first
    /// observable difference; give one per program (a FILE names the program it is in).
    #[arg(long, value_name = "FILE:LINE:VAR")]
    criterion: Vec<String>,
    /// Check each conjunct against the whole other weakest precondition instead of
    /// conjunct by conjunct.
    #[arg(long)]
    exact: bool,
    /// Output directory for report.json and report.sarif (default: a new augur-out-N).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Arguments of both programs (after `--`); their bytes are input variables.
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// The input's objects: a test's, or the arguments after `--`.
fn input_objects(a: &ExplainArgs) -> Result<Vec<(String, Vec<u8>)>, String> {
    let e = &a.explore;
    if !e.sym_arg.is_empty()
        || !e.sym_args.is_empty()
        || e.sym_files.is_some()
        || e.sym_stdin.is_some()
        || !e.sym_file.is_empty()
    {
        return Err(
            "explain reads its input from --test, --stdin and the arguments after --; \
                    the --sym-* options do not apply"
                .into(),
        );
    }
    Ok(match &a.test {
        Some(t) => seed::load(t)?.objects,
        None => a
            .program_args
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut bytes = s.as_bytes().to_vec();
                bytes.push(0);
                (format!("arg{i:02}"), bytes)
            })
            .collect(),
    })
}

/// Run `augur explain`.
pub fn run(a: ExplainArgs) -> Result<(), String> {
    let work = session::workdir()?;
    let common = a.explore.common(a.output_dir.clone(), &work)?;
    let implication_timeout = session::positive(
        "solver-timeout",
        a.explore.solver_timeout.unwrap_or(IMPLICATION_TIMEOUT),
    )?;
    let objects = input_objects(&a)?;
    let input_name = a
        .test
        .as_ref()
        .map(|t| t.display().to_string())
        .unwrap_or_else(|| "the input".into());
    let config = Config {
        common,
        golden: a.golden,
        buggy: a.buggy,
        objects,
        input_name,
        stdin: a.stdin,
        criteria: a.criterion,
        exact: a.exact,
        implication_timeout,
    };
    let progress = Progress::new();
    let o = augur_explain::driver(&config, &progress)?;
    progress.finish();
    o.write(&o.out)?;
    print!("{}", o.report.to_text());
    if o.report.figures.undecided > 0 {
        eprintln!(
            "augur: warning: {} implication queries undecided within {} s; counted as not implied",
            o.report.figures.undecided,
            implication_timeout.as_secs_f64()
        );
    }
    eprintln!("augur: output directory is {}", o.out.display());
    Ok(())
}
