//! Seed paths (the paper's IdentifyTrace): tests from a bounded exploration of the
//! program, or the user's, each scored by the shape of its seeded run.

use crate::seeded::{self, SeededRun};
use crate::setup::Setup;
use augur_engine::{Executor, MemorySink, Outcome, SeedInput};
use std::time::Duration;

/// Tests of a bounded exploration (at most `time` long) that end normally, those on
/// which the program did its work (see [`does_its_work`]) first, each kind in the order
/// found; and how many did their work.
pub fn explore(setup: &Setup, time: Duration) -> (Vec<SeedInput>, usize) {
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
    let (done, failed): (Vec<_>, Vec<_>) = tests
        .iter()
        .filter(|t| matches!(t.outcome, Outcome::Exit(_)))
        .partition(|t| is_success(&t.outcome));
    let working = done.len();
    let tests = done
        .into_iter()
        .chain(failed)
        .map(|t| SeedInput {
            objects: t.objects.clone(),
        })
        .collect();
    (tests, working)
}

/// The seed paths' inputs among `tests` ([`explore`]'s, the first `working` of them
/// having done their work): at most `n`, [`spread`] over those that did their work,
/// then over the others when they are fewer than `n`.
pub fn pick(tests: &[SeedInput], working: usize, n: usize) -> Vec<SeedInput> {
    let mut seeds = spread(&tests[..working], n);
    let more = spread(&tests[working..], n - seeds.len());
    seeds.extend(more);
    seeds
}

/// At most `n` of `tests`, spread evenly over them in their order (all when there are
/// no more than `n`). An exploration's tests come in the order it found them, and the
/// first few dozen are siblings of one search frontier: the same option, the same first
/// bytes. Seed paths spread over the whole exploration see other values at their
/// points, which bugs sharing one program need (each must fire on its own trigger
/// alone).
pub fn spread<T: Clone>(tests: &[T], n: usize) -> Vec<T> {
    let len = tests.len();
    if len <= n {
        return tests.to_vec();
    }
    (0..n).map(|k| tests[k * len / n].clone()).collect()
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

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn seeds_are_spread_over_the_whole_exploration() {
        let tests: Vec<u32> = (0..100).collect();
        assert_eq!(spread(&tests, 4), [0, 25, 50, 75]);
        assert_eq!(spread(&tests[..3], 4), [0, 1, 2], "all of a few");
        assert_eq!(spread(&tests[..10], 3), [0, 3, 6]);
        assert!(spread(&tests, 0).is_empty());
    }
}
