//! The `augur` command: parses options (clap) and hands the work to the library crates.

mod diff;
mod explain;
mod explore;
mod inject;
mod merge;
mod numbers;
mod progress;
mod project;
mod record;
mod replay;
mod repro;
mod run;
mod seed;
mod session;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// `augur --version`: the version, the LLVM this build reads and the Z3 it solves with
/// (`0.1.0 (LLVM 14, Z3 5.4.1.0)`).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} (LLVM {}, Z3 {})",
        env!("CARGO_PKG_VERSION"),
        augur_ir::LLVM_VERSION,
        augur_solver::z3_version()
    )
});

/// augur: a symbolic-execution workbench for C programs.
#[derive(Parser)]
#[command(name = "augur", version = VERSION.as_str(), about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each command's `--help` ends with the page of `docs/` that describes it (checked by
/// `tests/docs.rs`).
#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once: boxing would buy nothing
enum Command {
    /// Explore every path of a program: one test per path, every error with its input.
    #[command(after_help = "Documentation: docs/run.md")]
    Run(run::RunArgs),
    /// Replay tests on the program compiled natively (with sanitizers): check each outcome.
    #[command(after_help = "Documentation: docs/replay.md")]
    Replay(replay::ReplayArgs),
    /// Tell N revisions of a program apart: differential tests, classes, a decision tree.
    #[command(after_help = "Documentation: docs/diff.md")]
    Diff(diff::DiffArgs),
    /// Explain why a program fails on an input, against a reference program: the source
    /// lines behind the difference.
    #[command(after_help = "Documentation: docs/explain.md")]
    Explain(explain::ExplainArgs),
    /// Inject rare, deep bugs along seed paths, each verified natively with its
    /// triggering input: a bug corpus.
    #[command(after_help = "Documentation: docs/inject.md")]
    Inject(inject::InjectArgs),
    /// Build a program natively, instrumented to log what its hard-to-resolve functions
    /// return (`--list`: the functions and why; `--show LOG`: a log).
    #[command(after_help = "Documentation: docs/repro.md")]
    Record(record::RecordArgs),
    /// Find an input that reproduces a crash from its report (stack trace) and the log of
    /// `augur record`'s binary; verify it natively.
    #[command(after_help = "Documentation: docs/repro.md")]
    Repro(repro::ReproArgs),
    /// Merge the output directories of one exploration's shards (and of its split) into
    /// one: tests renumbered, summaries summed, coverage united, errors deduplicated.
    #[command(after_help = "Documentation: docs/run.md#all-cores-many-machines-shards")]
    Merge(merge::MergeArgs),
    /// A C compiler for a project's own build (`make CC='augur cc'`): builds natively as
    /// clang does and records each source's bitcode for `augur extract-bc`.
    #[command(after_help = "Documentation: docs/projects.md")]
    Cc(project::CcArgs),
    /// Link the bitcode of a program built with `augur cc` into one file to analyse.
    #[command(after_help = "Documentation: docs/projects.md")]
    ExtractBc(project::ExtractArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("AUGUR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .without_time()
        .init();
    // Installed as `augur-cc` (a link to augur), it is the compiler itself, for builds
    // that want one word in CC.
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if std::path::Path::new(&argv[0]).file_name() == Some("augur-cc".as_ref()) {
        let args = argv.drain(1..).map(|a| a.to_string_lossy().into_owned());
        return ExitCode::from(augur_env::project::cc(&args.collect::<Vec<_>>()) as u8);
    }
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // The command runs on a thread with a large stack: Z3 recurses through a query's
    // terms, and the deep terms of real programs (gzip's CRC over its window) overflowed
    // the main thread's 8 MiB. Only the pages used are ever committed.
    let command = std::thread::Builder::new()
        .name("augur".into())
        .stack_size(COMMAND_STACK)
        .spawn(move || execute(cli.command))
        .expect("a thread for the command");
    command.join().unwrap_or(ExitCode::from(101))
}

/// The stack of the thread a command runs on.
const COMMAND_STACK: usize = 1 << 30;

/// Run one command: its exit status.
fn execute(command: Command) -> ExitCode {
    let result = match command {
        Command::Run(args) => run::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Inject(args) => inject::run(args),
        Command::Record(args) => record::run(args),
        Command::Repro(args) => repro::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Cc(args) => return ExitCode::from(project::cc(args) as u8),
        Command::ExtractBc(args) => project::extract(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("augur: error: {msg}");
            ExitCode::from(2)
        }
    }
}
