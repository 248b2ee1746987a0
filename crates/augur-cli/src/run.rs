//! `augur run`: explore a program's paths.

use crate::session::{self, ExploreArgs};
use crate::{outdir, progress::Progress, seed};
use augur_engine::{summary_json, write_summary, FileSink};
use augur_engine::{Executor, TestPolicy};
use clap::Args;
use std::path::PathBuf;

/// Options of `augur run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Program sources: .c, .bc or .ll files (several are linked).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Follow the path of this test (JSON or .ktest) only, keeping symbolic values.
    #[arg(long)]
    seed_test: Option<PathBuf>,
    /// Also write the tests in Test-Comp's XML format (metadata.xml + one file per test) to DIR.
    #[arg(long, value_name = "DIR")]
    write_testcomp: Option<PathBuf>,
    /// Write a test only for paths that covered new code (and errors at new places), from
    /// the first test on [default: after the first 1000 tests].
    #[arg(long, conflicts_with = "all_tests")]
    only_output_states_covering_new: bool,
    /// Write a test for every path, however many.
    #[arg(long)]
    all_tests: bool,
}

/// Tests written for every path before only paths covering new code get one.
const TESTS_BEFORE_FILTERING: u64 = 1000;

/// Run `augur run`.
pub fn run(a: RunArgs) -> Result<(), String> {
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
    let program = session::load_inputs(&a.inputs, a.explore.cflags(), work.path())?;
    let entry = session::entry_function(&program, &a.explore.entry, &a.inputs[0])?;

    let out = outdir::prepare(a.output_dir.as_deref())?;
    let mut argv: Vec<String> = vec![session::program_name(&a.inputs[0])];
    argv.extend(a.program_args.iter().cloned());
    let mut sink: Box<dyn augur_engine::TestSink> =
        Box::new(FileSink::new(&out, argv.clone()).map_err(|e| format!("{}: {e}", out.display()))?);
    if let Some(dir) = &a.write_testcomp {
        sink = testcomp_sink(dir, &a.inputs[0], &a.explore.entry, sink)?;
    }
    let mut ex = Executor::new(program, &augur_env::handlers(), opts, sink);
    session::stop_on_ctrl_c(&ex);
    session::start(&mut ex, entry, &spec, &argv, seed);
    let progress = Progress::new();
    ex.run(&mut |ex| progress.update(ex));
    progress.finish();
    write_summary(&ex, &out)
        .map_err(|e| format!("{}: cannot write summary: {e}", out.display()))?;
    print_done(&ex, &out);
    Ok(())
}

/// A sink also writing Test-Comp XML tests into `dir`.
fn testcomp_sink(
    dir: &std::path::Path,
    program: &std::path::Path,
    entry: &str,
    next: Box<dyn augur_engine::TestSink>,
) -> Result<Box<dyn augur_engine::TestSink>, String> {
    use sha2::{Digest, Sha256};
    let source = std::fs::read(program).map_err(|e| format!("{}: {e}", program.display()))?;
    let hash: String = Sha256::digest(&source)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta = augur_engine::metadata_xml(&name, &hash, entry);
    let sink = augur_engine::TestCompSink::new(dir, &meta, next)
        .map_err(|e| format!("{}: cannot write Test-Comp tests: {e}", dir.display()))?;
    Ok(Box::new(sink))
}

/// KLEE-style closing lines on stderr.
fn print_done(ex: &Executor, out: &std::path::Path) {
    let s = summary_json(ex);
    eprintln!("augur: output directory is {}", out.display());
    eprintln!("augur: done: total instructions = {}", s["instructions"]);
    eprintln!(
        "augur: done: completed paths = {}, partial paths = {}",
        s["paths_completed"], s["paths_partial"]
    );
    eprintln!("augur: done: generated tests = {}", s["tests"]);
    if ex.stats.tests_not_written > 0 {
        eprintln!(
            "augur: done: paths without a test (no new coverage) = {}",
            ex.stats.tests_not_written
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
    if ex.solver.config().cross_check {
        eprintln!(
            "augur: done: solver cross-checks = {}, mismatches = {}",
            s["solver"]["cross_checks"], s["solver"]["cross_check_mismatches"]
        );
    }
    for e in &ex.stats.errors {
        eprintln!(
            "augur: error: {} at {}:{}: {} (test{:06})",
            e.kind, e.file, e.line, e.message, e.test
        );
    }
    eprintln!("augur: done: time = {:.2}s", ex.stats.time_s);
}
