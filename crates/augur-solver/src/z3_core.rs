//! Z3's side of a query: one persistent, incremental Z3 solver, each constraint in its
//! own scope, scopes kept while consecutive queries share a prefix of constraints
//! (measured on small bit-vector queries: 0.9 ms per query against 13 ms for a fresh
//! solver, whose set-up dominates); a persistent term cache and byte-wise model
//! extraction. A query Z3 has not answered in its first try is given the rest of its time
//! with a model search beside it ([`race`]). Queries the incremental kernel works on past
//! any limit (floating point, very large, very shared) go whole to a one-shot solver
//! instead ([`Z3Core::assert_query`]).
//!
//! Everything here lives on the solver's own thread ([`crate::z3_worker`]), with that
//! thread's Z3 context: what to check and for how long is decided by
//! [`crate::z3_backend`].

use crate::race::{in_slices, race};
use crate::watchdog::Watchdog;
use crate::z3_solver::Z3Solver;
use crate::z3_translate::{byte_var, Translator};
use augur_expr::{Assignment, CompiledQuery, ExprId, ExprPool};
use std::time::{Duration, Instant};

/// How long past its limit a check may run before the watchdog interrupts it (Z3's own
/// timeout should have stopped it by then).
pub(crate) const GRACE: Duration = Duration::from_millis(100);

/// The first slice of a second try without a model search beside it (a query that does
/// not compile: floating point). Such a query is bit-blasted again on each fresh solver,
/// a half second for a few double-precision operations, so shorter slices would spend
/// the time in restarts; past this one, a seed of its own for each next slice cuts off
/// the runs on which Z3 is unlucky (coreutils seq: 6 to 10 s instead of 0.5 s for one
/// seed in four to eight).
const ALONE_FIRST_SLICE: Duration = Duration::from_secs(1);

/// How many queries one incremental solver checks before a fresh one replaces it. Z3's
/// solver slows down as it ages, scopes popped or not: on coreutils head (about 60
/// constraints a query) the median satisfiable check took 0.85 ms over the first 1,500
/// queries and 2.9 ms after 10,000. With a fresh solver every 20 to 500 queries, head
/// checked 16,700 to 17,700 queries in 30 s, against 13,600 (14,400 every 2,000).
const CHECKS_PER_SOLVER: u32 = 200;

/// How one query is to be checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The whole time the query may take (`Duration::MAX`: no limit).
    pub(crate) limit: Duration,
    /// Asserted whole on a one-shot solver, not in scopes.
    pub(crate) whole: bool,
    /// Checked once for its whole limit: each try on a fresh solver would translate
    /// and assert it again, work no limit stops.
    pub(crate) once: bool,
    /// How long Z3 works alone before a model search joins it.
    pub(crate) search_after: Duration,
    /// Start from a fresh solver (the last one's model was wrong).
    pub(crate) fresh: bool,
    /// The run's deadline, if any: a check whose turn ([`crate::z3_solver`]) has not come
    /// by then is not made.
    pub(crate) turn_by: Option<Instant>,
}

/// Z3's answer to one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Satisfiable, with the model Z3 (or the model search) found.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// Satisfiable, but Z3 gave no model.
    SatWithoutModel,
    /// Not decided, for Z3's reason.
    Unknown(String),
}

/// Z3's answer and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) verdict: Verdict,
    /// The model came from the model search, not from Z3.
    pub(crate) sampled: bool,
}

/// The Z3 state of one solver thread.
pub(crate) struct Z3Core {
    translator: Translator,
    solver: Z3Solver,
    /// The constraints asserted in the solver's open scopes, one scope each.
    asserted: Vec<ExprId>,
    /// Whether the solver holds a query asserted without scopes (see
    /// [`Z3Core::assert_query`]): the next query needs a fresh solver.
    flat: bool,
    /// The last model Z3 found: the model search starts from it.
    last_model: Option<Assignment>,
    watchdog: Watchdog,
    /// Queries asserted into the solver since it was made.
    checks: u32,
    /// The query's [`Plan::turn_by`].
    turn_by: Option<Instant>,
}

