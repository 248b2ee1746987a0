//! `augur run`: explore a program's paths.

use crate::{outdir, progress::Progress, seed};
use augur_engine::memory::Byte;
use augur_engine::output::{summary_json, write_summary, FileSink};
use augur_engine::{Executor, ExternalPolicy, Options, SearchKind};
use augur_ir::CompileOptions;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

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
    /// Extra flags for clang, e.g. "-I include -DDEBUG".
    #[arg(long, allow_hyphen_values = true)]
    cflags: Option<String>,
    /// Function to start from; for a function other than main every argument is symbolic.
    #[arg(long, default_value = "main")]
    entry: String,
    /// Bytes behind each pointer argument of a non-main entry.
    #[arg(long, default_value_t = 16)]
    ptr_size: u64,
    /// Searchers, comma-separated and interleaved: dfs, bfs, random-path, covnew.
    #[arg(long, default_value = "random-path,covnew")]
    search: String,
    /// Stop after this many seconds (everything found so far is written).
    #[arg(long)]
    max_time: Option<f64>,
    /// Stop after this many instructions in total.
    #[arg(long)]
    max_instructions: Option<u64>,
    /// Fork at most this many times in total.
    #[arg(long)]
    max_forks: Option<u64>,
    /// Fork at most this many times on one path.
    #[arg(long)]
    max_depth: Option<u32>,
    /// Memory limit in MiB: beyond it the deepest states are stopped.
    #[arg(long)]
    max_memory: Option<u64>,
    /// Timeout of each solver query, in seconds.
    #[arg(long, default_value_t = 10.0)]
    solver_timeout: f64,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Follow the path of this test (JSON or .ktest) only, keeping symbolic values.
    #[arg(long)]
    seed_test: Option<PathBuf>,
    /// A symbolic argument of up to N bytes (repeatable; after the concrete arguments).
    #[arg(long, value_name = "N")]
    sym_arg: Vec<u64>,
    /// Between MIN and MAX more symbolic arguments of up to N bytes each.
    #[arg(long, num_args = 3, value_names = ["MIN", "MAX", "N"])]
    sym_args: Option<Vec<u64>>,
    /// Standard input is N symbolic bytes.
    #[arg(long, value_name = "N")]
    sym_stdin: Option<u64>,
    /// Opening NAME reads N symbolic bytes (repeatable).
    #[arg(long, value_name = "NAME:N")]
    sym_file: Vec<String>,
    /// Also write the tests in Test-Comp's XML format (metadata.xml + one file per test) to DIR.
    #[arg(long, value_name = "DIR")]
    write_testcomp: Option<PathBuf>,
    /// Calls of external functions with no model: error, or havoc (a fresh symbolic result).
    #[arg(long, default_value = "error", value_parser = ["error", "havoc"])]
    externals: String,
}

fn positive(name: &str, v: f64) -> Result<Duration, String> {
    if v.is_finite() && v > 0.0 {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(format!(
            "--{name} must be a positive number of seconds, not {v}"
        ))
    }
}

