//! The assembled solver chain and the queries the engine asks.

use crate::cex_cache::CexCache;
use crate::cross_check::CrossCheck;
use crate::exhaustive::Exhaustive;
use crate::fast_path::FastPath;
use crate::independence::{relevant, Independence, SharedElements};
use crate::order::OrderLayer;
use crate::query_cache::QueryCache;
use crate::query_log::QueryLog;
use crate::stats::SharedStats;
use crate::z3_backend::{SharedDeadline, Z3Backend};
use crate::{Layer, SatResult, Solver, SolverConfig, SolverError, SolverStats};
use augur_expr::{ArrayId, Assignment, ExprId, ExprPool};

/// The layers, front to back: [cross-check] -> fast path -> independence -> query cache ->
/// order -> counterexample cache -> exhaustive -> [query log] -> Z3, without those
/// `config` leaves out.
fn layers(
    config: &SolverConfig,
    stats: &SharedStats,
    elems: &SharedElements,
    deadline: &SharedDeadline,
) -> Box<dyn Solver> {
    let on = |layer| config.layers.contains(layer);
    let z3 = Z3Backend::new(config.timeout, stats.clone()).keeping_to(deadline.clone());
    let z3 = match config.search_after {
        Some(after) => z3.searching_after(after),
        None => z3,
    };
    let mut solver: Box<dyn Solver> = Box::new(z3);
    if let Some(dir) = &config.log_queries {
        solver = Box::new(QueryLog::new(solver, dir));
    }
    if on(Layer::Exhaustive) {
        solver = Box::new(Exhaustive::new(solver, elems.clone(), stats.clone()));
    }
    if on(Layer::CexCache) {
        solver = Box::new(CexCache::new(solver, stats.clone(), deadline.clone()));
    }
    if on(Layer::Order) {
        solver = Box::new(OrderLayer::new(solver, stats.clone()));
    }
    if on(Layer::QueryCache) {
        solver = Box::new(QueryCache::new(solver, stats.clone()));
    }
    if on(Layer::Independence) {
        solver = Box::new(Independence::new(solver, elems.clone()));
    }
    if on(Layer::FastPath) {
        solver = Box::new(FastPath::new(solver, stats.clone()));
    }
    if config.cross_check {
        solver = Box::new(CrossCheck::new(solver, config.timeout, stats.clone()));
    }
    solver
}

/// The error for a query whose path constraints have no model.
fn infeasible() -> SolverError {
    SolverError::Unknown("the constraints are unsatisfiable".into())
}

/// The solver chain. The validity queries (`may_be_true`, `must_be_true`,
/// `branch_feasibility`, `value`) assume the path constraints are satisfiable, as the
/// engine guarantees, and (with the independence layer on) only solve the constraints
/// related to the queried expression.
///
/// Caches are keyed by expression ids, so a chain serves one pool at a time; handing it
/// a different pool starts the caches afresh.
pub struct SolverChain {
    solver: Box<dyn Solver>,
    stats: SharedStats,
    elems: SharedElements,
    deadline: SharedDeadline,
    config: SolverConfig,
    pool_uid: Option<u64>,
}

impl SolverChain {
    /// The chain `config` describes.
    pub fn new(config: SolverConfig) -> Self {
        let stats = SharedStats::default();
        let elems = SharedElements::default();
        let deadline = SharedDeadline::new(std::cell::Cell::new(config.deadline));
        SolverChain {
            solver: layers(&config, &stats, &elems, &deadline),
            stats,
            elems,
            deadline,
            config,
            pool_uid: None,
        }
    }

