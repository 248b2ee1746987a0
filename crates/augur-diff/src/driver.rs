//! `augur diff` from start to end: build the meta program of the revisions
//! (`revisions.rs`), explore it once, pair halted paths of different revisions into
//! differential tests (asking the solver only for revision pairs not yet told apart), run
//! every test on every revision, cluster, and build the tree.

use crate::difftest::{solve, DiffInput};
use crate::extension::DiffExtension;
use crate::halts::{Halt, HaltCollector, OutputSelection};
use crate::report::Report;
use crate::rerun::{common_view, show_output, Natives, Observation, Rerunner, Start};
use crate::tree::{self, DecisionTree, TestSplit};
use augur_engine::{DriverCommon, Executor, Options, Progress, TestCase, TestSink};
use augur_env::EnvSpec;
use augur_ir::Program;
use rustc_hash::FxHashMap;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Distinct exit codes a path may fork into when its exit code is symbolic, so that
/// revisions differing only in exit codes on other inputs are still paired.
pub const EXIT_CODES: u32 = 8;

/// What to tell apart, and how.
pub struct Config {
    /// Program building, options, output directory, interruption.
    pub common: DriverCommon,
    /// BASE then each revision (C files or directories of C files); or BASE alone with
    /// `patches`; or one hand-written meta program using `augur_meta(site)`.
    pub inputs: Vec<PathBuf>,
    /// Revisions given as unified diffs over BASE.
    pub patches: Vec<PathBuf>,
    /// Revisions of a hand-written meta program (None: inferred from its code).
    pub revisions: Option<u32>,
    /// Concrete arguments after argv[0].
    pub program_args: Vec<String>,
    /// The symbolic environment.
    pub spec: EnvSpec,
    /// The outputs compared.
    pub selected: OutputSelection,
    /// Differential tests asked of the solver per revision pair.
    pub tests_per_pair: usize,
    /// Time limit of one native run of a test.
    pub native_timeout: Duration,
}

/// Everything one exploration of a meta program needs.
struct MetaRun {
    /// Revision names, revision 0 (the base) first.
    pub names: Vec<String>,
    /// The meta program (built by [`crate::merge`] or hand-written).
    pub program: Program,
    /// Exploration options (limits, search).
    pub opts: Options,
    /// Revisions of a hand-written meta program (its `augur_meta` sites fork into
    /// revisions 1..N-1); 1 for a meta program built from revisions.
    pub meta_revisions: u32,
    /// Where runs start.
    pub start: Start,
    /// The revisions compiled natively.
    pub natives: Natives,
    /// Time limit of one native run of a test.
    pub native_timeout: std::time::Duration,
    /// The outputs compared.
    pub selected: OutputSelection,
    /// Differential tests asked of the solver per revision pair (`--tests-per-pair`).
    pub tests_per_pair: usize,
    /// The output directory.
    pub out: PathBuf,
    /// The meta program's dispatched and observed functions (for the summary).
    pub sites: crate::meta::Sites,
}

/// Tell the revisions of `c` apart: build their meta program, explore it, pair, re-run,
/// cluster, build the tree. Differential tests are written into `difftests/` of
/// [`Outcome::out`] as they are found; [`Outcome::write`] writes the rest.
pub fn driver(c: &Config, progress: &dyn Progress) -> Result<Outcome, String> {
    if c.tests_per_pair == 0 {
        return Err("--tests-per-pair must be at least 1".into());
    }
    let hand_written = c.inputs.len() == 1 && c.patches.is_empty();
    let p = if hand_written {
        crate::revisions::hand_written_meta(c, &c.common.work)?
    } else {
        crate::revisions::merged_meta(c, &c.common.work)?
    };
    let entry = augur_env::entry_function(&p.program, &c.common.entry, &c.inputs[0])?;
    let out = augur_engine::prepare_output_dir(c.common.output_dir.as_deref())?;
    let mut argv = vec![p.argv0];
    argv.extend(c.program_args.iter().cloned());
    let run = MetaRun {
        names: p.names,
        program: p.program,
        opts: c.common.opts.clone(),
        meta_revisions: p.meta_revisions,
        start: Start {
            entry,
            argv,
            spec: c.spec.clone(),
        },
        natives: p.natives,
        native_timeout: c.native_timeout,
        selected: c.selected,
        tests_per_pair: c.tests_per_pair,
        out,
        sites: p.sites,
    };
    run_meta(run, c.common.interrupt.clone(), progress)
}

/// A differential test and what every revision did on it.
pub struct DiffTest {
    /// The solved input.
    pub input: DiffInput,
    /// Observation of each revision.
    pub observed: Vec<Observation>,
}

