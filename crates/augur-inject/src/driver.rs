//! `augur inject` end to end (the paper's Algorithm 1): seed paths, transition points,
//! synthesis, embedding, native verification.

use crate::builds::{self, Build, Flavour};
use crate::embed::{self, BugPlan, Kind, Site};
use crate::measure;
use crate::mutants;
use crate::points::{self, Point};
use crate::predicate::Pred;
use crate::project::BuggyBuilds;
use crate::rarity::{self, Rates};
use crate::sample::{self, Counted};
use crate::seeded::{self, SeededRun};
use crate::seeds;
use crate::setup::Setup;
use crate::space::Space;
use crate::synth;
use crate::verify::{self, Buggy, Objects, Original, Source, Target, Verification};
use augur_engine::{Progress, Rng, SeedInput};
use augur_expr::{Assignment, ExprId};
use augur_ir::FileId;
use augur_solver::SolverChain;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Path samples for synthesis, per verification input (`--samples`).
const SYNTH_SAMPLES: usize = 5;
/// Seed paths recorded at most (the best-scoring are used first).
const MAX_SEEDS: usize = 32;

/// What the user asked for.
#[derive(Clone, Debug)]
pub struct InjectOptions {
    /// The user's seed tests (empty: explore the program for seed paths).
    pub seed_tests: Vec<SeedInput>,
    /// Bugs to inject.
    pub bugs: usize,
    /// Transition points per bug.
    pub points: usize,
    /// Path samples for counting, and inputs tried in verification.
    pub samples: usize,
    /// The program's own tests (`--pool`): run on every bug, to measure how often it
    /// fires and check the rest behave as on the original.
    pub pool: Vec<Objects>,
    /// Random inputs and mutations of the program's own inputs run on every bug (half
    /// each), for the same; as many mutations of its trigger are run and reported too.
    pub measure: usize,
    /// The highest share of the pool tests, random inputs or mutations of the program's
    /// own inputs (the pool and explored tests) that a bug may fire on
    /// (`--max-fire-rate`; the trigger's mutations are reported, not gating):
    /// candidates are measured natively on as many of each (`measure`) before one is
    /// chosen, and a bug that fires more often in its verification is not emitted. 1
    /// (or no `measure`) turns selection off.
    pub max_fire_rate: f64,
    /// The bug action.
    pub kind: Kind,
    /// All bugs in one program?
    pub one_program: bool,
    /// Time for the exploration that finds seed paths and verification inputs.
    pub explore_time: Duration,
    /// Seed of every random choice.
    pub seed: u64,
    /// Timeout of each native run.
    pub timeout: Duration,
    /// When the whole command must end (`--max-time`): later phases are cut short, the
    /// bugs not done by then reported as not emitted.
    pub deadline: Option<Instant>,
}

impl InjectOptions {
    /// Has the deadline passed?
    fn time_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Is measured rarity a selection criterion?
    fn selects(&self) -> bool {
        self.measure > 0 && self.max_fire_rate < 1.0
    }

    /// Are several candidates synthesized for each bug, measured natively and one picked:
    /// for rarity, or in one program, where each trigger must fire its own bug alone?
    fn picks(&self) -> bool {
        self.selects() || self.one_program
    }

    /// The exploration's time: `--explore-time`, at most half the time left.
    fn explore_time(&self) -> Duration {
        match self.deadline {
            Some(d) => self
                .explore_time
                .min(d.saturating_duration_since(Instant::now()) / 2)
                .max(Duration::from_millis(1)),
            None => self.explore_time,
        }
    }
}

/// Why a bug was not emitted when the time ran out before `what`.
fn out_of_time(what: &str) -> String {
    format!("not {what}: --max-time reached")
}

/// One transition point of an emitted bug, for the report.
#[derive(Clone, Debug)]
pub struct PointInfo {
    /// File name.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Which visit of the line on the seed path.
    pub instance: u32,
    /// Call depth there.
    pub call_depth: u32,
    /// Branches on the seed path before it.
    pub branches: u32,
    /// The predicate, as C reads it (`x > y`).
    pub pred: String,
}

/// An injected bug.
#[derive(Clone, Debug)]
pub struct Bug {
    /// Its number (1-based).
    pub id: usize,
    /// The action.
    pub kind: Kind,
    /// Transition points in path order (the last holds the action).
    pub points: Vec<PointInfo>,
    /// The triggering input (the seed path's test).
    pub trigger: Vec<(String, Vec<u8>)>,
    /// Which seed path (index in score order).
    pub seed_path: usize,
    /// Solutions of the path condition (estimated unless `path_exact`).
    pub path_count: f64,
    /// Is `path_count` exact?
    pub path_exact: bool,
    /// Solutions of the path condition and all predicates.
    pub bug_count: f64,
    /// Is `bug_count` exact?
    pub bug_exact: bool,
    /// Is `bug_count` only an upper bound (too rare to sample, too many to hash)?
    pub bug_bound: bool,
    /// Input bits the path condition and predicates depend on.
    pub bits: u32,
    /// The native verification.
    pub verification: Verification,
    /// The buggy sources (file name, or path in the project's tree; text); in
    /// one-program mode, the shared program. Of a project, only the files it changes.
    pub sources: Vec<(String, String)>,
    /// Of a project: the unified diff against the original tree.
    pub patch: Option<String>,
}

impl Bug {
    /// Its points as `file:line predicate`, in path order, comma-separated.
    pub fn points_text(&self) -> String {
        let points: Vec<String> = self
            .points
            .iter()
            .map(|p| format!("{}:{} {}", p.file, p.line, p.pred))
            .collect();
        points.join(", ")
    }

    /// Estimated fraction of the seed path's inputs that trigger the bug.
    pub fn path_fraction(&self) -> f64 {
        self.bug_count / self.path_count.max(1.0)
    }

    /// Estimated fraction of all inputs (over the bytes it depends on) that trigger it.
    pub fn input_fraction(&self) -> f64 {
        self.bug_count / 2f64.powi(self.bits as i32)
    }
}

/// What `inject` produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Bugs that passed verification.
    pub bugs: Vec<Bug>,
    /// Bugs not emitted: (number, why).
    pub failed: Vec<(usize, String)>,
    /// Seed paths considered.
    pub seed_paths: usize,
    /// The shared buggy program in one-program mode.
    pub program: Option<Vec<(String, String)>>,
    /// Of a project, in one-program mode: the unified diff of all bugs.
    pub program_patch: Option<String>,
    /// Bugs asked for.
    pub requested: usize,
    /// argv[0] and the concrete arguments (for the triggers' command lines).
    pub argv: Vec<String>,
}

impl Outcome {
    /// Write the corpus into `dir`.
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        crate::report::write_corpus(dir, self, self.requested, &self.argv)
    }
}

