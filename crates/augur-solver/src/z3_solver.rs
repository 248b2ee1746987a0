//! A Z3 solver that can be interrupted without harm to anything else.
//!
//! `Z3_interrupt` (the `z3` crate's `ContextHandle::interrupt`) cancels the whole context,
//! and with Z3 4.8.12 that cancellation outlives the check it was meant for: checks run
//! later in the same context, on fresh solvers too, answered `sat` with models violating
//! their constraints (seen as tests whose native replay took another path, under load,
//! where first tries time out and the model search interrupts Z3 often). This solver is
//! interrupted through `Z3_solver_interrupt` instead, which reaches only the check in
//! progress on this solver and does nothing when none is, so a late interrupt is
//! harmless. The `z3` crate does not expose a solver's raw handle, so the few solver
//! calls augur makes are made here through `z3-sys`; terms still come from the `z3` crate.

use crate::watchdog::Watchdog;
use std::cell::Cell;
use std::ffi::{CStr, CString};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, BV};
use z3::Context;
use z3_sys::{Z3_context, Z3_solver};

/// The thread whose timed check has the turn, if any: every check that may run with a
/// time limit takes it. Z3 4.8.12 times its checks with threads from one pool shared by
/// the whole process, and that pool is not safe for checks timed at once on several
/// threads (its `work` flag is a plain int): two checks were handed the same timer, one
/// of them then ran with none, was interrupted by the watchdog, and went on for 20
/// minutes hearing neither (unit tests running side by side on a loaded machine). A run
/// checks on one thread at a time, so there the turn is never waited for; threads of
/// one test binary take turns. A check abandoned past its limit
/// ([`crate::z3_worker`]) gives its turn up ([`forfeit_turn`]).
static TURN: Mutex<Option<ThreadId>> = Mutex::new(None);

/// Signalled when the turn is free.
static TURN_FREE: Condvar = Condvar::new();

/// The turn of the thread holding it (see [`TURN`]), until dropped.
pub(crate) struct Turn;

fn turn_holder() -> MutexGuard<'static, Option<ThreadId>> {
    TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Wait for the turn to run a timed Z3 check, and take it (see [`TURN`]).
pub(crate) fn one_check_at_a_time() -> Turn {
    one_check_at_a_time_until(None).expect("a wait without end ends with the turn")
}

/// Wait for the turn to run a timed Z3 check until `by` (None: as long as it takes), and
/// take it; None when `by` came first (the run's deadline: the time of a run bounds the
/// wait for the turn too, whoever holds it).
pub(crate) fn one_check_at_a_time_until(by: Option<Instant>) -> Option<Turn> {
    let mut holder = turn_holder();
    while holder.is_some() {
        holder = match by {
            None => TURN_FREE
                .wait(holder)
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            Some(by) => {
                let left = by.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return None;
                }
                TURN_FREE
                    .wait_timeout(holder, left)
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .0
            }
        };
    }
    *holder = Some(std::thread::current().id());
    Some(Turn)
}

/// Free the turn if `thread` holds it: its check has been abandoned, and may never end.
pub(crate) fn forfeit_turn(thread: ThreadId) {
    let mut holder = turn_holder();
    if *holder == Some(thread) {
        *holder = None;
        TURN_FREE.notify_all();
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        forfeit_turn(std::thread::current().id());
    }
}

/// An incremental Z3 solver in this thread's context.
pub(crate) struct Z3Solver {
    /// Keeps the context alive as long as the solver.
    ctx: Context,
    raw: Z3_solver,
    /// The timeout last set, in milliseconds (setting parameters costs Z3 more than a
    /// small check, so it is done only on a change).
    timeout_ms: Cell<Option<u32>>,
    /// Whether the last check never ran: its turn did not come before the deadline.
    missed_turn: Cell<bool>,
}

/// Interrupts the check in progress on one solver, from any thread; does nothing when no
/// check is in progress. Valid while the solver it came from lives.
#[derive(Clone, Copy)]
pub(crate) struct Interrupter {
    ctx: Z3_context,
    raw: Z3_solver,
}

// SAFETY: `Z3_solver_interrupt` is Z3's thread-safe entry point (it takes the solver's
// mutex); callers keep the solver alive while they may interrupt it.
unsafe impl Send for Interrupter {}
// SAFETY: as for Send: the only operation is the thread-safe interrupt.
unsafe impl Sync for Interrupter {}