impl Z3Core {
    /// A core with a fresh solver and its watchdog.
    pub(crate) fn new() -> Self {
        Z3Core {
            translator: Translator::default(),
            solver: Z3Solver::new(None),
            asserted: Vec::new(),
            flat: false,
            last_model: None,
            watchdog: Watchdog::new(),
            checks: 0,
            turn_by: None,
        }
    }

    /// A fresh solver, with no scopes, after a check stopped from outside (by the model
    /// search or the watchdog) or a model Z3 got wrong: an incremental solver that was
    /// interrupted answered later queries unsat for satisfiable sets (Z3 4.8.12). Also
    /// every [`CHECKS_PER_SOLVER`] queries.
    fn restart(&mut self) {
        self.solver = Z3Solver::new(None);
        self.asserted.clear();
        self.flat = false;
        self.checks = 0;
    }

    /// Check `constraints` of `pool` as `plan` says: Z3 alone for its first try, then, on
    /// a fresh solver, Z3 for the rest of the time limit beside a model search.
    pub(crate) fn answer(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
        plan: Plan,
    ) -> Outcome {
        let start = Instant::now();
        self.turn_by = plan.turn_by;
        if plan.fresh {
            self.restart();
        }
        let unknown = |core: &mut Z3Core| {
            let reason = core.solver.reason_unknown();
            core.restart();
            Outcome {
                verdict: Verdict::Unknown(reason),
                sampled: false,
            }
        };
        self.assert_query(pool, constraints, plan.whole);
        let first = if plan.once {
            plan.limit
        } else {
            plan.limit.min(plan.search_after)
        };
        let mut result = self.check_for(first);
        if result == z3::SatResult::Unknown {
            let left = plan.limit.saturating_sub(start.elapsed());
            if left.is_zero() || plan.once {
                return unknown(self);
            }
            // The first try stopped at its own timeout; the second starts again on fresh
            // solvers, in slices growing so that restarts waste at most half of it.
            let found;
            (result, found) = self.second_try(pool, constraints, left, plan.whole);
            if let Some(model) = found {
                // The model search won: a fresh solver next time.
                self.restart();
                return Outcome {
                    verdict: Verdict::Sat(model),
                    sampled: true,
                };
            }
            if result == z3::SatResult::Unknown {
                return unknown(self);
            }
        }
        let verdict = match result {
            z3::SatResult::Unsat => Verdict::Unsat,
            _ => match self.extract(pool, constraints) {
                Some(model) => {
                    self.last_model = Some(model.clone());
                    Verdict::Sat(model)
                }
                None => Verdict::SatWithoutModel,
            },
        };
        Outcome {
            verdict,
            sampled: false,
        }
    }

    /// Make the solver hold exactly `constraints`. A query with floating point goes to a
    /// fresh solver without scopes: Z3 then solves it with its non-incremental solver,
    /// which bit-blasts floating point up front (measured on `(double)x / 70.0` in a
    /// range: 1 s sat and 5 s unsat, against 9 s and 95 s in scopes). So does a query
    /// the backend finds too large or too shared for scopes (`whole`): Z3 works through a
    /// pushed scope's assertions in `push`, which no timeout or interrupt stops (gzip's
    /// CRC over its window made a query `push` worked on for ten minutes), while without
    /// scopes that work is done in the check, which stops at its limit.
    fn assert_query(&mut self, pool: &ExprPool, constraints: &[ExprId], whole: bool) {
        if self.flat || self.checks >= CHECKS_PER_SOLVER {
            self.restart();
        }
        self.checks += 1;
        if !constraints.iter().any(|&c| pool.has_float(c)) && !whole {
            return self.assert_scopes(pool, constraints);
        }
        self.solver = Z3Solver::one_shot(None);
        self.asserted.clear();
        for &c in constraints {
            self.solver.assert(&self.translator.boolean(pool, c));
        }
        self.flat = true;
    }

    /// Make the solver's scopes hold exactly `constraints`, keeping the scopes shared with
    /// the previous query (consecutive queries of a path share their prefix of path
    /// constraints) and pushing one scope per new constraint.
    fn assert_scopes(&mut self, pool: &ExprPool, constraints: &[ExprId]) {
        let keep = self
            .asserted
            .iter()
            .zip(constraints)
            .take_while(|(a, b)| a == b)
            .count();
        if keep < self.asserted.len() {
            self.solver.pop((self.asserted.len() - keep) as u32);
            self.asserted.truncate(keep);
        }
        for &c in &constraints[keep..] {
            self.solver.push();
            self.solver.assert(&self.translator.boolean(pool, c));
            self.asserted.push(c);
        }
    }