/// The result of a run.
pub struct Outcome {
    /// The output directory (the differential tests are in it).
    pub out: PathBuf,
    /// The tests, in the order found.
    pub tests: Vec<DiffTest>,
    /// The final partition of the revisions.
    pub classes: Vec<Vec<usize>>,
    /// The decision tree.
    pub tree: DecisionTree,
    /// Whether exploration covered every path (no limit, no interruption).
    pub complete: bool,
    /// Whether every candidate pair of halted paths was examined.
    pub pairing_complete: bool,
    /// Pairs of paths of different revisions not compared because they created different
    /// inputs (a revision reads another object first).
    pub pairs_with_other_inputs: usize,
    /// summary.json.
    pub summary: Json,
    splits: Vec<TestSplit>,
    report: Report,
}

impl Outcome {
    /// Write `clusters.json`, the tree (`tree.txt`, `.json`, `.dot`) and `summary.json`
    /// into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        self.report.finish(dir, self, &self.splits)
    }
}

/// `done` of `total` candidate pairs of halted paths are done; `tests` found so far.
fn pairing(progress: &dyn Progress, done: usize, total: usize, tests: usize) {
    progress.message(&format!(
        "pairing halted paths {done}/{total} | differential tests {tests}"
    ));
}

struct NoTests;

impl TestSink for NoTests {
    fn write(&mut self, _: &TestCase) {}
}

/// Explore and pair. `interrupt` (Ctrl-C) stops exploring; the halted paths found are
/// still paired, and a second interrupt stops pairing. With `--max-time`, pairing may take
/// as long again. Everything found is kept; differential tests are written into
/// `out/difftests` as they are found.
fn run_meta(
    cfg: MetaRun,
    interrupt: Arc<AtomicBool>,
    progress: &dyn Progress,
) -> Result<Outcome, String> {
    let handlers = augur_env::handlers();
    let (mut ex, halts) = explore(&cfg, &handlers, &interrupt, progress);
    let complete = ex.stats.paths_partial == 0
        && ex.stats.forks_suppressed == 0
        && !interrupt.swap(false, Ordering::Relaxed);
    let deadline = cfg.opts.max_time.map(|t| Instant::now() + t);
    // No pairing query outlives the pairing's own time.
    ex.solver.set_deadline(deadline);
    let report = Report::new(&cfg.out, cfg.names.clone(), cfg.sites.clone())?;
    let n = cfg.names.len();
    let tests_per_pair = cfg.tests_per_pair;
    let native_timeout = cfg.native_timeout;
    let mut rerunner = rerunner(
        cfg.program.clone(),
        &cfg.opts,
        cfg.meta_revisions,
        &handlers,
        cfg.start,
        cfg.natives,
        cfg.selected,
    );
    rerunner.timeout = native_timeout;
    let mut tests: Vec<DiffTest> = Vec::new();
    let mut told_apart: FxHashMap<(u32, u32), usize> = FxHashMap::default();
    let found = crate::pairs::candidates(&mut ex.pool, &halts);
    let candidates = found.pairs;
    if found.cut {
        tracing::warn!(
            "more than {} candidate pairs of halted paths: only the first are examined",
            crate::pairs::MAX_CANDIDATES
        );
    }
    let mut pairing_complete = !found.cut;
    for (k, &(i, j)) in candidates.iter().enumerate() {
        if k % 64 == 0 {
            pairing(progress, k, candidates.len(), tests.len());
        }
        if deadline.is_some_and(|d| Instant::now() >= d) || interrupt.load(Ordering::Relaxed) {
            tracing::warn!(
                "pairing stopped after {k} of {} candidate pairs",
                candidates.len()
            );
            pairing_complete = false;
            break;
        }
        let (a, b) = (&halts[i], &halts[j]);
        let pair = (a.revision.min(b.revision), a.revision.max(b.revision));
        if told_apart.get(&pair).copied().unwrap_or(0) >= tests_per_pair {
            continue;
        }
        let input = match solve(&mut ex, a, b) {
            Ok(Some(input)) => input,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!("no differential test for a pair of paths: {e}");
                continue;
            }
        };
        let observed: Vec<Observation> = (0..n as u32)
            .map(|r| rerunner.observe(&input.objects, r))
            .collect();
        count_told_apart(&common_view(&observed), &mut told_apart);
        let test = DiffTest { input, observed };
        report.write_test(tests.len(), &test)?;
        tests.push(test);
    }
    pairing(progress, candidates.len(), candidates.len(), tests.len());
    let splits: Vec<TestSplit> = tests
        .iter()
        .enumerate()
        .map(|(k, t)| split(k, &common_view(&t.observed)))
        .collect();
    let mut outcome = Outcome {
        out: cfg.out,
        classes: tree::classes(n, &splits),
        tree: tree::build(cfg.names.clone(), &splits, tree::DEFAULT_BUDGET),
        tests,
        complete,
        pairing_complete,
        pairs_with_other_inputs: found.other_inputs,
        summary: Json::Null,
        splits,
        report,
    };
    outcome.summary = outcome.report.summary(&outcome, &ex);
    Ok(outcome)
}

