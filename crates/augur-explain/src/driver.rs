//! `augur explain`'s driver: the input objects and the environment reading them, the
//! golden and the buggy program each compiled and recorded on that input (`traced.rs`),
//! then [`explain`]; the outcome is the report (`report.json`, `report.sarif`).

use crate::trace::Watch;
use crate::traced::{run_traced, Run};
use crate::{explain, Execution, Report, Settings, Variable};
use augur_engine::{DriverCommon, Progress, SeedInput};
use augur_env::EnvSpec;
use augur_solver::SolverConfig;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to explain.
pub struct Config {
    /// Program building, options, output directory, interruption.
    pub common: DriverCommon,
    /// The reference program's sources.
    pub golden: Vec<PathBuf>,
    /// The sources of the program to debug.
    pub buggy: Vec<PathBuf>,
    /// The input's objects: a test's, or the arguments as `argNN` objects.
    pub objects: Vec<(String, Vec<u8>)>,
    /// The input in messages (the test file, or "the input").
    pub input_name: String,
    /// Standard input of both programs.
    pub stdin: Option<PathBuf>,
    /// `FILE:LINE:VAR` criteria, one per program (none: the first observable difference).
    pub criteria: Vec<String>,
    /// Check each conjunct against the whole other formula instead of pairwise.
    pub exact: bool,
    /// The time each implication or tautology query may take.
    pub implication_timeout: Duration,
}

/// The explanation.
pub struct Outcome {
    /// The output directory.
    pub out: PathBuf,
    /// The report.
    pub report: Report,
}

impl Outcome {
    /// Write `report.json` and `report.sarif` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        let write = |name: &str, json: serde_json::Value| {
            let path = dir.join(name);
            let text = serde_json::to_string_pretty(&json).expect("JSON values serialise");
            std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
        };
        write("report.json", self.report.to_json())?;
        write("report.sarif", self.report.to_sarif())
    }
}

/// Record the golden and the buggy program on the input and explain the difference.
pub fn driver(c: &Config, progress: &dyn Progress) -> Result<Outcome, String> {
    let started = Instant::now();
    let (spec, seed) = input(c)?;
    let criteria = c
        .criteria
        .iter()
        .map(|s| parse_criterion(s))
        .collect::<Result<Vec<_>, _>>()?;
    let golden_crit = criterion_for(&criteria, &c.golden, "golden")?;
    let buggy_crit = criterion_for(&criteria, &c.buggy, "buggy")?;
    let settings = Settings {
        exact: c.exact,
        solver: SolverConfig {
            timeout: Some(c.implication_timeout),
            // The comparison's queries stop at --max-time (counted undecided).
            deadline: c.common.opts.max_time.map(|t| started + t),
            ..c.common.opts.solver.clone()
        },
        variables: golden_crit
            .zip(buggy_crit)
            .map(|(g, b)| (g.variable(), b.variable())),
    };
    progress.message("recording the golden run");
    let mut golden = record_program(c, (&spec, &seed), &c.golden, golden_crit)?;
    progress.message("recording the buggy run");
    let mut buggy = record_program(c, (&spec, &seed), &c.buggy, buggy_crit)?;
    progress.message("explaining");
    let mut report = explain(&mut golden, &mut buggy, &settings)?;
    report.figures.time_s = started.elapsed().as_secs_f64();
    report.figures.peak_memory_mib = augur_engine::peak_rss_mib();
    let out = augur_engine::prepare_output_dir(c.common.output_dir.as_deref())?;
    Ok(Outcome { out, report })
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
fn input(c: &Config) -> Result<(EnvSpec, SeedInput), String> {
    let mut objects = c.objects.clone();
    let what = &c.input_name;
    if objects.iter().any(|o| o.0 == "n_args") {
        return Err(format!(
            "{what}: tests of --sym-args runs are not supported; give the arguments after --"
        ));
    }
    if let Some(path) = &c.stdin {
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

/// Compile `inputs`, run them on the input while recording, and analyse the run.
fn record_program(
    c: &Config,
    (spec, seed): (&EnvSpec, &SeedInput),
    inputs: &[PathBuf],
    criterion: Option<&NamedCriterion>,
) -> Result<Execution, String> {
    let program = augur_env::load_program(inputs, c.common.cflags.clone(), &c.common.work)?;
    let entry = augur_env::entry_function(&program, &c.common.entry, &inputs[0])?;
    let watch = criterion
        .map(|nc| Watch::at(&program, &nc.file, nc.line, &nc.var))
        .transpose()?;
    let run = Run {
        name: &inputs[0].display().to_string(),
        entry,
        opts: &c.common.opts,
        spec,
        seed,
        argv: &[augur_env::program_name(&inputs[0])],
        watch,
        interrupt: c.common.interrupt.clone(),
    };
    run_traced(program, run)
}