    /// The solver's check, stopped after `limit` by Z3 or else by the watchdog (a limit
    /// too far off to be an instant, as with no timeout at all, is not watched).
    fn check_for(&self, limit: Duration) -> z3::SatResult {
        self.solver.set_timeout(Some(limit));
        self.solver
            .check_watched(&self.watchdog, limit.saturating_add(GRACE), self.turn_by)
    }

    /// The full byte vector of every array of `constraints` in the last check's model.
    fn extract(&self, pool: &ExprPool, constraints: &[ExprId]) -> Option<Assignment> {
        let arrays = pool.arrays_of_all(constraints);
        let vars: Vec<_> = arrays
            .iter()
            .flat_map(|&a| (0..pool.array_size(a)).map(move |i| byte_var(pool.array_name(a), i)))
            .collect();
        let mut bytes = self.solver.model_bytes(&vars)?.into_iter();
        let mut out = Assignment::default();
        for a in arrays {
            out.set(
                a,
                bytes.by_ref().take(pool.array_size(a) as usize).collect(),
            );
        }
        Some(out)
    }

    /// Z3 for `time_left` in slices, each a fresh solver with a seed of its own, beside a
    /// model search (Z3 alone when the query does not compile, as floating point does
    /// not), the query asserted `whole` or in scopes: Z3's answer, and the model the
    /// search found, if any.
    fn second_try(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
        time_left: Duration,
        whole: bool,
    ) -> (z3::SatResult, Option<Assignment>) {
        match CompiledQuery::compile(pool, constraints) {
            Some(query) => {
                let seeds: Vec<Vec<u8>> =
                    self.last_model.iter().map(|m| query.input_of(m)).collect();
                let (result, found) = race(&query, &seeds, time_left, |limit, slice| {
                    self.fresh_check(pool, constraints, limit, whole, slice)
                });
                (result, found.map(|input| query.assignment(&input)))
            }
            None => {
                let result = in_slices(
                    ALONE_FIRST_SLICE,
                    time_left,
                    || false,
                    |limit, slice| self.fresh_check(pool, constraints, limit, whole, slice),
                );
                (result, None)
            }
        }
    }

    /// Check `constraints` (asserted `whole` or in scopes) for at most `limit` on a fresh
    /// solver seeded by the `slice` of the second try: Z3 4.8.12's incremental solver,
    /// checked again after a check that ran out of time, was seen answering unsat where
    /// a fresh solver finds a model (`--solver-cross-check` under load).
    fn fresh_check(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
        limit: Duration,
        whole: bool,
        slice: u32,
    ) -> z3::SatResult {
        self.restart();
        self.assert_query(pool, constraints, whole);
        // The first try ran with Z3's default seed: each slice is another draw.
        self.solver.set_seed(slice + 1);
        self.check_for(limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::var;

    /// Queries along one path (a shared prefix, one new constraint each): the solver is
    /// replaced after [`CHECKS_PER_SOLVER`] of them, and every answer before and after
    /// the replacement is right.
    #[test]
    fn a_fresh_solver_every_so_many_queries() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "cx", 2);
        let limit = p.constant(60_000, 16);
        let below = p.ult(x, limit);
        let plan = Plan {
            limit: Duration::from_secs(60),
            whole: false,
            once: false,
            search_after: Duration::from_secs(60),
            fresh: false,
            turn_by: None,
        };
        let mut core = Z3Core::new();
        let total = 2 * CHECKS_PER_SOLVER + 3;
        for k in 0..total {
            let at = p.constant(u128::from(k * 100), 16);
            let query = [below, p.eq(x, at)];
            match core.answer(&p, &query, plan).verdict {
                Verdict::Sat(model) => assert_eq!(p.eval(x, &model), u128::from(k * 100)),
                other => panic!("query {k}: {other:?}"),
            }
            assert_eq!(core.checks, k % CHECKS_PER_SOLVER + 1, "query {k}");
        }
    }
}
