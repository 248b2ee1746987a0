//! Layer 5: Z3. One persistent, incremental Z3 solver: each constraint in its own scope,
//! scopes kept while consecutive queries share a prefix of constraints (measured on small
//! bit-vector queries: 0.9 ms per query against 13 ms for a fresh solver, whose set-up
//! dominates); a persistent term cache, an optional per-query time limit and byte-wise
//! model extraction. A query Z3 has not answered in its first try ([`FIRST_TRY`] by default) is given the rest of its
//! time with a model search beside it ([`race`]).

use crate::race::race;
use crate::stats::SharedStats;
use crate::z3_translate::{byte_var, Translator};
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, CompiledQuery, ExprId, ExprPool};
use std::time::{Duration, Instant};
use z3::{Model, Params};

/// How long Z3 works on a query alone by default; a query it has not answered by then gets
/// a model search beside it (most queries take a few milliseconds).
pub(crate) const FIRST_TRY: Duration = Duration::from_millis(50);

/// Makes `solver`'s checks stop after `timeout` (None: no limit).
fn set_timeout(solver: &z3::Solver, timeout: Option<Duration>) {
    let millis = timeout.map_or(u32::MAX, |limit| {
        u32::try_from(limit.as_millis()).unwrap_or(u32::MAX)
    });
    let mut params = Params::new();
    params.set_u32("timeout", millis);
    solver.set_params(&params);
}

/// Z3's time alone on a query under the limit `timeout` when a model search joins it
/// after `search_after`.
fn first_try(timeout: Option<Duration>, search_after: Duration) -> Duration {
    timeout.map_or(search_after, |limit| limit.min(search_after))
}

/// A fresh Z3 solver whose checks stop after `timeout` (None: no limit).
pub(crate) fn limited_solver(timeout: Option<Duration>) -> z3::Solver {
    let solver = z3::Solver::new();
    if timeout.is_some() {
        set_timeout(&solver, timeout);
    }
    solver
}

/// The solver at the end of the chain.
pub(crate) struct Z3Backend {
    translator: Translator,
    solver: z3::Solver,
    /// The constraints asserted in the solver's open scopes, one scope each.
    asserted: Vec<ExprId>,
    timeout: Option<Duration>,
    /// The last model Z3 found: the model search starts from it.
    last_model: Option<Assignment>,
    /// How long Z3 works alone on a query before a model search joins it.
    search_after: Duration,
    stats: SharedStats,
}

impl Z3Backend {
    /// A backend giving each query at most `timeout` (None: no limit).
    pub(crate) fn new(timeout: Option<Duration>, stats: SharedStats) -> Self {
        Z3Backend {
            translator: Translator::default(),
            solver: limited_solver(Some(first_try(timeout, FIRST_TRY))),
            asserted: Vec::new(),
            timeout,
            last_model: None,
            search_after: FIRST_TRY,
            stats,
        }
    }

    /// This backend with a model search joining Z3 after `after` (at least a millisecond).
    pub(crate) fn searching_after(mut self, after: Duration) -> Self {
        self.search_after = after.max(Duration::from_millis(1));
        self.restart();
        self
    }

    /// A fresh solver, with no scopes, whose checks stop after Z3's first try.
    fn restart(&mut self) {
        self.solver = limited_solver(Some(self.first_try()));
        self.asserted.clear();
    }

    /// Z3's time alone on a query.
    fn first_try(&self) -> Duration {
        first_try(self.timeout, self.search_after)
    }

    /// The full byte vector of every array of `constraints` in `model`.
    fn extract(pool: &ExprPool, model: &Model, constraints: &[ExprId]) -> Assignment {
        let mut out = Assignment::default();
        for a in pool.arrays_of_all(constraints) {
            let name = pool.array_name(a);
            let bytes = (0..pool.array_size(a))
                .map(|i| {
                    model
                        .eval(&byte_var(name, i), true)
                        .and_then(|v| v.as_u64())
                        .unwrap_or(0) as u8
                })
                .collect();
            out.set(a, bytes);
        }
        out
    }

    /// The error for an `unknown` answer after `elapsed`.
    fn unknown(&self, reason: String, elapsed: Duration) -> SolverError {
        let timed_out = self.timeout.is_some_and(|limit| {
            elapsed >= limit || reason.contains("timeout") || reason.contains("canceled")
        });
        if timed_out {
            self.stats.borrow_mut().timeouts += 1;
            SolverError::Timeout
        } else {
            SolverError::Unknown(reason)
        }
    }
}

impl Solver for Z3Backend {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        self.stats.borrow_mut().solver_calls += 1;
        // Keep the scopes shared with the previous query (consecutive queries of a path
        // share their prefix of path constraints), and push one scope per new constraint.
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
            self.solver.assert(self.translator.boolean(pool, c));
            self.asserted.push(c);
        }
        self.answer(pool, constraints)
    }
}

impl Z3Backend {
    /// Check the assertions of the current scope and read the answer: Z3 alone for its
    /// first try, then Z3 for the rest of the time limit beside a model search.
    fn answer(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let mut result = self.solver.check();
        let time_left = self
            .timeout
            .map(|limit| limit.saturating_sub(start.elapsed()));
        if result == z3::SatResult::Unknown
            && start.elapsed() >= self.first_try()
            && time_left != Some(Duration::ZERO)
        {
            let found;
            (result, found) = self.second_try(pool, constraints, time_left);
            if let Some(model) = found {
                // The search interrupted Z3, and an interrupted incremental solver can
                // answer later queries wrongly (unsat for satisfiable sets, seen with Z3
                // 4.8.12): start afresh, with no scopes.
                self.restart();
                let mut stats = self.stats.borrow_mut();
                stats.time_s += start.elapsed().as_secs_f64();
                stats.sampled += 1;
                return Ok(SatResult::Sat(model));
            }
        }
        let elapsed = start.elapsed();
        self.stats.borrow_mut().time_s += elapsed.as_secs_f64();
        match result {
            z3::SatResult::Unsat => Ok(SatResult::Unsat),
            z3::SatResult::Sat => {
                let model = self
                    .solver
                    .get_model()
                    .ok_or_else(|| SolverError::Unknown("sat without a model".into()))?;
                let model = Self::extract(pool, &model, constraints);
                self.last_model = Some(model.clone());
                Ok(SatResult::Sat(model))
            }
            z3::SatResult::Unknown => {
                let reason = self.solver.get_reason_unknown().unwrap_or_default();
                Err(self.unknown(reason, elapsed))
            }
        }
    }

    /// Z3 for `time_left` beside a model search (Z3 alone when the query does not
    /// compile): Z3's answer, and the model the search found, if any.
    fn second_try(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
        time_left: Option<Duration>,
    ) -> (z3::SatResult, Option<Assignment>) {
        set_timeout(&self.solver, time_left);
        let answer = match CompiledQuery::compile(pool, constraints) {
            Some(query) => {
                let seeds: Vec<Vec<u8>> =
                    self.last_model.iter().map(|m| query.input_of(m)).collect();
                let (result, found) = race(&query, &seeds, || self.solver.check());
                (result, found.map(|input| query.assignment(&input)))
            }
            None => (self.solver.check(), None),
        };
        set_timeout(&self.solver, Some(self.first_try()));
        answer
    }
}
