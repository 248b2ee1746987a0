//! Layer 4: the counterexample cache. Reuses recent models that happen to satisfy a new
//! query and recognises supersets of known-unsatisfiable constraint sets.

use crate::solver::restrict;
use crate::stats::SharedStats;
use crate::z3_backend::SharedDeadline;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, CompiledQuery, Evaluator, ExprId, ExprPool};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// Recent models tried on each query.
const MODELS: usize = 64;
/// Known-unsatisfiable constraint sets kept.
const UNSAT_SETS: usize = 256;

/// Answers from recent models and known-unsat sets before asking `inner`.
pub(crate) struct CexCache {
    inner: Box<dyn Solver>,
    /// Most recently useful first.
    models: VecDeque<Assignment>,
    /// Oldest first.
    unsat: VecDeque<Box<[ExprId]>>,
    stats: SharedStats,
    /// No model is tried past it (a model of a large query can take long to evaluate).
    deadline: SharedDeadline,
}

impl CexCache {
    /// The layer in front of `inner`, trying no model past `deadline`.
    pub(crate) fn new(
        inner: Box<dyn Solver>,
        stats: SharedStats,
        deadline: SharedDeadline,
    ) -> Self {
        CexCache {
            inner,
            models: VecDeque::new(),
            unsat: VecDeque::new(),
            stats,
            deadline,
        }
    }

    /// Whether some known-unsat set is contained in `constraints`.
    fn known_unsat(&self, constraints: &[ExprId]) -> bool {
        if self.unsat.is_empty() {
            return false;
        }
        let query: FxHashSet<ExprId> = constraints.iter().copied().collect();
        self.unsat
            .iter()
            .any(|set| set.iter().all(|c| query.contains(c)))
    }

    /// The position of a recent model satisfying all `constraints`.
    fn satisfying_model(&self, pool: &ExprPool, constraints: &[ExprId]) -> Option<usize> {
        if self.models.is_empty() {
            return None;
        }
        // Newer (higher-id) constraints are the likeliest to fail: try them first.
        let mut order = constraints.to_vec();
        order.sort_unstable_by(|a, b| b.cmp(a));
        let deadline = self.deadline.get();
        let mut models = self
            .models
            .iter()
            .take_while(|_| deadline.is_none_or(|d| std::time::Instant::now() < d));
        // Compiled once, the query runs on each model far faster than a walk of its
        // expressions per model; a query that does not compile is walked.
        match CompiledQuery::compile(pool, &order) {
            Some(query) => {
                let mut scratch = query.scratch();
                models.position(|m| query.holds(&query.input_of(m), &mut scratch))
            }
            None => models.position(|m| {
                let mut ev = Evaluator::new(pool, m);
                order.iter().all(|&c| ev.eval(c) == 1)
            }),
        }
    }
}

impl Solver for CexCache {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        if self.known_unsat(constraints) {
            self.stats.borrow_mut().cache_hits += 1;
            return Ok(SatResult::Unsat);
        }
        if let Some(i) = self.satisfying_model(pool, constraints) {
            self.stats.borrow_mut().cache_hits += 1;
            let model = self.models.remove(i).expect("index from position");
            let answer = restrict(pool, &model, constraints);
            self.models.push_front(model);
            return Ok(SatResult::Sat(answer));
        }
        let answer = self.inner.check(pool, constraints)?;
        match &answer {
            SatResult::Sat(model) => {
                self.models.push_front(model.clone());
                self.models.truncate(MODELS);
            }
            SatResult::Unsat => {
                if self.unsat.len() == UNSAT_SETS {
                    self.unsat.pop_front();
                }
                self.unsat.push_back(constraints.into());
            }
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};

    #[test]
    fn supersets_of_unsat_sets_are_unsat() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let (_, y) = var(&mut p, "y", 1);
        let c3 = p.constant(3, 8);
        let (a, b) = (p.ult(x, c3), p.ult(y, c3));
        let stats = SharedStats::default();
        let (rec, log) = Recorder::new(false);
        let mut cc = CexCache::new(Box::new(rec), stats.clone(), SharedDeadline::default());
        assert_eq!(cc.check(&p, &[a]), Ok(SatResult::Unsat));
        assert_eq!(cc.check(&p, &[b, a]), Ok(SatResult::Unsat));
        assert_eq!(log.borrow().len(), 1);
        assert_eq!(stats.borrow().cache_hits, 1);
        cc.check(&p, &[b]).unwrap();
        assert_eq!(
            log.borrow().len(),
            2,
            "a subset of an unsat set is not known"
        );
    }

    /// A query with a value wider than 64 bits does not compile: its models are tried by
    /// walking its expressions, with the same answers.
    #[test]
    fn reuses_models_for_queries_that_do_not_compile() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let (_, wide) = var(&mut p, "w", 16);
        let c3 = p.constant(3, 8);
        let small = p.ult(x, c3);
        let (five, zero) = (p.constant(5, 128), p.constant(0, 128));
        let (not_five, nonzero) = (p.ne(wide, five), p.ne(wide, zero));
        assert!(CompiledQuery::compile(&p, &[not_five]).is_none());
        let stats = SharedStats::default();
        let (rec, log) = Recorder::new(true);
        let mut cc = CexCache::new(Box::new(rec), stats.clone(), SharedDeadline::default());
        cc.check(&p, &[small]).unwrap();
        assert!(matches!(
            cc.check(&p, &[small, not_five]),
            Ok(SatResult::Sat(_))
        ));
        assert_eq!(
            stats.borrow().cache_hits,
            1,
            "the all-zero model has w = 0, not 5"
        );
        cc.check(&p, &[nonzero]).unwrap();
        assert_eq!(log.borrow().len(), 2, "no model has w nonzero");
    }

    #[test]
    fn reuses_a_model_satisfying_the_query() {
        let mut p = ExprPool::new();
        let (ax, x) = var(&mut p, "x", 1);
        let (ay, y) = var(&mut p, "y", 1);
        let c3 = p.constant(3, 8);
        let (a, b) = (p.ult(x, c3), p.ult(y, c3));
        let nb = p.not(b);
        let stats = SharedStats::default();
        // the recorder's all-zero models satisfy x < 3 and y < 3 but not !(y < 3)
        let (rec, log) = Recorder::new(true);
        let mut cc = CexCache::new(Box::new(rec), stats.clone(), SharedDeadline::default());
        cc.check(&p, &[a]).unwrap();
        let SatResult::Sat(m) = cc.check(&p, &[b]).unwrap() else {
            panic!("expected sat")
        };
        assert_eq!(log.borrow().len(), 1);
        assert_eq!(
            m.get(ay),
            Some(&[0u8][..]),
            "model completed to the query arrays"
        );
        assert_eq!(m.get(ax), None, "and cut down to them");
        cc.check(&p, &[a, nb]).unwrap();
        assert_eq!(log.borrow().len(), 2);
        assert_eq!(stats.borrow().cache_hits, 1);
    }
}
