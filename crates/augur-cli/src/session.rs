//! What every command that executes a program shares: the exploration options (search,
//! limits, symbolic environment), compiling the inputs with augur's runtime, and starting
//! the initial states at the entry function.

use crate::numbers;
use augur_engine::{Executor, ExternalPolicy, Options, SearchKind, SeedInput};
use augur_ir::FuncId;
use augur_solver::SolverConfig;
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Options of a symbolic exploration (shared by `run`, `diff`, ...).
#[derive(Args, Debug, Clone)]
pub struct ExploreArgs {
    /// Extra flags for clang, e.g. "-I include -DDEBUG".
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Function to start from; for a function other than main every argument is symbolic.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Bytes behind each pointer argument of a non-main entry.
    #[arg(long, default_value_t = 16, allow_hyphen_values = true, value_parser = numbers::symbolic_bytes)]
    pub ptr_size: u64,
    /// Searchers, comma-separated and interleaved: dfs, bfs, random-path, covnew,
    /// directed:FILE:LINE (states closest to that line first).
    #[arg(long, default_value = "random-path,covnew")]
    pub search: String,
    /// Stop after this many seconds (everything found so far is written).
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::seconds)]
    pub max_time: Option<f64>,
    /// Stop after this many instructions in total.
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::at_least_one)]
    pub max_instructions: Option<u64>,
    /// Fork at most this many times in total.
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::at_least_one)]
    pub max_forks: Option<u64>,
    /// Fork at most this many times on one path.
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::at_least_one_u32)]
    pub max_depth: Option<u32>,
    /// Memory limit in MiB (heap in use): over it no path forks and states chosen at
    /// random are stopped (partial paths, tests written) [default: 2000, as KLEE's].
    #[arg(long, allow_hyphen_values = true, value_parser = numbers::at_least_one)]
    pub max_memory: Option<u64>,
    /// Timeout of each solver query, in seconds [default: 10; `explain`'s implication
    /// queries: 2].
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = numbers::seconds)]
    pub solver_timeout: Option<f64>,
    /// Solver layers in front of Z3, comma-separated: fast, independence, query-cache,
    /// order, cex-cache, exhaustive; or all, none.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub solver_layers: String,
    /// Write every query reaching Z3 into DIR as an SMT-LIB2 file (query-000001.smt2, ...).
    #[arg(long, value_name = "DIR")]
    pub log_queries: Option<PathBuf>,
    /// Check every solver answer against a fresh Z3 solver (slow; for debugging augur):
    /// disagreements are logged and counted in summary.json.
    #[arg(long)]
    pub solver_cross_check: bool,
    /// How long Z3 works alone on a query, in milliseconds, before a model search joins it
    /// [default: 50].
    #[arg(long, value_name = "MS", allow_hyphen_values = true, value_parser = numbers::at_least_one)]
    pub search_after: Option<u64>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = numbers::from_zero)]
    pub seed: u64,
    /// A symbolic argument of up to N bytes (repeatable; after the concrete arguments).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = numbers::symbolic_bytes)]
    pub sym_arg: Vec<u64>,
    /// Between MIN and MAX more symbolic arguments of up to N bytes each (repeatable: each
    /// group follows the previous one and the `--sym-arg`s in argv).
    #[arg(long, num_args = 3, value_names = ["MIN", "MAX", "N"], action = clap::ArgAction::Append,
          allow_hyphen_values = true, value_parser = numbers::from_zero)]
    pub sym_args: Vec<u64>,
    /// Standard input is N symbolic bytes.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = numbers::symbolic_bytes)]
    pub sym_stdin: Option<u64>,
    /// Opening NAME reads N symbolic bytes (repeatable).
    #[arg(long, value_name = "NAME:N")]
    pub sym_file: Vec<String>,
    /// N symbolic files of LEN bytes each, named A, B, C ... (as KLEE's `--sym-files`).
    #[arg(long, num_args = 2, value_names = ["N", "LEN"], allow_hyphen_values = true,
          value_parser = numbers::symbolic_bytes)]
    pub sym_files: Option<Vec<u64>>,
    /// Calls of external functions with no model: error, or havoc (a fresh symbolic result).
    #[arg(long, default_value = "error", value_parser = ["error", "havoc"])]
    pub externals: String,
    /// The modelled system calls (read, write, open, close, lseek, stat, ftruncate) may
    /// fail, up to N times per path (each kind at most once), as KLEE's `--max-fail`.
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub max_fail: u32,
    /// Floating point on symbolic values: symbolic (solved with Z3's floating-point
    /// theory), or concrete (made concrete first, as KLEE does).
    #[arg(long, default_value = "symbolic", value_parser = ["symbolic", "concrete"])]
    pub float: String,
}

/// Seconds a solver query may take unless `--solver-timeout` says otherwise.
const DEFAULT_SOLVER_TIMEOUT: f64 = 10.0;

