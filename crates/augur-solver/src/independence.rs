//! Layer 2: constraint independence. Constraints over disjoint sets of arrays are solved
//! separately (smaller queries, better cache hit rates) and their models merged; the chain
//! also uses [`relevant`] to drop constraints unrelated to a query expression.

use crate::{SatResult, Solver, SolverError};
use augur_expr::{ArrayId, Assignment, ExprId, ExprPool};
use rustc_hash::FxHashMap;

/// Union-find over the arrays of a set of expressions: two arrays are connected when some
/// expression reads both.
struct ArrayPartition {
    index: FxHashMap<ArrayId, usize>,
    parent: Vec<usize>,
}

impl ArrayPartition {
    /// The partition induced by `exprs`.
    fn new(pool: &ExprPool, exprs: &[ExprId]) -> Self {
        let mut part = ArrayPartition {
            index: FxHashMap::default(),
            parent: Vec::new(),
        };
        for &e in exprs {
            let mut arrays = pool.arrays_of(e).iter();
            if let Some(&first) = arrays.next() {
                let root = part.class(first);
                for &a in arrays {
                    let other = part.class(a);
                    part.parent[other] = root;
                }
            }
        }
        part
    }

    /// The current class of `a`, creating a singleton for an unseen array.
    fn class(&mut self, a: ArrayId) -> usize {
        let next = self.parent.len();
        let i = *self.index.entry(a).or_insert(next);
        if i == next {
            self.parent.push(next);
        }
        self.find(i)
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// The class of expression `e` (None when it reads no array).
    fn class_of(&mut self, pool: &ExprPool, e: ExprId) -> Option<usize> {
        pool.arrays_of(e).first().map(|&a| self.class(a))
    }
}

/// The constraints transitively sharing arrays with `exprs`, in their original order.
pub(crate) fn relevant(pool: &ExprPool, constraints: &[ExprId], exprs: &[ExprId]) -> Vec<ExprId> {
    let all: Vec<ExprId> = constraints.iter().chain(exprs).copied().collect();
    let mut part = ArrayPartition::new(pool, &all);
    let mut wanted: Vec<usize> = exprs
        .iter()
        .filter_map(|&e| part.class_of(pool, e))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    constraints
        .iter()
        .copied()
        .filter(|&c| {
            part.class_of(pool, c)
                .is_some_and(|k| wanted.binary_search(&k).is_ok())
        })
        .collect()
}

/// `constraints` split into groups over pairwise disjoint arrays, in order of first
/// appearance (constraints reading no array form one group).
pub(crate) fn groups(pool: &ExprPool, constraints: &[ExprId]) -> Vec<Vec<ExprId>> {
    let mut part = ArrayPartition::new(pool, constraints);
    let mut slot: FxHashMap<Option<usize>, usize> = FxHashMap::default();
    let mut out: Vec<Vec<ExprId>> = Vec::new();
    for &c in constraints {
        let class = part.class_of(pool, c);
        let next = out.len();
        let i = *slot.entry(class).or_insert(next);
        if i == next {
            out.push(Vec::new());
        }
        out[i].push(c);
    }
    out
}

/// Solves each independent group of a query through `inner` and merges the models.
pub(crate) struct Independence {
    inner: Box<dyn Solver>,
}

impl Independence {
    /// The layer in front of `inner`.
    pub(crate) fn new(inner: Box<dyn Solver>) -> Self {
        Independence { inner }
    }
}

impl Solver for Independence {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let groups = groups(pool, constraints);
        if groups.len() <= 1 {
            return self.inner.check(pool, constraints);
        }
        let mut model = Assignment::default();
        for group in groups {
            match self.inner.check(pool, &group)? {
                SatResult::Unsat => return Ok(SatResult::Unsat),
                SatResult::Sat(m) => model.extend(m),
            }
        }
        Ok(SatResult::Sat(model))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};

    /// Constraints `x < 5`, `y < 5`, `x == z`, `w < 5` over four one-byte inputs.
    fn setup() -> (ExprPool, [ArrayId; 4], [ExprId; 4], [ExprId; 4]) {
        let mut p = ExprPool::new();
        let (ax, x) = var(&mut p, "x", 1);
        let (ay, y) = var(&mut p, "y", 1);
        let (az, z) = var(&mut p, "z", 1);
        let (aw, w) = var(&mut p, "w", 1);
        let five = p.constant(5, 8);
        let cs = [p.ult(x, five), p.ult(y, five), p.eq(x, z), p.ult(w, five)];
        (p, [ax, ay, az, aw], [x, y, z, w], cs)
    }

    #[test]
    fn relevant_follows_shared_arrays_transitively() {
        let (mut p, _, vals, cs) = setup();
        // a query on z reaches x == z and through x also x < 5
        let three = p.constant(3, 8);
        let q = p.eq(vals[2], three);
        assert_eq!(relevant(&p, &cs, &[q]), [cs[0], cs[2]]);
        let t = p.bool_const(true);
        assert!(relevant(&p, &cs, &[t]).is_empty());
        assert_eq!(relevant(&p, &cs, &[cs[1], cs[3]]), [cs[1], cs[3]]);
    }

    #[test]
    fn groups_partition_by_arrays() {
        let (p, _, _, cs) = setup();
        assert_eq!(
            groups(&p, &cs),
            [vec![cs[0], cs[2]], vec![cs[1]], vec![cs[3]]]
        );
    }

    #[test]
    fn solves_groups_separately_and_merges_models() {
        let (p, arrays, _, cs) = setup();
        let (rec, log) = Recorder::new(true);
        let mut ind = Independence::new(Box::new(rec));
        let SatResult::Sat(m) = ind.check(&p, &cs).unwrap() else {
            panic!("expected sat")
        };
        assert_eq!(log.borrow().len(), 3);
        for a in arrays {
            assert_eq!(m.get(a), Some(&[0u8][..]));
        }
        let (rec, log) = Recorder::new(false);
        let mut ind = Independence::new(Box::new(rec));
        assert_eq!(ind.check(&p, &cs), Ok(SatResult::Unsat));
        assert_eq!(log.borrow().len(), 1, "stops at the first unsat group");
        let (rec, log) = Recorder::new(true);
        let mut ind = Independence::new(Box::new(rec));
        ind.check(&p, &[cs[0], cs[2]]).unwrap();
        assert_eq!(*log.borrow(), [vec![cs[0], cs[2]]]);
    }
}