impl Interrupter {
    /// Stop the check in progress on the solver (it answers unknown), if there is one.
    pub(crate) fn interrupt(&self) {
        // SAFETY: the solver is alive (see the type's contract).
        unsafe { z3_sys::Z3_solver_interrupt(self.ctx, self.raw) }
    }
}

impl Z3Solver {
    /// A fresh solver whose checks stop after `timeout` (None: no limit).
    pub(crate) fn new(timeout: Option<Duration>) -> Self {
        let ctx = Context::thread_local();
        // SAFETY: a valid context.
        let raw = unsafe { z3_sys::Z3_mk_solver(ctx.get_z3_context()) };
        Self::holding(ctx, raw.expect("Z3 creates a solver"), timeout)
    }

    /// A fresh solver for one query asserted whole, without scopes: Z3's default tactic
    /// (bit-blasting for bit-vectors, floating point included) run by the check alone.
    /// Asserting into [`Z3Solver::new`]'s solver also feeds its incremental kernel,
    /// which simplifies each assertion on the spot, where no timeout or interrupt
    /// reaches: 1.7 s per assertion of sha512sum's rounds, at most one check's timeout
    /// later here. A check of this solver honours its timeout as the other's does.
    pub(crate) fn one_shot(timeout: Option<Duration>) -> Self {
        let ctx = Context::thread_local();
        let c = ctx.get_z3_context();
        let name = CString::new("default").expect("no NUL");
        // SAFETY: a valid context; the tactic's reference is released once the solver
        // holds its own.
        let raw = unsafe {
            let tactic = z3_sys::Z3_mk_tactic(c, name.as_ptr()).expect("Z3's default tactic");
            z3_sys::Z3_tactic_inc_ref(c, tactic);
            let raw = z3_sys::Z3_mk_solver_from_tactic(c, tactic);
            z3_sys::Z3_tactic_dec_ref(c, tactic);
            raw
        };
        Self::holding(
            ctx,
            raw.expect("Z3 creates a solver from a tactic"),
            timeout,
        )
    }

