//! Z3 and a model search side by side on one query: Z3 on the calling thread, the search
//! ([`crate::model_search`]) on another core. Z3 checks in slices of doubling length, each
//! ended by Z3's own timeout; between slices the race ends if the search has found a
//! model, and Z3's answer stops the search.
//!
//! Z3 is never interrupted from outside here: with Z3 4.8.12, a check interrupted
//! (`Z3_solver_interrupt`) at some points of its work goes on and no longer hears its own
//! timeout or any later interrupt, a check that never returns (measured: the symbolic
//! hash test of `tests/symbolic_memory.rs` hung in 2 or 3 runs of 6 under load when a
//! found model interrupted Z3; in none of 8 when Z3 ran out its own time). A model the
//! search finds waits at most one slice.

use crate::model_search::search;
use augur_expr::CompiledQuery;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Z3's first slice; each next one is twice as long (a slice may start the query afresh:
/// the restarts then cost at most half of Z3's time, and a model the search found waits at
/// most as long as the search has run).
const FIRST_SLICE: Duration = Duration::from_millis(100);

/// Runs `z3_check(limit, slice)` (a check that stops after `limit`, answering unknown) in
/// slices ([`in_slices`]) for at most `time_left`, while searching for a model of `query`
/// from `seeds`. Returns Z3's last answer (unknown when the search won or the time ran
/// out) and the input the search found, if any.
pub(crate) fn race(
    query: &CompiledQuery,
    seeds: &[Vec<u8>],
    time_left: Duration,
    z3_check: impl FnMut(Duration, u32) -> z3::SatResult,
) -> (z3::SatResult, Option<Vec<u8>>) {
    let z3_done = AtomicBool::new(false);
    let search_won = AtomicBool::new(false);
    std::thread::scope(|s| {
        let searcher = s.spawn(|| {
            let found = search(query, seeds, &z3_done);
            search_won.store(found.is_some(), Ordering::Release);
            found
        });
        let won = || search_won.load(Ordering::Acquire);
        let answer = in_slices(FIRST_SLICE, time_left, won, z3_check);
        z3_done.store(true, Ordering::Release);
        let found = searcher.join().expect("the model search does not panic");
        (answer, found)
    })
}

/// Runs `check(limit, k)` for slices k = 0, 1, ... from `first` on, each twice as long
/// as the last, for at most `time_left` in all, until it answers or `stop()` holds
/// between two slices. Returns its last answer (unknown when stopped or out of
/// time). A check given its slice's number can make each slice a new trial (another
/// seed), so a query Z3 takes long on by bad luck is not given the same luck again.
pub(crate) fn in_slices(
    first: Duration,
    time_left: Duration,
    stop: impl Fn() -> bool,
    mut check: impl FnMut(Duration, u32) -> z3::SatResult,
) -> z3::SatResult {
    let start = Instant::now();
    let mut slice = first;
    for k in 0.. {
        let left = time_left.saturating_sub(start.elapsed());
        if left.is_zero() || stop() {
            break;
        }
        let answer = check(slice.min(left), k);
        if answer != z3::SatResult::Unknown {
            return answer;
        }
        slice = slice.saturating_mul(2);
    }
    z3::SatResult::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::z3_solver::testing::{assert_a_fresh_solver_answers_rightly, assert_factoring};
    use crate::z3_solver::Z3Solver;

    /// Z3 factoring a 62-bit semiprime (far longer than a test may take) races a search of
    /// a trivially true query, which wins at once: the race ends before Z3's first slice
    /// or after it, and the solver's next check is unharmed.
    #[test]
    fn a_found_model_ends_the_race_within_a_slice() {
        let mut p = augur_expr::ExprPool::new();
        let t = p.constant(1, 1);
        let easy = CompiledQuery::compile(&p, &[t]).unwrap();
        let solver = Z3Solver::new(None);
        assert_factoring(&solver, "race");
        let start = Instant::now();
        let mut slices = 0;
        let (answer, found) = race(&easy, &[], Duration::from_secs(600), |limit, _| {
            slices += 1;
            solver.set_timeout(Some(limit));
            solver.check()
        });
        assert_eq!(found, Some(vec![]));
        assert_eq!(answer, z3::SatResult::Unknown);
        assert!(slices <= 1, "{slices} slices");
        assert!(start.elapsed() < Duration::from_secs(20));
        assert_a_fresh_solver_answers_rightly("race");
    }

    /// With nothing for the search to find, Z3 goes on slice after slice, each twice the
    /// last, until the time is up (a stand-in check that always runs out of its time).
    #[test]
    fn without_a_model_z3_has_the_whole_time() {
        let mut p = augur_expr::ExprPool::new();
        let f = p.constant(0, 1);
        let impossible = CompiledQuery::compile(&p, &[f]).unwrap();
        let mut limits = Vec::new();
        let start = Instant::now();
        let mut numbers = Vec::new();
        let (answer, found) = race(&impossible, &[], Duration::from_millis(700), |limit, k| {
            limits.push(limit);
            numbers.push(k);
            std::thread::sleep(limit);
            z3::SatResult::Unknown
        });
        assert_eq!((answer, found), (z3::SatResult::Unknown, None));
        assert_eq!(&limits[..2], &[FIRST_SLICE, FIRST_SLICE * 2]);
        assert_eq!(numbers, (0..numbers.len() as u32).collect::<Vec<_>>());
        assert!(start.elapsed() >= Duration::from_millis(700));
    }

    /// Slices double from the first one, each numbered (a check seeds its solver by the
    /// number), the last cut to the time left; an answer or the stop ends them.
    #[test]
    fn slices_double_are_numbered_and_end_on_an_answer_or_the_stop() {
        let ms = Duration::from_millis;
        let mut seen = Vec::new();
        let answer = in_slices(
            ms(10),
            ms(1000),
            || false,
            |limit, k| {
                seen.push((limit, k));
                if k == 3 {
                    z3::SatResult::Sat
                } else {
                    z3::SatResult::Unknown
                }
            },
        );
        assert_eq!(answer, z3::SatResult::Sat);
        assert_eq!(seen, [(ms(10), 0), (ms(20), 1), (ms(40), 2), (ms(80), 3)]);
        let mut count = 0;
        let stop = std::cell::Cell::new(false);
        let answer = in_slices(
            ms(10),
            ms(1000),
            || stop.get(),
            |_, k| {
                count += 1;
                stop.set(k == 1);
                z3::SatResult::Unknown
            },
        );
        assert_eq!((answer, count), (z3::SatResult::Unknown, 2));
        let mut last = ms(0);
        in_slices(
            ms(10),
            ms(25),
            || false,
            |limit, _| {
                std::thread::sleep(limit);
                last = limit;
                z3::SatResult::Unknown
            },
        );
        assert!(
            last < ms(20),
            "the last slice is cut to the time left: {last:?}"
        );
    }
}