/// A recorded seed path and what was derived from it.
struct Seed {
    input: SeedInput,
    run: SeededRun,
    points: Option<Vec<Point>>,
    path: Option<Counted>,
    /// Mutations of the program's own inputs and random inputs, as assignments of its
    /// inputs, for synthesis to rule out ([`mutants::of_own`], [`mutants::random`]),
    /// once drawn.
    gating: Option<Vec<Assignment>>,
    /// Why sampling the path failed, once it has (not tried again for a later bug).
    unsampled: Option<String>,
    solver: SolverChain,
}

impl Seed {
    /// The seeded run of `input`, nothing derived from it yet.
    fn record(setup: &Setup, o: &InjectOptions, input: SeedInput) -> Seed {
        let run = seeded::run(setup, &input);
        let mut solver = SolverChain::new(setup.opts.solver.clone());
        solver.set_deadline(o.deadline);
        Seed {
            input,
            run,
            points: None,
            path: None,
            gating: None,
            unsampled: None,
            solver,
        }
    }

    /// Another input of its path, one of its samples: the one whose values at the
    /// path's transition points differ from those each of `triggers` (assignments of
    /// its inputs) gives them at the most variables, as the path computes them; when
    /// every sample agrees with them, one the solver finds ([`Seed::solved_sibling`]).
    /// Else why not.
    fn sibling(&mut self, triggers: &[Assignment]) -> Result<SeedInput, String> {
        let (Some(points), Some(path)) = (self.points.as_ref(), self.path.as_ref()) else {
            return Err("its points and samples are not known".into());
        };
        let pool = &self.run.pool;
        let mut exprs: Vec<ExprId> = points
            .iter()
            .flat_map(|p| &p.vals)
            .filter(|v| v.is_symbolic(pool))
            .map(|v| v.expr)
            .collect();
        let mut seen = FxHashSet::default();
        exprs.retain(|e| seen.insert(*e));
        let values = |a: &Assignment| -> Vec<u128> {
            let mut ev = augur_expr::Evaluator::new(pool, a);
            exprs.iter().map(|&e| ev.eval(e)).collect()
        };
        let theirs: Vec<Vec<u128>> = triggers.iter().map(values).collect();
        let differing = |a: &Assignment| {
            let mine = values(a);
            (0..exprs.len())
                .filter(|&i| theirs.iter().all(|t| t[i] != mine[i]))
                .count()
        };
        let best = path
            .samples
            .iter()
            .map(|a| (a, differing(a)))
            .max_by_key(|(_, n)| *n);
        if let Some((best, _)) = best.filter(|(_, most)| *most > 0) {
            return Ok(SeedInput {
                objects: objects(&self.run, best),
            });
        }
        let samples = format!(
            "none of its {} sample(s) differs from the earlier triggers at its {} point(s) \
             ({} input-dependent value(s))",
            path.samples.len(),
            points.len(),
            exprs.len()
        );
        self.solved_sibling(&exprs, &theirs)
            .map_err(|solver| format!("{samples}, {solver}"))
    }

    /// An input of its path on which one of `exprs` (the values at its points, in path
    /// order) differs from every trigger's value of it (`theirs`), from the solver, the
    /// deepest first and [`SIBLING_QUERIES`] at most. Uniform samples of a path miss
    /// values that only a sliver of its inputs give (wc's paths through the bytes its
    /// `switch` names: 2,000 samples all alike at every point), and a trigger in such a
    /// sliver is rare on its own account.
    /// Else what the solver said.
    fn solved_sibling(
        &mut self,
        exprs: &[ExprId],
        theirs: &[Vec<u128>],
    ) -> Result<SeedInput, String> {
        let (run, solver) = (&mut self.run, &mut self.solver);
        let asked = exprs.len().min(SIBLING_QUERIES);
        let mut failed = 0;
        for (i, &e) in exprs.iter().enumerate().rev().take(asked) {
            let pool = &mut run.pool;
            let width = pool.width(e);
            let mut unlike = pool.constant(1, 1);
            for t in theirs {
                let value = pool.constant(t[i], width);
                let same = pool.eq(e, value);
                let other = pool.not(same);
                unlike = pool.bool_and(unlike, other);
            }
            match solver.model_with(pool, &run.rec.constraints, unlike) {
                Ok(Some(model)) => {
                    return Ok(SeedInput {
                        objects: objects(run, &model),
                    })
                }
                Ok(None) => {}
                Err(_) => failed += 1,
            }
        }
        Err(format!(
            "nor the solver for the last {asked} ({failed} of them unanswered)"
        ))
    }
}

/// Solver queries at most for another input of a seed path (see [`Seed::solved_sibling`]).
const SIBLING_QUERIES: usize = 8;

/// A synthesized bug before verification.
struct Planned {
    plan: BugPlan,
    bug: Bug,
    inputs: Vec<(Source, Objects)>,
}

/// The user's sources as text.
fn read_sources(paths: &[PathBuf]) -> Result<Vec<String>, String> {
    paths
        .iter()
        .map(|p| {
            std::fs::read_to_string(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))
        })
        .collect()
}

/// Which source each of the program's files is: by path in a project (whose file names
/// may repeat in different directories), else by file name.
fn file_map(setup: &Setup) -> FxHashMap<FileId, usize> {
    let mut m = FxHashMap::default();
    for (i, f) in setup.program.files.iter().enumerate() {
        let f = Path::new(f);
        let name = embed::file_name(f);
        let same = |p: &PathBuf| match setup.project {
            Some(_) => p == f,
            None => embed::file_name(p) == name,
        };
        if let Some(s) = setup.sources.iter().position(same) {
            m.insert(FileId(i as u32), s);
        }
    }
    m
}

/// A test's objects from an assignment (the seed's bytes where it has none).
fn objects(run: &SeededRun, a: &Assignment) -> Vec<(String, Vec<u8>)> {
    run.rec
        .objects
        .iter()
        .map(|(name, arr, size)| {
            let bytes = a
                .get(*arr)
                .or_else(|| run.rec.seed.get(*arr))
                .map(<[u8]>::to_vec)
                .unwrap_or_else(|| vec![0; *size as usize]);
            (name.clone(), bytes)
        })
        .collect()
}

/// What to inject into which program.
#[derive(Clone)]
pub struct Config {
    /// The program and how to start it.
    pub setup: Setup,
    /// What the user asked for.
    pub options: InjectOptions,
}