fn options(a: &RunArgs) -> Result<Options, String> {
    let search = a
        .search
        .split(',')
        .map(|s| {
            SearchKind::parse(s.trim()).ok_or_else(|| {
                format!("--search: unknown searcher `{s}` (dfs, bfs, random-path, covnew)")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Options {
        search,
        max_time: a.max_time.map(|t| positive("max-time", t)).transpose()?,
        max_instructions: a.max_instructions,
        max_forks: a.max_forks,
        max_depth: a.max_depth,
        max_memory_mib: a.max_memory,
        solver_timeout: Some(positive("solver-timeout", a.solver_timeout)?),
        seed: a.seed,
        externals: if a.externals == "havoc" {
            ExternalPolicy::Havoc
        } else {
            ExternalPolicy::Error
        },
        ptr_size: a.ptr_size,
        ..Options::default()
    })
}

/// The symbolic environment asked for on the command line.
fn env_spec(a: &RunArgs) -> Result<augur_env::entry::EnvSpec, String> {
    let sym_args = match a.sym_args.as_deref() {
        None => None,
        Some([min, max, n]) if min <= max && *max <= 100 => Some((*min as u32, *max as u32, *n)),
        Some(_) => return Err("--sym-args MIN MAX N needs MIN <= MAX <= 100".into()),
    };
    let sym_files = a
        .sym_file
        .iter()
        .map(|f| {
            let (name, n) = f
                .rsplit_once(':')
                .ok_or_else(|| format!("--sym-file {f}: expected NAME:N"))?;
            let n = n
                .parse()
                .map_err(|_| format!("--sym-file {f}: N must be a number of bytes"))?;
            Ok((name.to_string(), n))
        })
        .collect::<Result<_, String>>()?;
    Ok(augur_env::entry::EnvSpec {
        sym_arg: a.sym_arg.clone(),
        sym_args,
        sym_stdin: a.sym_stdin,
        sym_files,
    })
}

/// Run `augur run`.
pub fn run(a: RunArgs) -> Result<(), String> {
    let opts = options(&a)?;
    let spec = env_spec(&a)?;
    let seed = a.seed_test.as_deref().map(seed::load).transpose()?;
    let runtime = augur_env::runtime::runtime_dir()
        .map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
    let work =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let compile = CompileOptions {
        cflags: a
            .cflags
            .as_deref()
            .map(|f| f.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
        include_dirs: vec![runtime.clone()],
    };
    let libc = augur_env::runtime::libc_bitcode(&runtime)?;
    let bc = augur_ir::build_bitcode(&a.inputs, &[libc], &compile, work.path())
        .map_err(|e| e.to_string())?;
    let program = augur_ir::load_program(&bc).map_err(|e| e.to_string())?;
    let entry = program
        .func_named(&a.entry)
        .filter(|f| program.func(*f).is_defined())
        .ok_or_else(|| {
            format!(
                "{}: no function `{}` to start from",
                a.inputs[0].display(),
                a.entry
            )
        })?;

    let out = outdir::prepare(a.output_dir.as_deref())?;
    let prog_name = a.inputs[0]
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut argv: Vec<String> = vec![prog_name];
    argv.extend(a.program_args.iter().cloned());
    let mut sink: Box<dyn augur_engine::TestSink> =
        Box::new(FileSink::new(&out, argv.clone()).map_err(|e| format!("{}: {e}", out.display()))?);
    if let Some(dir) = &a.write_testcomp {
        sink = testcomp_sink(dir, &a.inputs[0], &a.entry, sink)?;
    }
    let mut ex = Executor::new(program, &augur_env::handlers(), opts, sink);
    let flag = ex.interrupt_flag();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));

    let st = ex.initial_state(seed);
    let argv_bytes: Vec<Vec<Byte>> = argv
        .iter()
        .map(|s| s.bytes().map(Byte::C).collect())
        .collect();
    match augur_env::entry::prepare_env(&mut ex, st.clone(), &spec, &argv_bytes) {
        Ok(starts) => {
            for (mut st, args) in starts {
                match augur_env::entry::call_entry(&mut ex, &mut st, entry, &args) {
                    Ok(()) => ex.enqueue(st),
                    Err(outcome) => ex.finish(st, outcome),
                }
            }
        }
        Err(outcome) => ex.finish(st, outcome),
    }
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
    let meta = augur_engine::testcomp::metadata_xml(&name, &hash, entry);
    let sink = augur_engine::testcomp::TestCompSink::new(dir, &meta, next)
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
    eprintln!(
        "augur: done: lines covered = {}/{}",
        s["coverage"]["lines_covered"], s["coverage"]["lines_total"]
    );
    eprintln!(
        "augur: done: solver queries = {}, solver calls = {}, cache hits = {}, solver time = {:.2}s",
        s["solver"]["queries"], s["solver"]["solver_calls"], s["solver"]["cache_hits"],
        s["solver"]["time_s"].as_f64().unwrap_or(0.0)
    );
    for e in &ex.stats.errors {
        eprintln!(
            "augur: error: {} at {}:{}: {} (test{:06})",
            e.kind, e.file, e.line, e.message, e.test
        );
    }
    eprintln!("augur: done: time = {:.2}s", ex.stats.time_s);
}
