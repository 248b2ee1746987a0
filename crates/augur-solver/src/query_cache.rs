//! Layer 3: remembers the answer for every constraint set seen.

use crate::stats::SharedStats;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{ExprId, ExprPool};
use rustc_hash::FxHashMap;

/// Entries kept before the cache is flushed (bounds memory on long runs).
const CAPACITY: usize = 1 << 16;

/// Answers repeated queries from a map keyed by the sorted, deduplicated constraint set;
/// passes that normalised set on to `inner`.
pub(crate) struct QueryCache {
    inner: Box<dyn Solver>,
    answers: FxHashMap<Box<[ExprId]>, SatResult>,
    stats: SharedStats,
}

impl QueryCache {
    /// The layer in front of `inner`.
    pub(crate) fn new(inner: Box<dyn Solver>, stats: SharedStats) -> Self {
        QueryCache {
            inner,
            answers: FxHashMap::default(),
            stats,
        }
    }
}

impl Solver for QueryCache {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let mut key = constraints.to_vec();
        key.sort_unstable();
        key.dedup();
        if let Some(answer) = self.answers.get(key.as_slice()) {
            self.stats.borrow_mut().cache_hits += 1;
            return Ok(answer.clone());
        }
        let answer = self.inner.check(pool, &key)?;
        if self.answers.len() >= CAPACITY {
            self.answers.clear();
        }
        self.answers.insert(key.into(), answer.clone());
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};

    #[test]
    fn repeated_sets_hit_in_any_order() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let c3 = p.constant(3, 8);
        let c9 = p.constant(9, 8);
        let (a, b) = (p.ult(x, c9), p.ult(c3, x));
        let stats = SharedStats::default();
        let (rec, log) = Recorder::new(true);
        let mut qc = QueryCache::new(Box::new(rec), stats.clone());
        let first = qc.check(&p, &[b, a]).unwrap();
        assert_eq!(qc.check(&p, &[a, b, a]).unwrap(), first);
        assert_eq!(stats.borrow().cache_hits, 1);
        assert_eq!(*log.borrow(), [vec![a.min(b), a.max(b)]]);
        qc.check(&p, &[a]).unwrap();
        assert_eq!(log.borrow().len(), 2);
    }
}
