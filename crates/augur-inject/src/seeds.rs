//! Seed paths (the paper's IdentifyTrace): tests from a bounded exploration of the
//! program, or the user's, each scored by the shape of its seeded run.

use crate::points;
use crate::seeded::{self, SeededRun};
use crate::setup::Setup;
use augur_engine::{Executor, MemorySink, Outcome, SeedInput};
use augur_expr::ArrayId;
use rustc_hash::FxHashSet;
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

/// What a seed path scores for each distinct input byte that its variables read in the
/// deeper half of the path, where transitions go, if the path leaves it all 256 values
/// (less as it leaves fewer: by [`points::free_bits`], none for a byte it pins): a bug
/// is rare only when its predicates read several independent bytes, so a path whose
/// deeper half looks at one byte only (wc's on an input with one printable byte that is
/// no space) gives no rare bug, however long it is.
const DEEP_BYTE_SCORE: f64 = 4.0;

/// A seed path's score: long, through many functions and branches, with many
/// variables that depend on the input (each counted once per line visit, weighted by
/// how deep in the path it is seen, as a stand-in for its dependence distance from the
/// input: values computed later are further from the input statements) and reading
/// many input bytes where transitions can go ([`DEEP_BYTE_SCORE`]).
pub fn score(run: &mut SeededRun) -> f64 {
    let rec = &run.rec;
    let mut useful = 0.0;
    let total = rec.visits.len().max(1) as f64;
    let deepest = rec.visits.iter().map(|v| v.branches).max().unwrap_or(0);
    let mut deep_bytes = FxHashSet::default();
    for (i, v) in rec.visits.iter().enumerate() {
        let vals = seeded::values(&mut run.pool, &rec.seed, v);
        let n = vals.iter().filter(|x| x.is_symbolic(&run.pool)).count() as f64;
        useful += n * (1.0 + i as f64 / total);
        if points::in_deeper_half(v.branches, deepest) {
            deep_bytes.extend(points::bytes_read(&run.pool, &vals));
        }
    }
    (rec.instructions as f64).ln_1p()
        + 4.0 * f64::from(rec.functions)
        + 2.0 * f64::from(rec.branches)
        + useful
        + DEEP_BYTE_SCORE * deep_choice(run, deep_bytes) / 8.0
}

/// The bits of choice `run`'s path leaves the input bytes `bytes`, summed.
fn deep_choice(run: &SeededRun, bytes: FxHashSet<(ArrayId, u64)>) -> f64 {
    let bytes: Vec<_> = bytes.into_iter().collect();
    points::free_bits(&run.pool, &run.rec.constraints, &bytes)
        .iter()
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::{Recording, Var, Visit};
    use augur_engine::Byte;
    use augur_expr::ExprPool;

    /// A run of two visits deep in the path, whose variable `c` is stdin's byte
    /// `bytes[i]` at visit `i`; its path pins the bytes of `pinned` to 'b'.
    fn run(bytes: [u64; 2], pinned: &[u64]) -> SeededRun {
        let mut pool = ExprPool::new();
        let stdin = pool.new_array("stdin", 2);
        let visits = bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let arr = pool.array_sym(stdin);
                let at = pool.constant(u128::from(b), 64);
                Visit {
                    file: augur_ir::FileId(0),
                    line: 10 + i as u32,
                    instance: 1,
                    call_depth: 1,
                    branches: 4,
                    vars: vec![(
                        Var {
                            name: "c".into(),
                            size: 1,
                        },
                        vec![Byte::S(pool.select(arr, at))],
                    )],
                }
            })
            .collect();
        let constraints = pinned
            .iter()
            .map(|&b| {
                let arr = pool.array_sym(stdin);
                let at = pool.constant(u128::from(b), 64);
                let byte = pool.select(arr, at);
                let value = pool.constant(u128::from(b'b'), 8);
                pool.eq(byte, value)
            })
            .collect();
        let mut rec = Recording {
            visits,
            branches: 4,
            constraints,
            ..Recording::default()
        };
        rec.seed.set(stdin, b"ab".to_vec());
        SeededRun { rec, pool }
    }

    #[test]
    fn a_path_reading_more_input_bytes_where_transitions_go_scores_more() {
        let one_byte = score(&mut run([0, 0], &[]));
        let two_bytes = score(&mut run([0, 1], &[]));
        assert_eq!(two_bytes - one_byte, DEEP_BYTE_SCORE);
        // A byte the path pins is no choice a predicate can narrow.
        let one_pinned = score(&mut run([0, 1], &[1]));
        assert_eq!(one_pinned, one_byte);
    }
}