/// Inject `options.bugs` bugs into `setup`'s program; `progress` hears what is going on.
/// [`Outcome::write`] writes the corpus.
pub fn driver(c: &Config, progress: &dyn Progress) -> Result<Outcome, String> {
    let (setup, o) = (&c.setup, &c.options);
    let texts = read_sources(&setup.sources)?;
    let files = file_map(setup);
    progress.message("exploring the program for seed paths and verification inputs");
    let explored = seeds::explore(setup, o.explore_time());
    let inputs = if o.seed_tests.is_empty() {
        &explored
    } else {
        &o.seed_tests
    };
    if inputs.is_empty() {
        return Err(format!(
            "{}: no seed path: no explored path ends normally (give --seed-test)",
            setup.sources[0].display()
        ));
    }
    progress.message(&format!(
        "recording {} seed path(s)",
        inputs.len().min(MAX_SEEDS)
    ));
    let mut scored: Vec<((bool, f64), Seed)> = inputs
        .iter()
        .take(MAX_SEEDS)
        .map(|input| {
            let mut seed = Seed::record(setup, o, input.clone());
            let score = (seeds::does_its_work(&seed.run), seeds::score(&mut seed.run));
            (score, seed)
        })
        .collect();
    scored.sort_by(|(a, _), (b, _)| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut seeds: Vec<Seed> = scored.into_iter().map(|(_, s)| s).collect();
    let mut rng = Rng::new(o.seed);
    let mut out = Outcome {
        seed_paths: seeds.len(),
        requested: o.bugs,
        argv: setup.argv.clone(),
        ..Outcome::default()
    };
    let mut planned = Vec::new();
    let mut last_lines = FxHashSet::default();
    // The probe compile's answers so far: seed paths share most of their lines.
    let mut probed = embed::Probe::default();
    // The program's own inputs, whose mutations measure rarity.
    let explored_objects: Vec<Objects> = explored.iter().map(|s| s.objects.clone()).collect();
    let seed_objects: Vec<Objects> = seeds.iter().map(|s| s.input.objects.clone()).collect();
    let own = measure::own_inputs(&o.pool, &explored_objects, &seed_objects);
    if o.measure > 0 {
        let whose = if o.pool.is_empty() && explored.is_empty() {
            "no --pool or explored test: the seed paths' inputs".to_string()
        } else {
            format!("{} --pool, {} explored", o.pool.len(), explored.len())
        };
        progress.message(&format!(
            "measuring rarity on mutations of {} own input(s) ({whose})",
            own.len()
        ));
    }
    let ctx = Ctx {
        setup,
        texts: &texts,
        files: &files,
        o,
        explored: &explored,
        own: &own,
    };
    // The measuring runs' inputs: a stream of their own, so that the verification's
    // (from `--seed` alone) are fresh inputs, not the ones the bug was chosen on.
    let mut measuring = Rng::new(o.seed ^ MEASURING_STREAM);
    let mut used_files = FxHashSet::default();
    for id in 1..=o.bugs {
        if o.time_up() {
            out.failed.push((id, out_of_time("synthesized")));
            continue;
        }
        // In one program, its trigger must fire it alone among the bugs chosen so far.
        let before: &[Planned] = if o.one_program { &planned } else { &[] };
        let forbidden: Vec<Objects> = before.iter().map(|p| p.bug.trigger.clone()).collect();
        let mut round = Round {
            ctx: &ctx,
            seeds: &mut seeds,
            id,
            avoid: &last_lines,
            triggers: &forbidden,
            probed: &mut probed,
            rng: &mut rng,
            progress,
        };
        let c = match round.choose(before, &used_files, &mut measuring) {
            Ok(c) => c,
            Err(e) => {
                out.failed.push((id, e));
                continue;
            }
        };
        let seed = &mut seeds[c.seed];
        match planned_bug(&ctx, seed, c, id, &mut rng) {
            Ok(p) => {
                let last = p.plan.sites.last().expect("a site");
                last_lines.insert((last.source, last.line));
                used_files.insert(last.source);
                planned.push(p);
            }
            Err(e) => out.failed.push((id, e)),
        }
    }
    let args = &setup.argv[1..];
    let original = match &setup.project {
        Some(p) => Original::new(p.original(args, o.timeout)?, |f| {
            p.original_independent(f, args, o.timeout)
        }),
        None => Original::new(
            Build::new(
                &setup.sources,
                &setup.cflags,
                args,
                o.timeout,
                Flavour::Replay,
            )?,
            |f| Build::new(&setup.sources, &setup.cflags, args, o.timeout, f),
        ),
    };
    let names: Vec<String> = setup.sources.iter().map(|p| embed::file_name(p)).collect();
    if o.one_program {
        let subject = Subject {
            setup,
            texts: &texts,
            names: &names,
            original: &original,
        };
        one_program(&mut out, o, &subject, planned, &own, progress)?;
    } else {
        for p in planned {
            if o.time_up() {
                out.failed.push((p.plan.id, out_of_time("verified")));
                continue;
            }
            progress.message(&format!("bug {}: verifying", p.plan.id));
            let buggy = embed::embed(&texts, std::slice::from_ref(&p.plan));
            let v = match build_buggy(&names, &texts, &buggy, setup, o) {
                Ok((replay, independent)) => {
                    let t = [target(&p.plan, &names)];
                    let b = Buggy {
                        replay: &replay,
                        independent: &independent,
                    };
                    let inputs = all_inputs(&p, o, &own);
                    verify::verify(&b, &original, 0, &t, &p.bug.trigger, &inputs, o.deadline)?
                }
                Err(e) => {
                    out.failed.push((p.plan.id, e));
                    continue;
                }
            };
            let diff = patch(setup, &texts, &buggy)?;
            finish(&mut out, o, p, v, changed(setup, &texts, buggy), diff);
        }
    }
    out.failed.sort();
    Ok(out)
}

/// Why none of `paths` seed paths yielded a bug: each distinct reason with how many
/// times it was given (a path may give one per variant), the most frequent first (then
/// in the order first seen).
fn every_path_failed(paths: usize, why: &[String]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for w in why {
        match counts.iter_mut().find(|(r, _)| r == w) {
            Some((_, n)) => *n += 1,
            None => counts.push((w, 1)),
        }
    }
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let reasons: Vec<String> = counts.iter().map(|(r, n)| format!("{n} x {r}")).collect();
    format!("on every seed path ({paths}): {}", reasons.join("; "))
}

/// The buggy sources under their report names: all of them, or of a project, the ones
/// that differ from `original`.
fn changed(setup: &Setup, original: &[String], buggy: Vec<String>) -> Vec<(String, String)> {
    setup
        .source_names()
        .into_iter()
        .zip(buggy)
        .zip(original)
        .filter(|((_, b), o)| setup.project.is_none() || b != *o)
        .map(|(nb, _)| nb)
        .collect()
}

/// Of a project: the unified diff from `original` to `buggy`.
fn patch(setup: &Setup, original: &[String], buggy: &[String]) -> Result<Option<String>, String> {
    setup
        .project
        .as_ref()
        .map(|p| p.patch(original, buggy))
        .transpose()
}

/// Keep a verified bug (rare enough, when `o` selects by rarity), or count it as failed.
fn finish(
    out: &mut Outcome,
    o: &InjectOptions,
    p: Planned,
    v: Verification,
    sources: Vec<(String, String)>,
    patch: Option<String>,
) {
    match refusal(o, &p, &v) {
        Some(why) => out.failed.push((p.plan.id, why)),
        None => out.bugs.push(Bug {
            verification: v,
            sources,
            patch,
            ..p.bug
        }),
    }
}

/// Why a verified bug is not emitted (its verification failed, or it fired on too many
/// of the verification's inputs), or None.
fn refusal(o: &InjectOptions, p: &Planned, v: &Verification) -> Option<String> {
    let rates = Rates::of(v);
    if !v.passed() {
        Some(format!("verification failed: {}", v.summary()))
    } else if o.selects() && !rates.rare(o.max_fire_rate) {
        Some(format!(
            "too common: fires on {} of the verification's inputs (--max-fire-rate {}); \
             its points: {}",
            rates.describe(),
            o.max_fire_rate,
            p.bug.points_text()
        ))
    } else {
        None
    }
}

/// The program the bugs go into: its setup, sources (texts and file names) and original
/// build.
struct Subject<'a> {
    setup: &'a Setup,
    texts: &'a [String],
    names: &'a [String],
    original: &'a Original<'a>,
}

