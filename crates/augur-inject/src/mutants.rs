//! Inputs near the seed for synthesis, judged on the seed path's own expressions (no
//! native run): the program's tests, mutations of the seed input, and mutations of the
//! program's own inputs and random inputs (the kinds that gate a bug), as assignments of
//! its inputs. Uniform samples of a path spread
//! over its whole input space, while tests and mutations crowd near the inputs users and
//! fuzzers try; a conjunction rare among the first may hold on many of the second.

use crate::measure;
use crate::sample;
use crate::seeded::SeededRun;
use crate::verify::Objects;
use augur_engine::Rng;
use augur_expr::{ArrayId, Assignment, ExprId};

/// A run's input objects: name, array, size.
type Inputs = [(String, ArrayId, u64)];

/// A test as an assignment of `inputs` (None when its objects are not those).
fn assignment(inputs: &Inputs, test: &Objects) -> Option<Assignment> {
    let mut a = Assignment::default();
    for (name, arr, size) in inputs {
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
    tests
        .iter()
        .filter_map(|t| assignment(&run.rec.objects, t))
        .collect()
}

/// `tests` that take the seed path of `run` (its condition `pc` holds), as assignments
/// of its inputs (tests whose objects are not the run's are left out).
pub fn on_path(run: &SeededRun, tests: &[Objects], pc: &[ExprId]) -> Vec<Assignment> {
    let mut checker = sample::Checker::new(&run.pool, pc);
    assignments(run, tests)
        .into_iter()
        .filter(|a| checker.holds(a))
        .collect()
}

/// `n` mutations of the program's own inputs `own` (as [`measure::mutated_among`] makes
/// them, of those shaped as a run's `inputs`), as assignments of `inputs`, wherever they
/// go: the inputs whose share firing a bug gates it, drawn afresh. A predicate over one
/// input byte holds on about 1 in 256 of them when the mutations reach its byte; ruling
/// them out takes predicates over more than one byte.
pub fn of_own(inputs: &Inputs, own: &[Objects], n: usize, rng: &mut Rng) -> Vec<Assignment> {
    let shaped: Vec<Objects> = own
        .iter()
        .filter(|t| assignment(inputs, t).is_some())
        .cloned()
        .collect();
    measure::mutated_among(&shaped, n, rng)
        .iter()
        .filter_map(|m| assignment(inputs, m))
        .collect()
}

/// `n` random inputs shaped as `seed` (as [`measure::random`] makes them), as
/// assignments of a run's `inputs`: the other kind of input that gates a bug. A
/// conjunction over one byte of the first argument holds on about 1 in 256 of them.
pub fn random(inputs: &Inputs, seed: &Objects, n: usize, rng: &mut Rng) -> Vec<Assignment> {
    measure::random(seed, n, rng)
        .iter()
        .filter_map(|r| assignment(inputs, r))
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
    let mut checker = sample::Checker::new(&run.pool, preds);
    measure::mutated(seed, tries, rng)
        .iter()
        .filter_map(|m| assignment(&run.rec.objects, m))
        .filter(|a| checker.holds(a))
        .take(want)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesis_rules_out_mutations_of_own_inputs_of_its_shape_and_random_inputs() {
        let mut pool = augur_expr::ExprPool::new();
        let stdin = pool.new_array("stdin", 4);
        let inputs = vec![("stdin".to_string(), stdin, 4)];
        let own: Vec<Objects> = vec![
            vec![("stdin".into(), b"abcd".to_vec())],
            vec![("stdin".into(), b"xyz".to_vec())],
            vec![("file:f".into(), b"abcd".to_vec())],
        ];
        let mut rng = Rng::new(3);
        let mutants = of_own(&inputs, &own, 300, &mut rng);
        assert_eq!(
            mutants.len(),
            300,
            "every mutant is of the one input shaped so"
        );
        for m in &mutants {
            let bytes = m.get(stdin).unwrap();
            let changed = bytes.iter().zip(b"abcd").filter(|(x, y)| x != y).count();
            assert!((1..=4).contains(&changed), "{bytes:?}");
        }
        let random = random(&inputs, &own[0], 300, &mut rng);
        assert_eq!(random.len(), 300);
        let far = random.iter().filter(|r| r.get(stdin).unwrap()[0] != b'a');
        assert!(far.count() > 250, "random bytes, not the seed's");
    }
}
