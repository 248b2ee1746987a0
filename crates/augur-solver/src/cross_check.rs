//! The cross-check (a debugging layer, in front of the whole chain when asked for): every
//! answer of the layers behind it is checked against a fresh Z3 solver, with no cache and
//! no incremental state, and every Sat model against the constraints by the evaluator.

use crate::stats::SharedStats;
use crate::z3_backend::limited_solver;
use crate::z3_solver::one_check_at_a_time;
use crate::z3_translate::Translator;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Evaluator, ExprId, ExprPool};
use std::time::Duration;

/// Checks the answers of `inner`, counting checks and disagreements in the stats.
pub(crate) struct CrossCheck {
    inner: Box<dyn Solver>,
    /// Term translations only (not answers), kept across queries.
    translator: Translator,
    timeout: Option<Duration>,
    stats: SharedStats,
}

impl CrossCheck {
    /// The layer in front of `inner`; its own Z3 calls stop after `timeout`.
    pub(crate) fn new(
        inner: Box<dyn Solver>,
        timeout: Option<Duration>,
        stats: SharedStats,
    ) -> Self {
        CrossCheck {
            inner,
            translator: Translator::default(),
            timeout,
            stats,
        }
    }

    /// Z3's own verdict on `constraints`: Some(satisfiable), None if undecided.
    fn z3_verdict(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Option<bool> {
        let solver = limited_solver(self.timeout);
        for &c in constraints {
            solver.assert(self.translator.boolean(pool, c));
        }
        let verdict = {
            let _turn = one_check_at_a_time();
            solver.check()
        };
        match verdict {
            z3::SatResult::Sat => Some(true),
            z3::SatResult::Unsat => Some(false),
            z3::SatResult::Unknown => None,
        }
    }

    /// What is wrong with `answer` to `constraints`, if anything; None also when Z3 could
    /// not decide and there is no model to check.
    fn disagreement(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
        answer: &SatResult,
    ) -> Option<String> {
        let verdict = self.z3_verdict(pool, constraints);
        let model_checked = matches!(answer, SatResult::Sat(_));
        if verdict.is_some() || model_checked {
            self.stats.borrow_mut().cross_checks += 1;
        }
        match (answer, verdict) {
            (SatResult::Unsat, Some(true)) => Some("the chain answered unsat, Z3 sat".into()),
            (SatResult::Sat(_), Some(false)) => Some("the chain answered sat, Z3 unsat".into()),
            (SatResult::Sat(model), _) => {
                let mut ev = Evaluator::new(pool, model);
                let broken = constraints.iter().position(|&c| ev.eval(c) != 1)?;
                Some(format!(
                    "the chain's model violates constraint {} of {}",
                    broken + 1,
                    constraints.len()
                ))
            }
            (SatResult::Unsat, _) => None,
        }
    }
}

impl Solver for CrossCheck {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let answer = self.inner.check(pool, constraints)?;
        if let Some(problem) = self.disagreement(pool, constraints, &answer) {
            self.stats.borrow_mut().cross_check_mismatches += 1;
            tracing::error!(
                "solver cross-check: {problem}; the query:\n{}",
                pool.to_smtlib2(constraints)
            );
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};
    use crate::z3_backend::Z3Backend;

    /// `x == 5`, `x < 3`, `x < 9` over one input byte.
    fn queries() -> (ExprPool, [ExprId; 3]) {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let (k3, k5, k9) = (p.constant(3, 8), p.constant(5, 8), p.constant(9, 8));
        let cs = [p.eq(x, k5), p.ult(x, k3), p.ult(x, k9)];
        (p, cs)
    }

    #[test]
    fn a_truthful_solver_passes() {
        let (p, [five, lt3, lt9]) = queries();
        let stats = SharedStats::default();
        let mut cc = CrossCheck::new(
            Box::new(Z3Backend::new(None, stats.clone())),
            None,
            stats.clone(),
        );
        for q in [vec![five], vec![five, lt3], vec![lt9], vec![]] {
            cc.check(&p, &q).unwrap();
        }
        assert_eq!(stats.borrow().cross_checks, 4);
        assert_eq!(stats.borrow().cross_check_mismatches, 0);
    }

    #[test]
    fn a_lying_solver_is_caught() {
        let (p, [five, lt3, lt9]) = queries();
        let stats = SharedStats::default();
        // Always unsat: wrong for x == 5 and x < 9, right for x == 5 && x < 3.
        let (liar, _) = Recorder::new(false);
        let mut cc = CrossCheck::new(Box::new(liar), None, stats.clone());
        for q in [vec![five], vec![five, lt3], vec![lt9]] {
            assert_eq!(
                cc.check(&p, &q),
                Ok(SatResult::Unsat),
                "answers pass through"
            );
        }
        assert_eq!(stats.borrow().cross_check_mismatches, 2);
        // Always sat with all-zero bytes: wrong for x == 5 (a bad model) and for
        // x == 5 && x < 3 (unsat), right for x < 9.
        let stats = SharedStats::default();
        let (liar, _) = Recorder::new(true);
        let mut cc = CrossCheck::new(Box::new(liar), None, stats.clone());
        for q in [vec![five], vec![five, lt3], vec![lt9]] {
            cc.check(&p, &q).unwrap();
        }
        assert_eq!(stats.borrow().cross_checks, 3);
        assert_eq!(stats.borrow().cross_check_mismatches, 2);
    }
}