/// `--one-program`: every planned bug in one program, verified there; a bug refused is
/// taken out and the others are verified again without it, so the program written holds
/// exactly the bugs emitted (none when time runs out before the program is verified).
fn one_program(
    out: &mut Outcome,
    o: &InjectOptions,
    subject: &Subject,
    mut planned: Vec<Planned>,
    own: &[Objects],
    progress: &dyn Progress,
) -> Result<(), String> {
    let (setup, texts, names) = (subject.setup, subject.texts, subject.names);
    while !planned.is_empty() {
        let plans: Vec<BugPlan> = planned.iter().map(|p| p.plan.clone()).collect();
        let buggy = embed::embed(texts, &plans);
        let (replay, independent) = build_buggy(names, texts, &buggy, setup, o)?;
        let targets: Vec<Target> = plans.iter().map(|p| target(p, names)).collect();
        let b = Buggy {
            replay: &replay,
            independent: &independent,
        };
        let mut verified = Vec::with_capacity(planned.len());
        for (i, p) in planned.iter().enumerate() {
            if o.time_up() {
                break;
            }
            progress.message(&format!("bug {}: verifying", p.plan.id));
            let inputs = all_inputs(p, o, own);
            let trigger = &p.bug.trigger;
            let v = verify::verify(
                &b,
                subject.original,
                i,
                &targets,
                trigger,
                &inputs,
                o.deadline,
            );
            verified.push(v?);
        }
        if verified.len() < planned.len() {
            // Out of time: the program cannot be verified as a whole.
            let late = planned.iter().map(|p| (p.plan.id, out_of_time("verified")));
            out.failed.extend(late);
            return Ok(());
        }
        let reasons: Vec<Option<String>> = (planned.iter().zip(&verified))
            .map(|(p, v)| refusal(o, p, v))
            .collect();
        if reasons.iter().all(Option::is_none) {
            for (p, v) in planned.into_iter().zip(verified) {
                finish(out, o, p, v, Vec::new(), None);
            }
            out.program_patch = patch(setup, texts, &buggy)?;
            out.program = Some(changed(setup, texts, buggy));
            return Ok(());
        }
        let (kept, refused): (Vec<_>, Vec<_>) = planned
            .into_iter()
            .zip(reasons)
            .partition(|(_, why)| why.is_none());
        out.failed.extend(
            refused
                .into_iter()
                .map(|(p, why)| (p.plan.id, why.expect("a refusal"))),
        );
        planned = kept.into_iter().map(|(p, _)| p).collect();
    }
    Ok(())
}

/// Where a planned bug must fire.
fn target(plan: &BugPlan, names: &[String]) -> Target {
    let last = plan.sites.last().expect("a site");
    Target {
        error: plan.kind.error(),
        file: names[last.source].clone(),
        line: last.line,
    }
}

/// A planned bug's verification inputs, then the pool, the `--measure` random inputs
/// and mutations of the program's `own` inputs, and as many mutations of its trigger
/// (from `--seed` alone, so bugs of one program share all but the last).
fn all_inputs(p: &Planned, o: &InjectOptions, own: &[Objects]) -> Vec<(Source, Objects)> {
    let mut inputs = p.inputs.clone();
    inputs.extend(o.pool.iter().map(|t| (Source::Pool, t.clone())));
    let random = o.measure / 2;
    let mut rng = Rng::new(o.seed);
    let trigger = &p.bug.trigger;
    let kinds = [
        (Source::Random, measure::random(trigger, random, &mut rng)),
        (
            Source::Mutated,
            measure::mutated_among(own, o.measure - random, &mut rng),
        ),
        (
            Source::NearTrigger,
            measure::mutated(trigger, o.measure - random, &mut rng),
        ),
    ];
    for (kind, tests) in kinds {
        inputs.extend(tests.into_iter().map(|t| (kind, t)));
    }
    inputs
}

/// The buggy program's builds: a project's patched and rebuilt by its own build; else
/// the buggy sources written under their names into a fresh directory and built.
fn build_buggy(
    names: &[String],
    original: &[String],
    texts: &[String],
    setup: &Setup,
    o: &InjectOptions,
) -> Result<BuggyBuilds, String> {
    if let Some(p) = &setup.project {
        return p.buggy(&edited(setup, original, texts), &setup.argv[1..], o.timeout);
    }
    let (_dir, paths) = written(names, texts)?;
    let args = &setup.argv[1..];
    let replay = Build::new(&paths, &setup.cflags, args, o.timeout, Flavour::Replay)?;
    let independent = builds::independent(&paths, &setup.cflags, args, o.timeout);
    Ok((replay, independent))
}

/// augur replay's build alone of the sources `texts` (a measuring build).
fn build_replay(
    names: &[String],
    original: &[String],
    texts: &[String],
    setup: &Setup,
    o: &InjectOptions,
) -> Result<Build, String> {
    let args = &setup.argv[1..];
    if let Some(p) = &setup.project {
        return p.replay(&edited(setup, original, texts), args, o.timeout);
    }
    let (_dir, paths) = written(names, texts)?;
    Build::new(&paths, &setup.cflags, args, o.timeout, Flavour::Replay)
}

/// Of a project: the sources whose `texts` differ from the `original`, with their texts.
fn edited(setup: &Setup, original: &[String], texts: &[String]) -> Vec<(PathBuf, String)> {
    setup
        .sources
        .iter()
        .zip(texts)
        .zip(original)
        .filter(|((_, t), o)| t != o)
        .map(|((s, t), _)| (s.clone(), t.clone()))
        .collect()
}