/// MiB of heap a run may hold unless `--max-memory` says otherwise: KLEE's default, so
/// that a long run is bounded out of the box (without it `wc` held 9.7 GB at 60 s).
const DEFAULT_MAX_MEMORY_MIB: u64 = 2000;

/// `v` seconds as a duration, if positive (`name` names the option in the error).
pub fn positive(name: &str, v: f64) -> Result<Duration, String> {
    if v.is_finite() && v > 0.0 {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(format!(
            "--{name} must be a positive number of seconds, not {v}"
        ))
    }
}

impl ExploreArgs {
    /// What a driver's `Config` holds in common: these options, `-o` and a scratch
    /// directory; Ctrl-C stops the driver.
    pub fn common(
        &self,
        output_dir: Option<PathBuf>,
        work: &tempfile::TempDir,
    ) -> Result<augur_engine::DriverCommon, String> {
        Ok(augur_engine::DriverCommon {
            cflags: self.cflags(),
            entry: self.entry.clone(),
            opts: self.options()?,
            output_dir,
            work: work.path().to_path_buf(),
            interrupt: ctrl_c_flag(),
        })
    }

    /// The engine options these arguments ask for.
    pub fn options(&self) -> Result<Options, String> {
        let search = self
            .search
            .split(',')
            .map(|s| {
                SearchKind::parse(s.trim()).ok_or_else(|| {
                    format!("--search: unknown searcher `{s}` (dfs, bfs, random-path, covnew, directed:FILE:LINE)")
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Options {
            search,
            max_time: self.max_time.map(|t| positive("max-time", t)).transpose()?,
            max_instructions: self.max_instructions,
            max_forks: self.max_forks,
            max_depth: self.max_depth,
            max_memory_mib: Some(self.max_memory.unwrap_or(DEFAULT_MAX_MEMORY_MIB)),
            solver: self.solver_config()?,
            seed: self.seed,
            externals: if self.externals == "havoc" {
                ExternalPolicy::Havoc
            } else {
                ExternalPolicy::Error
            },
            ptr_size: self.ptr_size,
            symbolic_floats: self.float == "symbolic",
            ..Options::default()
        })
    }

    /// The solver chain asked for (creates the query log directory).
    fn solver_config(&self) -> Result<SolverConfig, String> {
        let layers = self
            .solver_layers
            .parse()
            .map_err(|e| format!("--solver-layers: {e}"))?;
        if let Some(dir) = &self.log_queries {
            std::fs::create_dir_all(dir).map_err(|e| {
                format!(
                    "--log-queries {}: cannot create the directory: {e}",
                    dir.display()
                )
            })?;
        }
        Ok(SolverConfig {
            layers,
            timeout: Some(positive(
                "solver-timeout",
                self.solver_timeout.unwrap_or(DEFAULT_SOLVER_TIMEOUT),
            )?),
            log_queries: self.log_queries.clone(),
            cross_check: self.solver_cross_check,
            search_after: self.search_after.map(Duration::from_millis),
            deadline: None,
        })
    }

    /// The symbolic environment asked for on the command line.
    pub fn env_spec(&self) -> Result<augur_env::EnvSpec, String> {
        let sym_args = self
            .sym_args
            .chunks(3)
            .map(|g| match g {
                [min, max, n]
                    if min <= max
                        && *max <= 100
                        && numbers::symbolic_bytes(&n.to_string()).is_ok() =>
                {
                    Ok((*min as u32, *max as u32, *n))
                }
                _ => Err(format!(
                    "--sym-args {}: needs MIN MAX N with MIN <= MAX <= 100 and N from 1 to {}",
                    g.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
                    numbers::MAX_SYMBOLIC_BYTES
                )),
            })
            .collect::<Result<Vec<_>, String>>()?;
        let combinations: u64 = sym_args.iter().map(|g| (g.1 - g.0 + 1) as u64).product();
        if combinations > 4096 {
            return Err(format!(
                "--sym-args: {combinations} combinations of argument counts (at most 4096)"
            ));
        }
        let mut sym_files: Vec<(String, u64)> = self
            .sym_file
            .iter()
            .map(|f| {
                let (name, n) = f
                    .rsplit_once(':')
                    .ok_or_else(|| format!("--sym-file {f}: expected NAME:N"))?;
                let n = numbers::symbolic_bytes(n).map_err(|e| format!("--sym-file {f}: {e}"))?;
                Ok((name.to_string(), n))
            })
            .collect::<Result<_, String>>()?;
        if let Some([n, len]) = self.sym_files.as_deref() {
            if *n > 26 {
                return Err(format!("--sym-files {n} {len}: at most 26 files (A to Z)"));
            }
            sym_files.extend((0..*n as u8).map(|i| (((b'A' + i) as char).to_string(), *len)));
        }
        Ok(augur_env::EnvSpec {
            sym_arg: self.sym_arg.clone(),
            sym_args,
            sym_stdin: self.sym_stdin,
            sym_files,
            max_fail: self.max_fail,
        })
    }

    /// The options that shape the tree of paths (program build, entry, symbolic
    /// environment, external calls), as command-line arguments: a shard's prefix means the
    /// same paths only under the same ones.
    pub fn tree_args(&self) -> Vec<String> {
        let mut a = ArgList::default();
        a.opt("cflags", &self.cflags);
        a.one("entry", &self.entry);
        a.one("ptr-size", self.ptr_size);
        a.each("sym-arg", &self.sym_arg);
        for g in self.sym_args.chunks(3) {
            a.0.push("--sym-args".into());
            a.0.extend(g.iter().map(u64::to_string));
        }
        a.opt("sym-stdin", &self.sym_stdin);
        a.each("sym-file", &self.sym_file);
        if let Some(f) = &self.sym_files {
            a.0.push("--sym-files".into());
            a.0.extend(f.iter().map(u64::to_string));
        }
        a.one("externals", &self.externals);
        a.one("max-fail", self.max_fail);
        a.one("float", &self.float);
        a.0
    }

    /// Every option, as command-line arguments that parse back to these (for child
    /// processes running shards).
    pub fn to_args(&self) -> Vec<String> {
        // Destructured so that a new option cannot be forgotten here.
        let ExploreArgs {
            cflags: _,
            entry: _,
            ptr_size: _,
            sym_arg: _,
            sym_args: _,
            sym_stdin: _,
            sym_file: _,
            sym_files: _,
            externals: _,
            max_fail: _,
            float: _,
            search,
            max_time,
            max_instructions,
            max_forks,
            max_depth,
            max_memory,
            solver_timeout,
            solver_layers,
            log_queries,
            solver_cross_check,
            search_after,
            seed,
        } = self;
        let mut a = ArgList(self.tree_args());
        a.one("search", search);
        a.opt("max-time", max_time);
        a.opt("max-instructions", max_instructions);
        a.opt("max-forks", max_forks);
        a.opt("max-depth", max_depth);
        a.opt("max-memory", max_memory);
        a.opt("solver-timeout", solver_timeout);
        a.one("solver-layers", solver_layers);
        a.opt("log-queries", &log_queries.as_ref().map(|p| p.display()));
        a.opt("search-after", search_after);
        if *solver_cross_check {
            a.0.push("--solver-cross-check".into());
        }
        a.one("seed", seed);
        a.0
    }

    /// The extra clang flags, split.
    pub fn cflags(&self) -> Vec<String> {
        self.cflags
            .as_deref()
            .map(|f| f.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }
}

/// A work directory for intermediate files, removed when dropped.
pub fn workdir() -> Result<tempfile::TempDir, String> {
    tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))
}

/// A flag Ctrl-C sets, for drivers that run several executors.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    set_on_ctrl_c(flag.clone());
    flag
}

fn set_on_ctrl_c(flag: Arc<AtomicBool>) {
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
}

/// Create the initial states (one per symbolic argument count) calling `entry` with
/// `argv` and the symbolic environment `spec`, and queue them.
pub fn start(
    ex: &mut Executor,
    entry: FuncId,
    spec: &augur_env::EnvSpec,
    argv: &[String],
    seed: Option<SeedInput>,
) {
    let st = ex.initial_state(seed);
    augur_env::start(ex, st, entry, spec, argv);
}

/// Command-line arguments being written back from parsed options.
#[derive(Default)]
struct ArgList(Vec<String>);

impl ArgList {
    /// `--name value`.
    fn one(&mut self, name: &str, v: impl std::fmt::Display) {
        self.0.push(format!("--{name}"));
        self.0.push(v.to_string());
    }

    /// `--name value` if there is a value.
    fn opt(&mut self, name: &str, v: &Option<impl std::fmt::Display>) {
        if let Some(v) = v {
            self.one(name, v);
        }
    }

    /// `--name value` for each value.
    fn each(&mut self, name: &str, vs: &[impl std::fmt::Display]) {
        for v in vs {
            self.one(name, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ExploreArgs;
    use clap::Parser;

    /// A command line of exploration options alone.
    #[derive(Parser)]
    struct Line {
        #[command(flatten)]
        explore: ExploreArgs,
    }

    fn max_memory(args: &[&str]) -> Option<u64> {
        let line = Line::try_parse_from(std::iter::once("augur").chain(args.iter().copied()));
        line.unwrap().explore.options().unwrap().max_memory_mib
    }

    #[test]
    fn memory_is_bounded_by_default_as_in_klee() {
        assert_eq!(max_memory(&[]), Some(2000));
        assert_eq!(max_memory(&["--max-memory", "64"]), Some(64));
    }
}
