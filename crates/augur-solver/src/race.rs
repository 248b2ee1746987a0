//! Z3 and a model search side by side on one query: Z3 on the calling thread, the search
//! ([`crate::model_search`]) on another core. Whichever answers first ends the other: a
//! found model interrupts Z3, and Z3's return stops the search.

use crate::model_search::search;
use crate::z3_solver::Interrupter;
use augur_expr::CompiledQuery;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a search that found a model interrupts Z3 until Z3 has returned (an interrupt
/// reaching Z3 before its check starts is lost, so one is not enough).
const INTERRUPT_EVERY: Duration = Duration::from_millis(1);

/// Runs `z3_check` (a check on the solver `z3` interrupts) while searching for a model of
/// `query` from `seeds`. Returns Z3's answer (interrupted, it says unknown) and the input
/// the search found, if any.
pub(crate) fn race<T>(
    query: &CompiledQuery,
    seeds: &[Vec<u8>],
    z3: Interrupter,
    z3_check: impl FnOnce() -> T,
) -> (T, Option<Vec<u8>>) {
    let z3_done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let searcher = s.spawn(|| {
            let found = search(query, seeds, &z3_done);
            if found.is_some() {
                while !z3_done.load(Ordering::Acquire) {
                    z3.interrupt();
                    std::thread::sleep(INTERRUPT_EVERY);
                }
            }
            found
        });
        let answer = z3_check();
        z3_done.store(true, Ordering::Release);
        let found = searcher.join().expect("the model search does not panic");
        (answer, found)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::z3_solver::testing::{assert_a_fresh_solver_answers_rightly, assert_factoring};
    use crate::z3_solver::Z3Solver;

    /// Z3 factoring a 62-bit semiprime (far longer than a test may take) races a search of
    /// a trivially true query, which wins at once; the solver's next check is unharmed.
    #[test]
    fn a_found_model_interrupts_z3_and_the_solver_stays_usable() {
        let mut p = augur_expr::ExprPool::new();
        let t = p.constant(1, 1);
        let easy = CompiledQuery::compile(&p, &[t]).unwrap();
        let solver = Z3Solver::new(None);
        assert_factoring(&solver, "race");
        let start = std::time::Instant::now();
        let (answer, found) = race(&easy, &[], solver.interrupter(), || solver.check());
        assert_eq!(found, Some(vec![]));
        assert_eq!(answer, z3::SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(20));
        assert_a_fresh_solver_answers_rightly("race");
    }
}