/// `texts` written under their `names` into a fresh directory (removed when dropped).
fn written(
    names: &[String],
    texts: &[String],
) -> Result<(tempfile::TempDir, Vec<PathBuf>), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary dir: {e}"))?;
    let mut paths = Vec::new();
    for (n, t) in names.iter().zip(texts) {
        let p = dir.path().join(n);
        std::fs::write(&p, t).map_err(|e| format!("{}: {e}", p.display()))?;
        paths.push(p);
    }
    Ok((dir, paths))
}

/// What planning a bug reads.
struct Ctx<'a> {
    setup: &'a Setup,
    texts: &'a [String],
    files: &'a FxHashMap<FileId, usize>,
    o: &'a InjectOptions,
    explored: &'a [SeedInput],
    /// The program's own inputs ([`measure::own_inputs`]).
    own: &'a [Objects],
}

/// Path samples satisfying every predicate, at least this many, estimate the triggers
/// as a share of the path count; fewer, and the triggers are counted on their own.
const MIN_HITS: usize = 8;
/// Path samples drawn by rejection when the first ones hit too rarely.
const MANY_SAMPLES: usize = 20_000;
/// Random inputs drawn at most for them.
const MANY_DRAWS: usize = 400_000;

/// The input arrays the variables at `points` depend on.
fn input_arrays(pool: &augur_expr::ExprPool, points: &[Point]) -> Vec<augur_expr::ArrayId> {
    points
        .iter()
        .flat_map(|p| &p.vals)
        .flat_map(|v| pool.arrays_of(v.expr).iter().copied())
        .collect()
}

/// How many of `samples` satisfy every one of `preds`.
fn satisfying(pool: &augur_expr::ExprPool, samples: &[Assignment], preds: &[ExprId]) -> usize {
    let mut checker = sample::Checker::new(pool, preds);
    samples.iter().filter(|s| checker.holds(s)).count()
}

/// The number of the seed path's inputs satisfying `preds`: exact when the path's
/// samples are all its inputs; else their share among many path samples drawn by
/// rejection (from the bytes' possible values), when enough satisfy them; else counted
/// by [`sample::count`] (hashing); else bounded by the samples.
fn count_triggers(seed: &mut Seed, preds: &[ExprId], rng: &mut Rng) -> Result<Count, String> {
    let path = seed.path.as_ref().expect("counted before synthesis");
    let pool = &seed.run.pool;
    if path.complete {
        let hits = satisfying(pool, &path.samples, preds);
        return Ok(Count {
            count: hits as f64,
            exact: path.exact,
            bound: false,
            bits: path.bits,
        });
    }
    // Many path samples by rejection (cheap where the path's inputs are dense): the
    // share among them.
    let pc = &seed.run.rec.constraints;
    let mut bytes = sample::support(pool, pc);
    let free = input_arrays(pool, seed.points.as_deref().unwrap_or_default());
    for a in &free {
        if !bytes.iter().any(|(b, _)| b == a) {
            bytes.extend((0..pool.array_size(*a)).map(|i| (*a, i)));
        }
    }
    // Drawn from the bytes' possible values (the bytes the path pins, found by the
    // solver, left alone).
    let mut space = Space::new(pool, pc, &bytes);
    space.pin(&mut seed.run.pool, &mut seed.solver, pc);
    let pool = &seed.run.pool;
    let many = sample::draw_in(pool, pc, &space, MANY_SAMPLES, MANY_DRAWS, rng);
    let hits = satisfying(pool, &many.samples, preds);
    if hits >= MIN_HITS {
        let share = hits as f64 / many.samples.len() as f64;
        return Ok(Count {
            count: path.count * share,
            exact: false,
            bound: false,
            bits: path.bits,
        });
    }
    // Rarer still: count the triggers themselves; if even that fails (too many to
    // hash), the samples bound them: fewer than MIN_HITS of the drawn path inputs.
    let bound = path.count * MIN_HITS as f64 / many.samples.len().max(1) as f64;
    let mut all = seed.run.rec.constraints.clone();
    all.extend_from_slice(preds);
    match sample::count(&mut seed.run.pool, &mut seed.solver, &all, &free, 0, rng) {
        Ok(c) => Ok(Count {
            count: c.count,
            exact: c.exact,
            bound: false,
            bits: c.bits,
        }),
        Err(_) if !many.samples.is_empty() => Ok(Count {
            count: bound,
            exact: false,
            bound: true,
            bits: path.bits,
        }),
        Err(e) => Err(e),
    }
}

/// A count of triggering inputs.
struct Count {
    count: f64,
    exact: bool,
    /// Only an upper bound?
    bound: bool,
    bits: u32,
}

/// Point counts of the candidates synthesized on one seed path, as multiples of
/// `--points` (a longer conjunction fires on fewer inputs, when its predicates are not
/// implied by each other).
const VARIANTS: [usize; 3] = [1, 2, 4];
/// Seed paths that a bug's candidates come from, at most, when rarity selects.
const CANDIDATE_SEEDS: usize = 3;
/// Groups of candidates tried for a bug, at most, when rarity selects: a bug none of
/// whose candidates is picked (too common, or, in one program, sharing an input with a
/// bug chosen before) is synthesized again on the seed paths after those it used.
const SELECTION_ROUNDS: usize = 3;
/// Rounds of synthesis against the mutations of the seed input that its predicates
/// let through (on the path's expressions), when rarity selects.
const MUTANT_ROUNDS: usize = 4;
/// Mutations tried per round: the share let through is then known to about
/// 1 / `MUTANT_TRIES`.
const MUTANT_TRIES: usize = 4000;
/// Mutations of the program's own inputs, and random inputs, that synthesis rules out
/// when rarity selects (of each): a conjunction firing on 0.1% of them hits about 4.
const GATING_SAMPLES: usize = 4000;
/// Mutations let through that join the samples per round, at most.
const MUTANTS_KEPT: usize = 200;
/// Xored into `--seed` for the measuring runs' random number stream.
const MEASURING_STREAM: u64 = 0x6d65_6173_7572_6521;

/// Why a candidate is dropped before it is measured, in one program.
const HOLDS_ON_A_TRIGGER: &str =
    "its predicates hold on the trigger of a bug chosen before, as its seed path computes them";

/// A bug synthesized on a seed path, not yet chosen.
struct Candidate {
    /// Which seed path.
    seed: usize,
    /// Its points in path order, with their predicates.
    kept: Vec<(Point, Pred)>,
}