    /// The solver `raw` of `ctx`, referenced until dropped, with `timeout` set.
    fn holding(ctx: Context, raw: Z3_solver, timeout: Option<Duration>) -> Self {
        // SAFETY: a valid solver of `ctx`; the reference is released in Drop.
        unsafe { z3_sys::Z3_solver_inc_ref(ctx.get_z3_context(), raw) };
        let solver = Z3Solver {
            ctx,
            raw,
            timeout_ms: Cell::new(None),
            missed_turn: Cell::new(false),
        };
        if timeout.is_some() {
            solver.set_timeout(timeout);
        }
        solver
    }

    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }

    /// Makes the following checks stop after `timeout` (None: no limit).
    pub(crate) fn set_timeout(&self, timeout: Option<Duration>) {
        let millis = timeout.map_or(u32::MAX, |limit| {
            u32::try_from(limit.as_millis()).unwrap_or(u32::MAX).max(1)
        });
        if self.timeout_ms.replace(Some(millis)) != Some(millis) {
            self.set_uint("timeout", millis);
        }
    }

    /// Makes the following checks draw their random choices from `seed` (Z3's
    /// `random_seed`, 0 by default): the same query takes Z3 a time that varies by seed,
    /// mostly about the same, now and then twenty times that (measured on coreutils seq's
    /// floating-point queries: 0.5 s for most seeds, 6 to 10 s for one or two in eight).
    pub(crate) fn set_seed(&self, seed: u32) {
        self.set_uint("random_seed", seed);
    }

    /// Sets the solver's parameter `name` to `value`.
    fn set_uint(&self, name: &str, value: u32) {
        let key = CString::new(name).expect("no NUL");
        // SAFETY: valid context and solver; the parameter set is released here.
        unsafe {
            let params = z3_sys::Z3_mk_params(self.c()).expect("Z3 creates a parameter set");
            z3_sys::Z3_params_inc_ref(self.c(), params);
            let sym = z3_sys::Z3_mk_string_symbol(self.c(), key.as_ptr()).expect("a symbol");
            z3_sys::Z3_params_set_uint(self.c(), params, sym, value);
            z3_sys::Z3_solver_set_params(self.c(), self.raw, params);
            z3_sys::Z3_params_dec_ref(self.c(), params);
        }
    }

    /// Open a scope.
    pub(crate) fn push(&self) {
        // SAFETY: valid context and solver.
        unsafe { z3_sys::Z3_solver_push(self.c(), self.raw) }
    }

    /// Close the `n` innermost scopes.
    pub(crate) fn pop(&self, n: u32) {
        // SAFETY: valid context and solver; callers pop only scopes they pushed.
        unsafe { z3_sys::Z3_solver_pop(self.c(), self.raw, n) }
    }

    /// Assert `b` in the innermost scope.
    pub(crate) fn assert(&self, b: &Bool) {
        // SAFETY: valid context and solver; `b` belongs to the same (thread's) context.
        unsafe { z3_sys::Z3_solver_assert(self.c(), self.raw, b.get_z3_ast()) }
    }

    /// Check the assertions (for tests; the backend's checks are watched).
    #[cfg(test)]
    pub(crate) fn check(&self) -> z3::SatResult {
        let _turn = one_check_at_a_time();
        self.check_now()
    }

    /// Check the assertions, interrupted by `watchdog` if the check runs `watch_after`
    /// (counted once the check has its turn: see [`TURN`]); a limit too far off to
    /// be an instant is not watched. Unknown, without a check, when the turn has not
    /// come by `turn_by` (the run's deadline).
    pub(crate) fn check_watched(
        &self,
        watchdog: &Watchdog,
        watch_after: Duration,
        turn_by: Option<Instant>,
    ) -> z3::SatResult {
        let turn = one_check_at_a_time_until(turn_by);
        self.missed_turn.set(turn.is_none());
        let Some(_turn) = turn else {
            return z3::SatResult::Unknown;
        };
        let deadline = Instant::now().checked_add(watch_after);
        let _watch = deadline.map(|d| watchdog.watch(self.interrupter(), d));
        self.check_now()
    }

    /// The check itself, its turn taken.
    fn check_now(&self) -> z3::SatResult {
        // SAFETY: valid context and solver.
        match unsafe { z3_sys::Z3_solver_check(self.c(), self.raw) } {
            z3_sys::Z3_L_TRUE => z3::SatResult::Sat,
            z3_sys::Z3_L_FALSE => z3::SatResult::Unsat,
            _ => z3::SatResult::Unknown,
        }
    }

    /// Why the last check answered unknown.
    pub(crate) fn reason_unknown(&self) -> String {
        if self.missed_turn.get() {
            return "timeout: no turn to check before the deadline".into();
        }
        // SAFETY: valid context and solver; Z3 owns the returned string until its next call.
        unsafe {
            let s = z3_sys::Z3_solver_get_reason_unknown(self.c(), self.raw);
            if s.is_null() {
                String::new()
            } else {
                CStr::from_ptr(s).to_string_lossy().into_owned()
            }
        }
    }

    /// The values of `vars` (8-bit variables) in the model of the last check (which
    /// answered sat); None if Z3 has no model or cannot evaluate one of them.
    pub(crate) fn model_bytes(&self, vars: &[BV]) -> Option<Vec<u8>> {
        // SAFETY: valid context and solver; the model's reference is released here, and
        // evaluated terms are read before Z3's next call.
        unsafe {
            let model = z3_sys::Z3_solver_get_model(self.c(), self.raw)?;
            z3_sys::Z3_model_inc_ref(self.c(), model);
            let bytes = vars
                .iter()
                .map(|v| {
                    let mut out = v.get_z3_ast();
                    let mut value = 0u64;
                    let ok = z3_sys::Z3_model_eval(self.c(), model, v.get_z3_ast(), true, &mut out)
                        && z3_sys::Z3_get_numeral_uint64(self.c(), out, &mut value);
                    ok.then_some(value as u8)
                })
                .collect();
            z3_sys::Z3_model_dec_ref(self.c(), model);
            bytes
        }
    }

    /// A handle that interrupts this solver's checks from another thread.
    pub(crate) fn interrupter(&self) -> Interrupter {
        Interrupter {
            ctx: self.c(),
            raw: self.raw,
        }
    }
}

impl Drop for Z3Solver {
    fn drop(&mut self) {
        // SAFETY: releases the reference taken in `new`.
        unsafe { z3_sys::Z3_solver_dec_ref(self.c(), self.raw) }
    }
}