    /// No Z3 check runs past `deadline` (None: only the per-query timeout limits them;
    /// the chain starts with its configuration's):
    /// a query reaching Z3 after it is a timeout at once, and one running at it is stopped
    /// there, so that `--max-time` holds whatever the solver timeout.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline.set(deadline);
    }

    /// What the chain is made of.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The constraints a query about `exprs` needs: those related to them when the
    /// independence layer is on, else all.
    fn related(&self, pool: &ExprPool, constraints: &[ExprId], exprs: &[ExprId]) -> Vec<ExprId> {
        if self.config.layers.contains(Layer::Independence) {
            relevant(pool, &mut self.elems.borrow_mut(), constraints, exprs)
        } else {
            constraints.to_vec()
        }
    }

    /// The counters so far.
    pub fn stats(&self) -> SolverStats {
        self.stats.borrow().clone()
    }

    /// Can `cond` be true under `constraints`? (width-1 cond)
    pub fn may_be_true(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        cond: ExprId,
    ) -> Result<bool, SolverError> {
        Ok(self.model_with(pool, constraints, cond)?.is_some())
    }

    /// A model of `cond` and the constraints related to it; None if `cond` cannot be true
    /// under `constraints`.
    pub fn model_with(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        cond: ExprId,
    ) -> Result<Option<Assignment>, SolverError> {
        let mut query = self.related(pool, constraints, &[cond]);
        query.push(cond);
        Ok(match self.check(pool, &query)? {
            SatResult::Sat(model) => Some(model),
            SatResult::Unsat => None,
        })
    }

    /// Must `cond` be true under `constraints`?
    pub fn must_be_true(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        cond: ExprId,
    ) -> Result<bool, SolverError> {
        let negated = pool.not(cond);
        Ok(!self.may_be_true(pool, constraints, negated)?)
    }

    /// Branch feasibility in one call: (can be true, can be false). A model of the
    /// related constraints settles the side it evaluates `cond` to, so only the other side
    /// is solved; if that times out, it counts as infeasible.
    pub fn branch_feasibility(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        cond: ExprId,
    ) -> Result<(bool, bool), SolverError> {
        let [t, f] = self.branch_models(pool, constraints, cond)?;
        Ok((t.is_some(), f.is_some()))
    }

    /// [`SolverChain::branch_feasibility`] with, for each feasible side (true, false), a
    /// model of the related constraints and that side.
    pub fn branch_models(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        cond: ExprId,
    ) -> Result<[Option<Assignment>; 2], SolverError> {
        let mut query = self.related(pool, constraints, &[cond]);
        let SatResult::Sat(model) = self.check(pool, &query)? else {
            return Ok([None, None]);
        };
        let holds = pool.eval(cond, &model) == 1;
        query.push(if holds { pool.not(cond) } else { cond });
        let other = match self.check(pool, &query) {
            Ok(SatResult::Sat(m)) => Some(m),
            Ok(SatResult::Unsat) => None,
            // The side the model settles is feasible whatever Z3 says of the other: a side
            // Z3 cannot decide in time is left unexplored (counted in the timeouts) and the
            // path goes on, where KLEE ends it.
            Err(SolverError::Timeout) => None,
            Err(e) => return Err(e),
        };
        Ok(if holds {
            [Some(model), other]
        } else {
            [other, Some(model)]
        })
    }

    /// A model of `constraints` assigning every array in `arrays` (arrays the constraints
    /// don't mention get all-zero bytes of their size).
    pub fn model(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        arrays: &[ArrayId],
    ) -> Result<Assignment, SolverError> {
        let SatResult::Sat(mut model) = self.check(pool, constraints)? else {
            return Err(infeasible());
        };
        for &a in arrays {
            model
                .arrays
                .entry(a)
                .or_insert_with(|| vec![0; pool.array_size(a) as usize]);
        }
        Ok(model)
    }

    /// One feasible value of `e` under `constraints`.
    pub fn value(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        e: ExprId,
    ) -> Result<u128, SolverError> {
        Ok(self.value_with_model(pool, constraints, e)?.0)
    }

    /// [`SolverChain::value`] with the model of the related constraints it was read from
    /// (None if `e` is a constant).
    pub fn value_with_model(
        &mut self,
        pool: &mut ExprPool,
        constraints: &[ExprId],
        e: ExprId,
    ) -> Result<(u128, Option<Assignment>), SolverError> {
        if let Some(v) = pool.as_const(e) {
            return Ok((v, None));
        }
        let query = self.related(pool, constraints, &[e]);
        match self.check(pool, &query)? {
            SatResult::Sat(model) => Ok((pool.eval(e, &model), Some(model))),
            SatResult::Unsat => Err(infeasible()),
        }
    }

    /// The time no Z3 check runs past (see [`SolverChain::set_deadline`]).
    pub fn deadline(&self) -> Option<std::time::Instant> {
        self.deadline.get()
    }
}

impl Solver for SolverChain {
    /// Runs `constraints` through the whole chain.
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        if self.pool_uid != Some(pool.uid()) {
            if self.pool_uid.is_some() {
                self.elems = SharedElements::default();
                self.solver = layers(&self.config, &self.stats, &self.elems, &self.deadline);
            }
            self.pool_uid = Some(pool.uid());
        }
        self.stats.borrow_mut().queries += 1;
        if self
            .deadline
            .get()
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            // Past the deadline no layer works either: the query is a timeout at once.
            return Err(SolverError::Timeout);
        }
        self.solver.check(pool, constraints)
    }
}