impl Candidate {
    /// Same points (by line and visit) and predicates as `other`?
    fn same_as(&self, other: &Candidate) -> bool {
        let key = |c: &Candidate| -> Vec<(usize, u32, u32, Pred)> {
            c.kept
                .iter()
                .map(|(p, q)| (p.source, p.line, p.instance, q.clone()))
                .collect()
        };
        self.seed == other.seed && key(self) == key(other)
    }

    /// Its embedding as bug `id` with action `kind`.
    fn plan(&self, id: usize, kind: Kind) -> BugPlan {
        let sites = self
            .kept
            .iter()
            .map(|(p, q)| Site {
                source: p.source,
                line: p.line,
                instance: p.instance,
                pred: q.clone(),
            })
            .collect();
        BugPlan { id, sites, kind }
    }

    /// Its points and predicates as a report reads them: `src/tr.c:645 c == 45, ...`.
    fn text(&self, setup: &Setup) -> String {
        let names = setup.source_names();
        let points: Vec<String> = self
            .kept
            .iter()
            .map(|(p, q)| format!("{}:{} {}", names[p.source], p.line, q.text()))
            .collect();
        points.join(", ")
    }

    /// Do all its predicates hold on one of `inputs` (assignments of its seed path's
    /// inputs, in that path's `pool`)? (In one program such an input, an earlier bug's
    /// trigger, would then fire it first, wherever that input's own path goes.)
    fn holds_on_any(&self, pool: &augur_expr::ExprPool, inputs: &[Assignment]) -> bool {
        let preds: Vec<ExprId> = self.kept.iter().map(|(_, q)| q.expr).collect();
        let mut checker = sample::Checker::new(pool, &preds);
        inputs.iter().any(|a| checker.holds(a))
    }

    /// The source holding its action.
    fn last_source(&self) -> usize {
        self.kept.last().expect("a candidate has a point").0.source
    }
}

/// What the candidates synthesized on one seed path must keep clear of.
#[derive(Clone, Copy)]
struct Excluded<'a> {
    /// Lines holding an earlier bug's last point.
    lines: &'a FxHashSet<(usize, u32)>,
    /// Inputs its predicates must not all hold on, as assignments of the path's inputs:
    /// in one program, the triggers of the bugs chosen before (whose run this bug would
    /// otherwise end first).
    inputs: &'a [Assignment],
}

/// The choice of bug `id`'s candidate: what synthesis and selection work with.
struct Round<'a, 'c> {
    ctx: &'a Ctx<'c>,
    seeds: &'a mut [Seed],
    id: usize,
    /// Lines holding an earlier bug's last point.
    avoid: &'a FxHashSet<(usize, u32)>,
    /// In one program, the triggers of the bugs chosen before.
    triggers: &'a [Objects],
    probed: &'a mut embed::Probe,
    rng: &'a mut Rng,
    progress: &'a dyn Progress,
}

impl Round<'_, '_> {
    /// Bug `id`'s candidate: without rarity selecting, the first one synthesized; with
    /// it, the one [`select`] picks among a group of candidates (`before`: the bugs
    /// that will share the program; `used`: the sources holding earlier bugs' actions),
    /// or among the next group, on the seed paths after the first group's, up to
    /// [`SELECTION_ROUNDS`] groups while seed paths and time are left. None: why, each
    /// group's reason.
    fn choose(
        &mut self,
        before: &[Planned],
        used: &FxHashSet<usize>,
        measuring: &mut Rng,
    ) -> Result<Candidate, String> {
        let o = self.ctx.o;
        let mut start = 0;
        let mut refusals = Vec::new();
        for _ in 0..SELECTION_ROUNDS {
            if start >= self.seeds.len() || (o.time_up() && start > 0) {
                break;
            }
            let (mut found, why, walked) = self.candidates(start);
            start += walked;
            if found.is_empty() {
                refusals.push((walked, every_path_failed(walked, &why)));
                continue;
            }
            if !o.picks() {
                return Ok(found.swap_remove(0));
            }
            self.progress.message(&format!(
                "bug {}/{}: measuring {} candidate(s) natively",
                self.id,
                o.bugs,
                found.len()
            ));
            match select(self.ctx, self.seeds, &found, before, used, measuring) {
                Ok(i) => return Ok(found.swap_remove(i)),
                Err(e) => refusals.push((walked, e)),
            }
        }
        let mut reasons = refusals.into_iter();
        let (_, why) = reasons
            .next()
            .unwrap_or_else(|| (0, out_of_time("synthesized")));
        Err(reasons.fold(why, |why, (walked, e)| {
            format!("{why}; then on the next {walked} seed path(s): {e}")
        }))
    }

    /// Candidates from the seed paths after the first `start` of this bug's (bug i starts
    /// on the i-th best seed path, a path that yields none passing the turn to the next
    /// one): when rarity selects, the variants of [`VARIANTS`] on up to
    /// [`CANDIDATE_SEEDS`] paths, else the first candidate alone. With none, why each
    /// path yielded none; and how many seed paths were walked.
    fn candidates(&mut self, start: usize) -> (Vec<Candidate>, Vec<String>, usize) {
        let ctx = self.ctx;
        let (paths, variants) = if ctx.o.picks() {
            (CANDIDATE_SEEDS, &VARIANTS[..])
        } else {
            (1, &VARIANTS[..1])
        };
        let n = self.seeds.len();
        let mut found: Vec<Candidate> = Vec::new();
        let mut why = Vec::new();
        let mut yielding = 0;
        let mut walked = 0;
        for k in start..n {
            if yielding == paths || (ctx.o.time_up() && !found.is_empty()) {
                break;
            }
            walked += 1;
            let si = (self.id - 1 + k) % n;
            self.progress.message(&format!(
                "bug {}/{}: synthesizing on seed path {}",
                self.id,
                ctx.o.bugs,
                si + 1
            ));
            let (before, reasons_before) = (found.len(), why.len());
            let bug = format!("bug {}/{}: seed path {}", self.id, ctx.o.bugs, si + 1);
            let forbidden = mutants::assignments(&self.seeds[si].run, self.triggers);
            let mut dropped = self.variants(si, variants, &forbidden, &mut found, &mut why);
            if found.len() == before && dropped.is_some() {
                // Its input sees what an earlier trigger sees at its points: another
                // input of the same path may not.
                match self.seeds[si].sibling(&forbidden) {
                    Ok(input) => {
                        self.progress.message(&format!(
                            "{bug}: another input of the path, unlike the earlier triggers at its points"
                        ));
                        self.seeds[si] = Seed::record(ctx.setup, ctx.o, input);
                        let forbidden = mutants::assignments(&self.seeds[si].run, self.triggers);
                        dropped = self.variants(si, variants, &forbidden, &mut found, &mut why);
                    }
                    Err(e) => self
                        .progress
                        .message(&format!("{bug}: no other input of the path: {e}")),
                }
            }
            if found.len() == before {
                if let Some(w) = why[reasons_before..].last() {
                    let points = match &dropped {
                        Some(points) if w == HOLDS_ON_A_TRIGGER => {
                            format!(" (its points: {points})")
                        }
                        _ => String::new(),
                    };
                    self.progress
                        .message(&format!("{bug}: no candidate: {w}{points}"));
                }
            }
            yielding += usize::from(found.len() > before);
        }
        (found, why, walked)
    }

