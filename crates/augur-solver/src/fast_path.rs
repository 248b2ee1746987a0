//! Layer 1: decides queries whose constraints are constants without solving.

use crate::stats::SharedStats;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, ExprId, ExprPool};

/// Drops constant-true constraints, answers Unsat for a constant-false one and Sat for an
/// all-constant list; passes the rest on.
pub(crate) struct FastPath {
    inner: Box<dyn Solver>,
    stats: SharedStats,
}

impl FastPath {
    /// The layer in front of `inner`.
    pub(crate) fn new(inner: Box<dyn Solver>, stats: SharedStats) -> Self {
        FastPath { inner, stats }
    }
}

impl Solver for FastPath {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let constant = |c: &ExprId| pool.as_const(*c).is_some();
        if !constraints.is_empty() && !constraints.iter().any(constant) {
            return self.inner.check(pool, constraints);
        }
        if constraints.iter().any(|&c| pool.as_const(c) == Some(0)) {
            self.stats.borrow_mut().fast_path += 1;
            return Ok(SatResult::Unsat);
        }
        let symbolic: Vec<ExprId> = constraints
            .iter()
            .copied()
            .filter(|c| !constant(c))
            .collect();
        if symbolic.is_empty() {
            self.stats.borrow_mut().fast_path += 1;
            return Ok(SatResult::Sat(Assignment::default()));
        }
        self.inner.check(pool, &symbolic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};

    #[test]
    fn decides_constant_queries() {
        let mut p = ExprPool::new();
        let (t, f) = (p.bool_const(true), p.bool_const(false));
        let (_, b) = var(&mut p, "x", 1);
        let b1 = p.extract(b, 0, 1);
        let stats = SharedStats::default();
        let (rec, log) = Recorder::new(false);
        let mut fp = FastPath::new(Box::new(rec), stats.clone());
        assert_eq!(fp.check(&p, &[t, b1, f]), Ok(SatResult::Unsat));
        assert_eq!(
            fp.check(&p, &[t, t]),
            Ok(SatResult::Sat(Assignment::default()))
        );
        assert_eq!(fp.check(&p, &[]), Ok(SatResult::Sat(Assignment::default())));
        assert_eq!(stats.borrow().fast_path, 3);
        // the symbolic rest goes on, without the constant-true constraint
        assert_eq!(fp.check(&p, &[t, b1]), Ok(SatResult::Unsat));
        assert_eq!(*log.borrow(), [vec![b1]]);
        assert_eq!(stats.borrow().fast_path, 3);
    }
}