/// Explore the meta program once; returns the executor (its pool holds the paths'
/// expressions) and the halted paths.
fn explore(
    cfg: &MetaRun,
    handlers: &augur_engine::HandlerTable,
    interrupt: &Arc<AtomicBool>,
    progress: &dyn Progress,
) -> (Executor, Vec<Halt>) {
    let mut opts = cfg.opts.clone();
    opts.pin_invalid_pointers = false;
    opts.exit_codes = EXIT_CODES;
    let mut ex = Executor::new(cfg.program.clone(), handlers, opts, Box::new(NoTests));
    ex.add_extension(Box::new(DiffExtension::new(cfg.meta_revisions)));
    ex.set_interrupt_flag(interrupt.clone());
    let collector = HaltCollector::new(cfg.selected);
    let halts = collector.halts.clone();
    ex.add_observer(Box::new(collector));
    let st = ex.initial_state(None);
    let s = &cfg.start;
    augur_env::start(&mut ex, st, s.entry, &s.spec, &s.argv);
    ex.run(&mut |e| progress.exploring(e));
    let halts = halts.take();
    (ex, halts)
}

/// A runner of tests on every revision, on its own executor (no exploration limits).
fn rerunner(
    program: augur_ir::Program,
    explore: &Options,
    meta_revisions: u32,
    handlers: &augur_engine::HandlerTable,
    start: Start,
    natives: Natives,
    selected: OutputSelection,
) -> Rerunner {
    let opts = Options {
        search: vec![augur_engine::SearchKind::Dfs],
        solver: explore.solver.clone(),
        externals: explore.externals,
        ptr_size: explore.ptr_size,
        ..Options::default()
    };
    let mut ex = Executor::new(program, handlers, opts, Box::new(NoTests));
    ex.add_extension(Box::new(DiffExtension::new(meta_revisions)));
    Rerunner::new(ex, start, natives, selected)
}

/// Count, for every pair of revisions the observations tell apart, one more test.
fn count_told_apart(compared: &[Observation], told_apart: &mut FxHashMap<(u32, u32), usize>) {
    for x in 0..compared.len() {
        for y in x + 1..compared.len() {
            if compared[x] != compared[y] {
                *told_apart.entry((x as u32, y as u32)).or_default() += 1;
            }
        }
    }
}

/// One aspect of an observation, shown in the tree when revisions differ in it.
enum Aspect {
    Ending,
    Output(String),
    Native,
}

impl Aspect {
    fn show(&self, o: &Observation) -> Option<String> {
        match self {
            Aspect::Ending => Some(o.ending.clone()),
            Aspect::Output(name) => o
                .outputs
                .iter()
                .find(|(n, _)| n == name)
                .map(|(n, b)| match n.as_str() {
                    "stdout" | "stderr" => format!("{n} {:?}", show_output(n, b)),
                    _ => format!("{n} {}", show_output(n, b)),
                }),
            Aspect::Native => o.native.as_ref().map(|n| format!("native {}", n.ending)),
        }
    }
}

/// Test `k`'s partition of the revisions, each class described by the aspects of its
/// observation that differ between revisions on this test.
fn split(k: usize, observed: &[Observation]) -> TestSplit {
    let mut aspects = vec![Aspect::Ending];
    for o in observed {
        for (n, _) in &o.outputs {
            if !aspects
                .iter()
                .any(|a| matches!(a, Aspect::Output(m) if m == n))
            {
                aspects.push(Aspect::Output(n.clone()));
            }
        }
    }
    aspects.push(Aspect::Native);
    aspects.retain(|a| observed.iter().any(|o| a.show(o) != a.show(&observed[0])));
    TestSplit::from_outputs(format!("difftest {:03}", k + 1), observed, |o| {
        let text: Vec<String> = aspects.iter().filter_map(|a| a.show(o)).collect();
        if text.is_empty() {
            "(same)".into()
        } else {
            text.join(", ")
        }
    })
}