    /// Synthesize on seed path `si` a candidate per point count of `variants` into
    /// `found` (the first failure's reason, and each candidate dropped for holding on
    /// one of `forbidden`, the earlier triggers as assignments of the path's inputs,
    /// into `why`): the points of the last one dropped so, if any.
    fn variants(
        &mut self,
        si: usize,
        variants: &[usize],
        forbidden: &[Assignment],
        found: &mut Vec<Candidate>,
        why: &mut Vec<String>,
    ) -> Option<String> {
        let ctx = self.ctx;
        let excluded = Excluded {
            lines: self.avoid,
            inputs: forbidden,
        };
        let mut dropped = None;
        for &m in variants {
            match synthesize_on(
                ctx,
                &mut self.seeds[si],
                si,
                ctx.o.points * m,
                excluded,
                self.probed,
                self.rng,
            ) {
                Ok(c) if found.iter().any(|f| f.same_as(&c)) => {}
                Ok(c) if c.holds_on_any(&self.seeds[si].run.pool, forbidden) => {
                    why.push(HOLDS_ON_A_TRIGGER.into());
                    dropped = Some(c.text(ctx.setup));
                }
                Ok(c) => found.push(c),
                Err(e) => {
                    why.push(e);
                    break;
                }
            }
        }
        dropped
    }
}

/// Which of `found` to emit: all embedded into one measuring build, measured on the
/// pool and on fresh random inputs and mutations of the program's own inputs and of
/// each trigger (from `rng`), ranked by [`rarity::ranked`] (`used`: the sources holding
/// earlier bugs' actions) and the first that stays rare when measured again on fresh
/// inputs picked ([`rarity::confirmed`]). The bugs
/// `before` that will share the program (`--one-program`) are in the build too: a
/// candidate whose trigger fires one of them, or is fired by one's trigger, is not picked.
fn select(
    ctx: &Ctx,
    seeds: &[Seed],
    found: &[Candidate],
    before: &[Planned],
    used: &FxHashSet<usize>,
    rng: &mut Rng,
) -> Result<usize, String> {
    let mut plans: Vec<BugPlan> = found
        .iter()
        .enumerate()
        .map(|(i, c)| c.plan(i + 1, ctx.o.kind))
        .collect();
    let others: Vec<rarity::Candidate> = before
        .iter()
        .enumerate()
        .map(|(j, p)| rarity::Candidate {
            mark: found.len() + 1 + j,
            trigger: &p.bug.trigger,
        })
        .collect();
    for (p, other) in before.iter().zip(&others) {
        plans.push(BugPlan {
            id: other.mark,
            ..p.plan.clone()
        });
    }
    let marked = embed::embed_marked(ctx.texts, &plans);
    let names: Vec<String> = ctx
        .setup
        .sources
        .iter()
        .map(|p| embed::file_name(p))
        .collect();
    let build = build_replay(&names, ctx.texts, &marked, ctx.setup, ctx.o)
        .map_err(|e| format!("the measuring build: {e}"))?;
    let cands: Vec<rarity::Candidate> = found
        .iter()
        .enumerate()
        .map(|(i, c)| rarity::Candidate {
            mark: i + 1,
            trigger: &seeds[c.seed].input.objects,
        })
        .collect();
    let o = ctx.o;
    let mut given = rarity::Inputs {
        pool: &o.pool,
        own: ctx.own,
        n: o.measure,
        others: &others,
        near_trigger: true,
    };
    let rates = rarity::measure(&build, &cands, &given, rng, o.deadline);
    let fresh: Vec<bool> = found
        .iter()
        .map(|c| !used.contains(&c.last_source()))
        .collect();
    let ranked = rarity::ranked(&rates, &fresh, o.max_fire_rate).map_err(|r| match r.rarest {
        Some(i) => format!("{}; its points: {}", r.why, found[i].text(ctx.setup)),
        None => r.why,
    })?;
    given.near_trigger = false;
    let max = o.max_fire_rate;
    let again = |i: usize| {
        let one = std::slice::from_ref(&cands[i]);
        let rates = rarity::measure(&build, one, &given, rng, o.deadline);
        rates.into_iter().next().expect("one candidate measured")
    };
    rarity::confirmed(&ranked, max, again).map_err(|(i, r)| {
        format!(
            "too common when measured again: the {} candidate(s) rare enough at first fire on \
             fresh inputs, the last on {} (--max-fire-rate {max}); its points: {}",
            ranked.len().min(rarity::CONFIRMATIONS),
            r.describe(),
            found[i].text(ctx.setup)
        )
    })
}

