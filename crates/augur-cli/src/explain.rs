//! `augur explain`: run a buggy program and a reference ("golden") one on the same input,
//! and report the source lines that explain why their behaviour differs.

use crate::seed;
use crate::session::{self, ExploreArgs};
use augur_engine::{Options, SeedInput};
use augur_env::EnvSpec;
use augur_explain::Run;
use augur_explain::Watch;
use augur_explain::{Execution, Settings, Variable};
use augur_solver::SolverConfig;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

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

/// A parsed `--criterion FILE:LINE:VAR`.
struct NamedCriterion {
    file: String,
    line: u32,
    var: String,
}

impl NamedCriterion {
    /// The variable, for the analysis.
    fn variable(&self) -> Variable {
        Variable {
            name: self.var.clone(),
            at: format!("{}:{}", self.file, self.line),
        }
    }
}

fn parse_criterion(s: &str) -> Result<NamedCriterion, String> {
    let mut parts = s.rsplitn(3, ':');
    let (var, line, file) = (parts.next(), parts.next(), parts.next());
    match (file, line.and_then(|l| l.parse().ok()), var) {
        (Some(file), Some(line), Some(var)) if !file.is_empty() && !var.is_empty() => {
            Ok(NamedCriterion {
                file: file.to_string(),
                line,
                var: var.to_string(),
            })
        }
        _ => Err(format!("--criterion {s}: expected FILE:LINE:VAR")),
    }
}

/// Does the criterion's FILE name one of `inputs`?
fn names_input(c: &NamedCriterion, inputs: &[PathBuf]) -> bool {
    let wanted = Path::new(&c.file);
    inputs
        .iter()
        .any(|i| i == wanted || i.file_name() == wanted.file_name())
}

/// The criterion of the program made of `inputs` (`which` names it), if criteria are given.
fn criterion_for<'a>(
    criteria: &'a [NamedCriterion],
    inputs: &[PathBuf],
    which: &str,
) -> Result<Option<&'a NamedCriterion>, String> {
    if criteria.is_empty() {
        return Ok(None);
    }
    let mine: Vec<&NamedCriterion> = criteria.iter().filter(|c| names_input(c, inputs)).collect();
    match mine.as_slice() {
        [c] => Ok(Some(c)),
        [] => Err(format!(
            "--criterion: none names a file of the {which} program ({})",
            inputs[0].display()
        )),
        _ => Err(format!(
            "--criterion: more than one names a file of the {which} program ({})",
            inputs[0].display()
        )),
    }
}

