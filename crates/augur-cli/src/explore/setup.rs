//! What every exploration of one `augur run` shares: its options ([`RunArgs`]), the
//! compiled program and the engine's options ([`Setup`]), and how a run's output
//! directory is completed ([`summarise`]).

use super::shard::{ProgramId, Shard};
use crate::progress::Progress;
use crate::seed;
use crate::session::{self, ExploreArgs};
use augur_engine::{write_summary, FileSink, TestsOnDisk};
use augur_engine::{Executor, Options, SeedInput, TestPolicy, TestSink};
use augur_ir::{FuncId, Program};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Options of `augur run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Program sources: .c, .bc or .ll files (several are linked).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    pub program_args: Vec<String>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    pub output_dir: Option<PathBuf>,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// Follow the path of this test (JSON or .ktest) only, keeping symbolic values.
    #[arg(long, conflicts_with_all = ["shard", "split", "shard_worker"])]
    pub seed_test: Option<PathBuf>,
    /// Also write the tests in Test-Comp's XML format (metadata.xml + one file per test) to DIR.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "split", "shard_worker"])]
    pub write_testcomp: Option<PathBuf>,
    /// Write a test only for paths that covered new code (and errors at new places), from
    /// the first test on [default: after the first 1000 tests].
    #[arg(long, conflicts_with = "all_tests")]
    pub only_output_states_covering_new: bool,
    /// Write a test for every path, however many.
    #[arg(long)]
    pub all_tests: bool,
    /// Explore with N processes: split the paths into shards (8 per process unless
    /// `--split` says how many), run them N at a time, merge their outputs into `-o`.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: u32,
    /// Explore breadth-first until N states wait, write each as a shard file into
    /// `--shards-dir` and stop (paths that ended before are this run's output).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with = "shard")]
    pub split: Option<u32>,
    /// Where `--split` writes its shard files (with `--jobs`: keep them there).
    #[arg(long, value_name = "DIR")]
    pub shards_dir: Option<PathBuf>,
    /// Run only the paths of this shard (written by `--split`, with the same options).
    #[arg(long, value_name = "FILE", conflicts_with = "jobs")]
    pub shard: Option<PathBuf>,
    /// Run shards named on standard input, one `SHARD<TAB>OUTPUT-DIR` line each, answering
    /// `done` on standard output, the program being this bitcode (compiled from the inputs
    /// by the parent): the worker processes of `--jobs`.
    #[arg(long, hide = true, value_name = "BC", conflicts_with_all = ["shard", "split", "jobs"])]
    pub shard_worker: Option<PathBuf>,
}

/// Tests written for every path before only paths covering new code get one.
const TESTS_BEFORE_FILTERING: u64 = 1000;

/// What every exploration of one `augur run` shares: the compiled program, the options,
/// the symbolic environment, the entry call.
pub struct Setup {
    /// The lowered program (each executor gets a copy).
    pub program: Program,
    /// Engine options from the command line.
    pub opts: Options,
    /// Whether the command line chose the test policy (else a shard's applies).
    pub tests_given: bool,
    /// The program and the options that shape its path tree (shards must match).
    pub id: ProgramId,
    /// The program's linked bitcode.
    pub bitcode: PathBuf,
    spec: augur_env::EnvSpec,
    entry: FuncId,
    argv: Vec<String>,
    seed: Option<SeedInput>,
    _work: tempfile::TempDir,
}

impl Setup {
    /// Compile the inputs and read the options of `a`.
    pub fn new(a: &RunArgs) -> Result<Setup, String> {
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
        let bitcode = match &a.shard_worker {
            Some(bc) => bc.clone(),
            None => augur_env::build_program(&a.inputs, a.explore.cflags(), work.path())?,
        };
        let program = augur_ir::load_program(&bitcode).map_err(|e| e.to_string())?;
        let entry = augur_env::entry_function(&program, &a.explore.entry, &a.inputs[0])?;
        let id = ProgramId::of(&a.inputs, &a.explore, &a.program_args)?;
        let mut argv: Vec<String> = vec![augur_env::program_name(&a.inputs[0])];
        argv.extend(a.program_args.iter().cloned());
        Ok(Setup {
            program,
            opts,
            tests_given: a.only_output_states_covering_new || a.all_tests,
            id,
            bitcode,
            spec,
            entry,
            argv,
            seed,
            _work: work,
        })
    }

    /// A test sink writing into `out`.
    pub fn file_sink(&self, out: &Path) -> Result<FileSink, String> {
        FileSink::new(out, self.argv.clone()).map_err(|e| format!("{}: {e}", out.display()))
    }

    /// An executor with `opts`, its initial states queued, stopped by `interrupt`.
    pub fn executor(
        &self,
        opts: Options,
        sink: Box<dyn TestSink>,
        interrupt: Arc<AtomicBool>,
    ) -> Executor {
        let mut ex = Executor::new(self.program.clone(), &augur_env::handlers(), opts, sink);
        ex.set_interrupt_flag(interrupt);
        session::start(
            &mut ex,
            self.entry,
            &self.spec,
            &self.argv,
            self.seed.clone(),
        );
        ex
    }

    /// Run the paths of the shard in `file` into `out` (summary written); an error if the
    /// shard does not fit the program.
    pub fn run_shard(
        &self,
        mut opts: Options,
        file: &Path,
        out: &Path,
        interrupt: Arc<AtomicBool>,
        progress: &Progress,
    ) -> Result<Executor, String> {
        let shard = Shard::load(file, &self.id)?;
        shard.limits.apply(&mut opts, self.tests_given);
        opts.path_prefix = shard.prefix;
        opts.path_examples = shard.examples;
        let sink = self.file_sink(out)?;
        let on_disk = sink.on_disk();
        let mut ex = self.executor(opts, Box::new(sink), interrupt);
        ex.run(&mut |ex| progress.update(ex));
        progress.finish();
        summarise(&ex, &on_disk, out)?;
        match &ex.stats.prefix_diverged {
            Some(why) => Err(format!(
                "{}: the shard does not fit this program: {why}",
                file.display()
            )),
            None => Ok(ex),
        }
    }
}

/// Wait until the tests of `ex` are on disk, then write its summary and coverage into
/// `out` (so that a summary means a complete output directory).
pub fn summarise(ex: &Executor, on_disk: &TestsOnDisk, out: &Path) -> Result<(), String> {
    on_disk.wait();
    write_summary(ex, out).map_err(|e| format!("{}: cannot write summary: {e}", out.display()))
}