/// Choose `k` points on seed path `seed` (number `seed_path`), none of whose lines is
/// one of `excluded`'s, and synthesize their predicates, not all true on any of its
/// inputs if that can be helped.
fn synthesize_on(
    ctx: &Ctx,
    seed: &mut Seed,
    seed_path: usize,
    k: usize,
    excluded: Excluded,
    probed: &mut embed::Probe,
    rng: &mut Rng,
) -> Result<Candidate, String> {
    if seed.points.is_none() {
        let want = probed.unasked(&points::probe_request(&seed.run, ctx.files, ctx.texts));
        if !want.is_empty() {
            let found = match &ctx.setup.project {
                Some(p) => p.probe(ctx.texts, &want)?,
                None => embed::probe(&ctx.setup.sources, ctx.texts, &want, &ctx.setup.cflags)?,
            };
            probed.merge(&want, found);
        }
        seed.points = Some(points::candidates(
            &mut seed.run,
            ctx.files,
            ctx.texts,
            probed,
        ));
    }
    let all = seed.points.as_ref().expect("computed above");
    let chosen = points::choose(&seed.run.pool, all, k, excluded.lines);
    if chosen.is_empty() {
        return Err(match all.is_empty() {
            true => "no transition point: no line on the seed path has an input-dependent variable in scope",
            false => "no transition point: every candidate point is on a line an earlier bug ends on or in the first half of the path's branches",
        }
        .into());
    }
    tracing::debug!(
        "seed path {seed_path}: {} candidate point(s); chosen: {}",
        all.len(),
        points_text(&seed.run.pool, ctx.setup, &chosen)
    );
    tracing::trace!(
        "seed path {seed_path}: every candidate point: {}",
        points_text(&seed.run.pool, ctx.setup, all)
    );
    let pc = seed.run.rec.constraints.clone();
    if let Some(e) = &seed.unsampled {
        return Err(e.clone());
    }
    if seed.path.is_none() {
        let want = ctx.o.samples * SYNTH_SAMPLES;
        let free = input_arrays(&seed.run.pool, all);
        match sample::count(&mut seed.run.pool, &mut seed.solver, &pc, &free, want, rng) {
            Ok(c) => seed.path = Some(c),
            Err(e) => {
                let e = format!("sampling the seed path: {e}");
                seed.unsampled = Some(e.clone());
                return Err(e);
            }
        }
    }
    let path = seed.path.as_ref().expect("computed above");
    let cands: Vec<_> = chosen.iter().map(|p| p.cands.clone()).collect();
    let mut samples = path.samples.clone();
    samples.extend(mutants::on_path(&seed.run, &ctx.o.pool, &pc));
    let mut rounds = 0;
    if ctx.o.selects() {
        rounds = MUTANT_ROUNDS;
        // The kinds of inputs that gate a bug natively are ruled out as the path's
        // samples are (on the path's expressions).
        let gating = seed.gating.get_or_insert_with(|| {
            let inputs = &seed.run.rec.objects;
            let mut g = mutants::of_own(inputs, ctx.own, GATING_SAMPLES, rng);
            g.extend(mutants::random(
                inputs,
                &seed.input.objects,
                GATING_SAMPLES,
                rng,
            ));
            g
        });
        samples.extend(gating.iter().cloned());
    }
    // When rarity selects: the mutations of the seed input that the predicates let
    // through (on the path's expressions, whether or not they take the path) join the
    // samples, and synthesis runs again to rule them out.
    let mut preds = Vec::new();
    for round in 0..=rounds {
        if round > 0 {
            let exprs: Vec<ExprId> = preds.iter().flatten().map(|q: &Pred| q.expr).collect();
            let through = mutants::surviving(
                &seed.run,
                &seed.input.objects,
                &exprs,
                MUTANT_TRIES,
                MUTANTS_KEPT,
                rng,
            );
            if through.is_empty() {
                break;
            }
            samples.extend(through);
        }
        preds = synth::synthesize(
            &mut seed.run.pool,
            &mut seed.solver,
            &pc,
            &cands,
            &samples,
            excluded.inputs,
            rng,
        )
        .map_err(|e| format!("synthesizing predicates: {e}"))?;
    }
    let kept: Vec<(Point, Pred)> = chosen
        .into_iter()
        .zip(preds)
        .filter_map(|(p, q)| q.map(|q| (p, q)))
        .collect();
    if kept.is_empty() {
        return Err("no non-trivial predicate at any transition point".into());
    }
    Ok(Candidate {
        seed: seed_path,
        kept,
    })
}

/// Points of a seed path as a debugging line: where each is, its input-dependent
/// variables with their seed values, and the free input bytes they read.
fn points_text(pool: &augur_expr::ExprPool, setup: &Setup, chosen: &[Point]) -> String {
    let names = setup.source_names();
    let point = |p: &Point| {
        let vars: Vec<String> = p
            .vals
            .iter()
            .filter(|v| v.is_symbolic(pool))
            .map(|v| format!("{}={}", v.var.name, v.seed))
            .collect();
        let bytes: Vec<String> = p
            .bytes
            .iter()
            .map(|(a, i)| format!("{}[{i}]", pool.array_name(*a)))
            .collect();
        format!(
            "{}:{} visit {} depth {} branches {} [{}] free bytes [{}]",
            names[p.source],
            p.line,
            p.instance,
            p.call_depth,
            p.branches,
            vars.join(" "),
            bytes.join(" ")
        )
    };
    chosen.iter().map(point).collect::<Vec<_>>().join("; ")
}

/// Candidate `c` on its seed path `seed` as bug `id`: its triggers counted, its report
/// and its verification inputs.
fn planned_bug(
    ctx: &Ctx,
    seed: &mut Seed,
    c: Candidate,
    id: usize,
    rng: &mut Rng,
) -> Result<Planned, String> {
    let preds: Vec<ExprId> = c.kept.iter().map(|(_, q)| q.expr).collect();
    let bug_count = count_triggers(seed, &preds, rng)
        .map_err(|e| format!("counting the triggering inputs: {e}"))?;
    let path = seed.path.as_ref().expect("sampled in synthesis");
    let names = ctx.setup.source_names();
    let info = c
        .kept
        .iter()
        .map(|(p, q)| PointInfo {
            file: names[p.source].clone(),
            line: p.line,
            instance: p.instance,
            call_depth: p.call_depth,
            branches: p.branches,
            pred: q.text(),
        })
        .collect();
    let half = ctx.o.samples / 2;
    let mut inputs: Vec<(Source, Objects)> = path
        .samples
        .iter()
        .take(half)
        .map(|a| (Source::PathSample, objects(&seed.run, a)))
        .collect();
    let room = ctx.o.samples.saturating_sub(inputs.len());
    inputs.extend(
        ctx.explored
            .iter()
            .take(room)
            .map(|s| (Source::Explored, s.objects.clone())),
    );
    Ok(Planned {
        plan: c.plan(id, ctx.o.kind),
        bug: Bug {
            id,
            kind: ctx.o.kind,
            points: info,
            trigger: seed.input.objects.clone(),
            seed_path: c.seed,
            path_count: path.count,
            path_exact: path.exact,
            bug_count: bug_count.count,
            bug_exact: bug_count.exact,
            bug_bound: bug_count.bound,
            bits: path.bits.max(bug_count.bits),
            verification: Verification::default(),
            sources: Vec::new(),
            patch: None,
        },
        inputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bug_s_points_read_as_file_line_and_predicate_in_path_order() {
        let point = |line, pred: &str| PointInfo {
            file: "tr.c".into(),
            line,
            instance: 1,
            call_depth: 2,
            branches: 3,
            pred: pred.into(),
        };
        let bug = Bug {
            id: 1,
            kind: Kind::Assert,
            points: vec![point(1613, "c == 45"), point(1615, "io_buf@1 == io_buf@5")],
            trigger: Vec::new(),
            seed_path: 0,
            path_count: 1.0,
            path_exact: true,
            bug_count: 1.0,
            bug_exact: true,
            bug_bound: false,
            bits: 8,
            verification: Verification::default(),
            sources: Vec::new(),
            patch: None,
        };
        assert_eq!(
            bug.points_text(),
            "tr.c:1613 c == 45, tr.c:1615 io_buf@1 == io_buf@5"
        );
    }

    #[test]
    fn a_bug_no_path_yields_names_every_reason_with_its_count() {
        let why: Vec<String> = ["timeout", "no point", "timeout", "no predicate", "timeout"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            every_path_failed(4, &why),
            "on every seed path (4): 3 x timeout; 1 x no point; 1 x no predicate"
        );
    }
}