/// The input objects (arguments, standard input, then what the test holds) and the
/// symbolic environment reading them.
fn input(a: &ExplainArgs) -> Result<(EnvSpec, SeedInput), String> {
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
    let mut objects = match &a.test {
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
    };
    let what = a
        .test
        .as_ref()
        .map(|t| t.display().to_string())
        .unwrap_or_else(|| "the input".into());
    if objects.iter().any(|o| o.0 == "n_args") {
        return Err(format!(
            "{what}: tests of --sym-args runs are not supported; give the arguments after --"
        ));
    }
    if let Some(path) = &a.stdin {
        if objects.iter().any(|o| o.0 == "stdin") {
            return Err(format!("{what} already holds standard input; drop --stdin"));
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let at = objects.iter().take_while(|o| is_arg(&o.0)).count();
        objects.insert(at, ("stdin".into(), bytes));
    }
    // The environment's objects come first, in the order it creates them.
    let rank = |n: &str| match n {
        n if is_arg(n) => 0,
        "stdin" => 1,
        n if n.starts_with("file:") => 2,
        _ => 3,
    };
    if objects.windows(2).any(|w| rank(&w[0].0) > rank(&w[1].0)) {
        return Err(format!(
            "{what}: objects out of order (arguments, stdin, files, then the program's own)"
        ));
    }
    let spec = EnvSpec {
        sym_arg: objects
            .iter()
            .filter(|o| is_arg(&o.0))
            .map(|o| o.1.len().saturating_sub(1) as u64)
            .collect(),
        sym_args: Vec::new(),
        sym_stdin: objects
            .iter()
            .find(|o| o.0 == "stdin")
            .map(|o| o.1.len() as u64),
        sym_files: objects
            .iter()
            .filter_map(|o| Some((o.0.strip_prefix("file:")?.to_string(), o.1.len() as u64)))
            .collect(),
        // Seeded, a path fails where its test's `fail:` objects say: any budget covering
        // every kind will do.
        max_fail: objects
            .iter()
            .filter(|o| o.0.starts_with(augur_env::FAILURE_PREFIX))
            .count() as u32,
    };
    Ok((spec, SeedInput { objects }))
}

/// Is this the name of a symbolic argument object (`arg00`, `arg01`, ...)?
fn is_arg(name: &str) -> bool {
    name.strip_prefix("arg")
        .is_some_and(|n| n.len() == 2 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What both runs share.
struct Common<'a> {
    explore: &'a ExploreArgs,
    opts: Options,
    spec: EnvSpec,
    seed: SeedInput,
    interrupt: Arc<AtomicBool>,
}

/// Compile `inputs`, run them on the input while recording, and analyse the run.
fn record(
    c: &Common,
    inputs: &[PathBuf],
    criterion: Option<&NamedCriterion>,
    work: &Path,
) -> Result<Execution, String> {
    let program = session::load_inputs(inputs, c.explore.cflags(), work)?;
    let entry = session::entry_function(&program, &c.explore.entry, &inputs[0])?;
    let watch = criterion
        .map(|nc| Watch::at(&program, &nc.file, nc.line, &nc.var))
        .transpose()?;
    let run = Run {
        name: &inputs[0].display().to_string(),
        entry,
        opts: &c.opts,
        spec: &c.spec,
        seed: &c.seed,
        argv: &[session::program_name(&inputs[0])],
        watch,
        interrupt: c.interrupt.clone(),
    };
    augur_explain::record(program, run)
}

/// Run `augur explain`.
pub fn run(a: ExplainArgs) -> Result<(), String> {
    let started = Instant::now();
    let opts = a.explore.options()?;
    let implication_timeout = session::positive(
        "solver-timeout",
        a.explore.solver_timeout.unwrap_or(IMPLICATION_TIMEOUT),
    )?;
    let (spec, seed) = input(&a)?;
    let criteria = a
        .criterion
        .iter()
        .map(|s| parse_criterion(s))
        .collect::<Result<Vec<_>, _>>()?;
    let golden_crit = criterion_for(&criteria, &a.golden, "golden")?;
    let buggy_crit = criterion_for(&criteria, &a.buggy, "buggy")?;
    let settings = Settings {
        exact: a.exact,
        solver: SolverConfig {
            timeout: Some(implication_timeout),
            ..opts.solver.clone()
        },
        variables: golden_crit
            .zip(buggy_crit)
            .map(|(g, b)| (g.variable(), b.variable())),
    };
    let interrupt = session::ctrl_c_flag();
    let common = Common {
        explore: &a.explore,
        opts,
        spec,
        seed,
        interrupt,
    };
    let work = session::workdir()?;
    let mut golden = record(&common, &a.golden, golden_crit, work.path())?;
    let mut buggy = record(&common, &a.buggy, buggy_crit, work.path())?;
    let mut report = augur_explain::explain(&mut golden, &mut buggy, &settings)?;
    report.figures.time_s = started.elapsed().as_secs_f64();
    report.figures.peak_memory_mib = augur_engine::peak_rss_mib();

    let out = augur_engine::prepare_output_dir(a.output_dir.as_deref())?;
    let write = |name: &str, json: serde_json::Value| {
        let path = out.join(name);
        let text = serde_json::to_string_pretty(&json).expect("JSON values serialise");
        std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
    };
    write("report.json", report.to_json())?;
    write("report.sarif", report.to_sarif())?;
    print!("{}", report.to_text());
    if report.figures.undecided > 0 {
        eprintln!(
            "augur: warning: {} implication queries undecided within {} s; counted as not implied",
            report.figures.undecided,
            implication_timeout.as_secs_f64()
        );
    }
    eprintln!("augur: output directory is {}", out.display());
    Ok(())
}
