//! The watchdog: a check that runs past its limit is interrupted, whether or not Z3 keeps
//! to its own timeout (it does not always: a timeout is only looked at between steps of
//! some procedures). One thread per backend looks at the armed deadline every few
//! milliseconds and, once it has passed, interrupts the check every millisecond until the
//! check returns. Arming and disarming only take a lock: waking the thread for each of
//! thousands of checks cost sort.c a third more solver time on a loaded machine.

use crate::z3_solver::Interrupter;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a check past its deadline is interrupted again (an interrupt reaching Z3
/// before the check's handler is installed is lost).
const AGAIN_EVERY: Duration = Duration::from_millis(1);

/// How often the watchdog looks at the armed deadline (checks are given their limit plus
/// a grace far longer than this).
const LOOK_EVERY: Duration = Duration::from_millis(10);

#[derive(Default)]
struct Armed {
    target: Option<(Interrupter, Instant)>,
    quit: bool,
}

type Shared = Arc<(Mutex<Armed>, Condvar)>;

/// Interrupts checks that run past their deadline.
pub(crate) struct Watchdog {
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

/// While it lives, the watched check is interrupted once its deadline has passed.
pub(crate) struct Watch<'a> {
    shared: &'a Shared,
}

impl Watchdog {
    /// A watchdog with its thread.
    pub(crate) fn new() -> Self {
        let shared: Shared = Arc::default();
        let theirs = shared.clone();
        let thread = std::thread::Builder::new()
            .name("augur-z3-watchdog".into())
            .spawn(move || watch(&theirs))
            .expect("a thread for the solver's watchdog");
        Watchdog {
            shared,
            thread: Some(thread),
        }
    }

    /// Watch the check about to run on the solver of `interrupter` until the returned
    /// guard is dropped (right after the check returns).
    pub(crate) fn watch(&self, interrupter: Interrupter, deadline: Instant) -> Watch<'_> {
        self.shared.0.lock().expect("the watchdog's lock").target = Some((interrupter, deadline));
        Watch {
            shared: &self.shared,
        }
    }
}

impl Drop for Watch<'_> {
    fn drop(&mut self) {
        // Under the lock: once this returns, the watchdog no longer touches the solver.
        self.shared.0.lock().expect("the watchdog's lock").target = None;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, wake) = &*self.shared;
        lock.lock().expect("the watchdog's lock").quit = true;
        wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The watchdog thread's loop.
fn watch(shared: &Shared) {
    let (lock, wake) = &**shared;
    let mut armed = lock.lock().expect("the watchdog's lock");
    while !armed.quit {
        let pause = match armed.target {
            Some((interrupter, deadline)) if Instant::now() >= deadline => {
                interrupter.interrupt();
                AGAIN_EVERY
            }
            _ => LOOK_EVERY,
        };
        armed = wake
            .wait_timeout(armed, pause)
            .expect("the watchdog's lock")
            .0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::z3_solver::testing::{assert_a_fresh_solver_answers_rightly, assert_factoring};
    use crate::z3_solver::Z3Solver;

    /// Z3 factoring a 62-bit semiprime with no time limit of its own is stopped by the
    /// watchdog at the deadline, and the same thread's next check answers rightly.
    #[test]
    fn a_check_past_its_deadline_is_interrupted() {
        let solver = Z3Solver::new(None);
        assert_factoring(&solver, "wd");
        let dog = Watchdog::new();
        let start = Instant::now();
        let answer = {
            let _watch = dog.watch(solver.interrupter(), start + Duration::from_millis(200));
            solver.check()
        };
        assert_eq!(answer, z3::SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(20));
        assert_a_fresh_solver_answers_rightly("wd");
    }
}