/// Queries the interrupt tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::Z3Solver;
    use z3::ast::BV;

    /// Asserts on `solver` the factoring of a 62-bit semiprime into two factors in
    /// [2, 2^32): far longer for Z3 than a test may take. `tag` keeps its names apart.
    pub(crate) fn assert_factoring(solver: &Z3Solver, tag: &str) {
        let x = BV::new_const(format!("{tag}_x"), 64);
        let y = BV::new_const(format!("{tag}_y"), 64);
        let (two, limit) = (BV::from_u64(2, 64), BV::from_u64(1 << 32, 64));
        let semiprime = 2_147_483_647u64 * 2_147_483_629;
        solver.assert(&x.bvmul(&y).eq(BV::from_u64(semiprime, 64)));
        for factor in [&x, &y] {
            solver.assert(&factor.bvuge(&two));
            solver.assert(&factor.bvult(&limit));
        }
    }

    /// A fresh solver of this thread answers `3 < z < 5` rightly, with the right model.
    pub(crate) fn assert_a_fresh_solver_answers_rightly(tag: &str) {
        let fresh = Z3Solver::new(None);
        let z = BV::new_const(format!("{tag}_z"), 8);
        fresh.assert(&z.bvugt(BV::from_u64(3, 8)));
        fresh.assert(&z.bvult(BV::from_u64(5, 8)));
        assert_eq!(fresh.check(), z3::SatResult::Sat);
        assert_eq!(fresh.model_bytes(std::slice::from_ref(&z)), Some(vec![4]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

    fn at_least(x: &BV, n: u64) -> Bool {
        x.bvuge(BV::from_u64(n, 8))
    }

    #[test]
    fn scopes_checks_and_models() {
        let s = Z3Solver::new(None);
        let x = BV::new_const("zs_x", 8);
        s.push();
        s.assert(&at_least(&x, 200));
        assert_eq!(s.check(), z3::SatResult::Sat);
        let v = s.model_bytes(std::slice::from_ref(&x)).unwrap();
        assert!(v[0] >= 200);
        s.push();
        s.assert(&x.bvult(BV::from_u64(100, 8)));
        assert_eq!(s.check(), z3::SatResult::Unsat);
        s.pop(1);
        assert_eq!(s.check(), z3::SatResult::Sat);
    }

    /// The model of `x * y == 0x12345679` (32 bits, both above 1: many models) that a
    /// solver `make` gives with `seed`, on a thread of its own (a fresh Z3 context, so
    /// nothing else of the test binary's checks sways Z3's choices).
    fn model_with_seed(make: fn(Option<std::time::Duration>) -> Z3Solver, seed: u32) -> (u32, u32) {
        let product = 0x1234_5679u32;
        let (x, y) = std::thread::spawn(move || {
            let s = make(None);
            s.set_seed(seed);
            let x = BV::new_const("seed_x", 32);
            let y = BV::new_const("seed_y", 32);
            s.assert(&x.bvmul(&y).eq(BV::from_u64(product.into(), 32)));
            s.assert(&x.bvugt(BV::from_u64(1, 32)));
            s.assert(&y.bvugt(BV::from_u64(1, 32)));
            assert_eq!(s.check(), z3::SatResult::Sat);
            let vars: Vec<BV> = [&x, &y]
                .iter()
                .flat_map(|v| (0..4).map(move |k| v.extract(8 * k + 7, 8 * k)))
                .collect();
            let bytes = s.model_bytes(&vars).expect("a model");
            let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
            (word(&bytes[..4]), word(&bytes[4..]))
        })
        .join()
        .expect("the check does not panic");
        assert_eq!(x.wrapping_mul(y), product, "a right model");
        (x, y)
    }

    /// The seed reaches Z3 on both kinds of solver: the same seed gives the same model,
    /// other seeds other models.
    #[test]
    fn other_seeds_give_other_models() {
        for make in [Z3Solver::new, Z3Solver::one_shot] {
            let found: Vec<_> = [1, 2, 3, 4].map(|seed| model_with_seed(make, seed)).into();
            assert_eq!(
                model_with_seed(make, 1),
                found[0],
                "the same seed, the same model"
            );
            let distinct: std::collections::BTreeSet<_> = found.iter().collect();
            assert!(distinct.len() > 1, "{found:?}");
        }
    }

    /// An interrupt while no check runs is lost, and the next check answers rightly with
    /// a right model.
    #[test]
    fn an_interrupt_between_checks_does_nothing() {
        let s = Z3Solver::new(None);
        s.interrupter().interrupt();
        let x = BV::new_const("zs_y", 8);
        s.assert(&at_least(&x, 7));
        s.assert(&x.bvult(BV::from_u64(9, 8)));
        assert_eq!(s.check(), z3::SatResult::Sat);
        let v = s.model_bytes(std::slice::from_ref(&x)).unwrap()[0];
        assert!((7..9).contains(&v), "{v}");
    }
}
