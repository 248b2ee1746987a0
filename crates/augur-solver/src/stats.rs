//! Counters of the solver chain, shared by all layers.

use std::cell::RefCell;
use std::rc::Rc;

/// What the solver chain did so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverStats {
    /// Satisfiability queries entering the chain.
    pub queries: u64,
    /// Queries that reached Z3.
    pub solver_calls: u64,
    /// Queries answered by the query cache or the counterexample cache.
    pub cache_hits: u64,
    /// Queries decided by the fast path (constant constraints).
    pub fast_path: u64,
    /// Queries the order layer found unsatisfiable (contradicting comparisons).
    pub order_unsat: u64,
    /// Queries over at most two input bytes decided by trying every value of them.
    pub exhaustive: u64,
    /// Wall time spent in Z3, in seconds.
    pub time_s: f64,
    /// Queries Z3 had not answered in its first try whose model a model search found.
    pub sampled: u64,
    /// Z3 calls that ran out of time.
    pub timeouts: u64,
    /// Z3 checks that kept on past their time limit, deaf to Z3's timeout and to
    /// interrupts, left on a thread of their own (each also counted in `timeouts`).
    pub abandoned: u64,
    /// Z3 answers whose model violated the query (each asked again of a fresh solver);
    /// always 0 unless Z3 misbehaves.
    pub wrong_models: u64,
    /// Answers checked by the cross-check (when it is on).
    pub cross_checks: u64,
    /// Answers the cross-check found wrong (a wrong verdict or a model violating the
    /// constraints); always 0 unless a layer has a bug.
    pub cross_check_mismatches: u64,
}

/// The counters as shared between the layers of one chain.
pub(crate) type SharedStats = Rc<RefCell<SolverStats>>;
