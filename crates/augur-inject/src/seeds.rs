//! Seed paths (the paper's IdentifyTrace): tests from a bounded exploration of the
//! program, or the user's, each scored by the shape of its seeded run.

use crate::seeded::{self, SeededRun};
use crate::setup::Setup;
use augur_engine::{Executor, MemorySink, Outcome, SeedInput};
use std::time::Duration;

/// Tests of a bounded exploration (at most `time` long) that end normally, those on
/// which the program did its work (see [`does_its_work`]) first.
pub fn explore(setup: &Setup, time: Duration) -> Vec<SeedInput> {
    let sink = MemorySink::default();
    let tests = sink.0.clone();
    let mut opts = setup.opts.clone();
    opts.max_time = Some(opts.max_time.map_or(time, |t| t.min(time)));
    let mut ex = Executor::new(
        setup.program.clone(),
        &augur_env::handlers(),
        opts,
        Box::new(sink),
    );
    let st = ex.initial_state(None);
    augur_env::start(&mut ex, st, setup.entry, &setup.spec, &setup.argv);
    ex.run(&mut |_| {});
    let tests = tests.borrow();
    let mut normal: Vec<_> = tests
        .iter()
        .filter(|t| matches!(t.outcome, Outcome::Exit(_)))
        .collect();
    normal.sort_by_key(|t| !is_success(&t.outcome));
    normal
        .into_iter()
        .map(|t| SeedInput {
            objects: t.objects.clone(),
        })
        .collect()
}

/// Whether `outcome` is an exit with status 0.
fn is_success(outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::Exit(0))
}

/// Whether the program did its work on the seed path (it exited with status 0), rather
/// than stopping in its error handling (a usage error, an operand it refused): seed
/// paths are ranked by this first, then by [`score`]. An error path may well call more
/// functions (quoting the operand in its message, say: coreutils' error paths through
/// gnulib's `quotearg` scored highest), but its predicates test input bytes the
/// program has only looked at, not worked with, and mutations of the program's own
/// inputs fire them too often for a rare bug (0.2-1% of them: nearly every refusal of
/// the coreutils bench, docs/benchmarks.md).
pub fn does_its_work(run: &SeededRun) -> bool {
    run.rec.outcome.as_ref().is_some_and(is_success)
}

/// A seed path's score: long, through many functions and branches, with many
/// variables that depend on the input (each counted once per line visit, weighted by
/// how deep in the path it is seen, as a stand-in for its dependence distance from the
/// input: values computed later are further from the input statements).
pub fn score(run: &mut SeededRun) -> f64 {
    let rec = &run.rec;
    let mut useful = 0.0;
    let total = rec.visits.len().max(1) as f64;
    for (i, v) in rec.visits.iter().enumerate() {
        let vals = seeded::values(&mut run.pool, &rec.seed, v);
        let n = vals.iter().filter(|x| x.is_symbolic(&run.pool)).count() as f64;
        useful += n * (1.0 + i as f64 / total);
    }
    (rec.instructions as f64).ln_1p()
        + 4.0 * f64::from(rec.functions)
        + 2.0 * f64::from(rec.branches)
        + useful
}
