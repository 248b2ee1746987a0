//! Inputs near the seed for synthesis, judged on the seed path's own expressions (no
//! native run): the program's tests and mutations of the seed input that take the seed
//! path, as assignments of its inputs. Uniform samples of a path spread over its whole
//! input space, while tests and mutations crowd near the inputs users and fuzzers try;
//! a conjunction rare among the first may hold on most of the second.

use crate::measure;
use crate::sample;
use crate::seeded::SeededRun;
use crate::verify::Objects;
use augur_engine::Rng;
use augur_expr::{Assignment, ExprId};

/// A test as an assignment of `run`'s inputs (None when its objects are not the run's).
fn assignment(run: &SeededRun, test: &Objects) -> Option<Assignment> {
    let mut a = Assignment::default();
    for (name, arr, size) in &run.rec.objects {
        let (_, bytes) = test.iter().find(|(n, _)| n == name)?;
        if bytes.len() as u64 != *size {
            return None;
        }
        a.set(*arr, bytes.clone());
    }
    Some(a)
}

/// `tests` as assignments of `run`'s inputs, wherever they go (those whose objects are
/// not the run's are left out).
pub fn assignments(run: &SeededRun, tests: &[Objects]) -> Vec<Assignment> {
    tests.iter().filter_map(|t| assignment(run, t)).collect()
}

/// `tests` that take the seed path of `run` (its condition `pc` holds), as assignments
/// of its inputs (tests whose objects are not the run's are left out).
pub fn on_path(run: &SeededRun, tests: &[Objects], pc: &[ExprId]) -> Vec<Assignment> {
    assignments(run, tests)
        .into_iter()
        .filter(|a| sample::satisfies(&run.pool, a, pc))
        .collect()
}

/// Up to `want` of `tries` mutations of `seed` (as [`measure::mutated`] makes them)
/// that satisfy every one of `preds` as the seed path computes them: the mutations a
/// bug guarded by `preds` would still fire on, for synthesis to rule out. Those that
/// leave the path count too: a transition is not guarded by the path condition, and a
/// predicate tight only beside it (`x < 98` where the path has `x >= 97`) lets the
/// inputs off the path through wherever they still reach its line with the same
/// values (an approximation either way; the native measurement settles it).
pub fn surviving(
    run: &SeededRun,
    seed: &Objects,
    preds: &[ExprId],
    tries: usize,
    want: usize,
    rng: &mut Rng,
) -> Vec<Assignment> {
    measure::mutated(seed, tries, rng)
        .iter()
        .filter_map(|m| assignment(run, m))
        .filter(|a| sample::satisfies(&run.pool, a, preds))
        .take(want)
        .collect()
}
