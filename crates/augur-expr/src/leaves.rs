//! If-then-else trees whose leaves are all constants: the value of a small table read at
//! a symbolic index (`states[i]`, a pointer among a few). An operation with a constant
//! applied to such a tree is applied to its leaves instead, so `states[i]->next`'s
//! address is again a tree of constants and its load a tree of the loads at those
//! addresses: a chain of lookups through pointer tables (a regex matcher's states) stays
//! a choice among known values instead of nesting symbolic reads.

use crate::{ExprId, ExprKind, ExprPool};
use rustc_hash::{FxHashMap, FxHashSet};

/// The most if-then-else nodes a tree may have (each counted once, however often the
/// tree uses it) for operations to be applied to its leaves: each such operation builds
/// at most as many nodes.
pub const LEAF_LIMIT: usize = 64;

impl ExprPool {
    /// The distinct constants at the leaves of `e`, in the order first met, when `e` is
    /// an if-then-else whose every leaf is a constant, of at most [`LEAF_LIMIT`] distinct
    /// ite nodes.
    pub fn const_leaves(&self, e: ExprId) -> Option<Vec<u128>> {
        if !matches!(self.kind(e), ExprKind::Ite { .. }) {
            return None;
        }
        self.ite_leaves(e, LEAF_LIMIT)?
            .into_iter()
            .map(|l| self.as_const(l))
            .collect()
    }

    /// The distinct expressions at the leaves of `e` seen as an if-then-else tree, in the
    /// order first met (each node visited once, however the tree shares it), if it has at
    /// most `most_ites` distinct ite nodes; `e` itself when it is not an ite.
    pub(crate) fn ite_leaves(&self, e: ExprId, most_ites: usize) -> Option<Vec<ExprId>> {
        let mut seen = FxHashSet::default();
        let (mut leaves, mut ites) = (Vec::new(), 0);
        let mut todo = vec![e];
        while let Some(x) = todo.pop() {
            if !seen.insert(x) {
                continue;
            }
            match *self.kind(x) {
                ExprKind::Ite { then, els, .. } => {
                    ites += 1;
                    if ites > most_ites {
                        return None;
                    }
                    todo.push(els);
                    todo.push(then);
                }
                _ => leaves.push(x),
            }
        }
        Some(leaves)
    }

    /// `e` with every leaf `c` replaced by `f(c)` (the conditions kept), for a tree that
    /// [`ExprPool::const_leaves`] accepts; each node is rebuilt once, and the rebuilt
    /// ites simplify (equal arms merge).
    pub fn map_const_leaves(
        &mut self,
        e: ExprId,
        f: &mut impl FnMut(&mut ExprPool, u128) -> ExprId,
    ) -> ExprId {
        let mut done = FxHashMap::default();
        self.map_leaves_memo(e, f, &mut done)
    }

    fn map_leaves_memo(
        &mut self,
        e: ExprId,
        f: &mut impl FnMut(&mut ExprPool, u128) -> ExprId,
        done: &mut FxHashMap<ExprId, ExprId>,
    ) -> ExprId {
        if let Some(&m) = done.get(&e) {
            return m;
        }
        let m = match *self.kind(e) {
            ExprKind::Const { value, .. } => f(self, value),
            ExprKind::Ite { cond, then, els } => {
                let t = self.map_leaves_memo(then, f, done);
                let el = self.map_leaves_memo(els, f, done);
                self.ite(cond, t, el)
            }
            _ => unreachable!("map_const_leaves of a tree with a non-constant leaf"),
        };
        done.insert(e, m);
        m
    }

    /// `f` applied to the leaves of `e` if it is a tree of constants (see
    /// [`ExprPool::const_leaves`]), else `None`.
    pub(crate) fn through_leaves(
        &mut self,
        e: ExprId,
        mut f: impl FnMut(&mut ExprPool, u128) -> ExprId,
    ) -> Option<ExprId> {
        self.const_leaves(e)?;
        Some(self.map_const_leaves(e, &mut f))
    }
}

#[cfg(test)]
mod tests {
    use crate::build::tests::setup;
    use crate::{BinOp, CmpOp, ExprKind};

    #[test]
    fn operations_with_constants_apply_to_the_leaves() {
        let (mut p, _, x, _) = setup();
        let c3 = p.constant(3, 8);
        let c5 = p.constant(5, 8);
        let (k10, k20, k30) = (p.constant(10, 64), p.constant(20, 64), p.constant(30, 64));
        let a = p.cmp(CmpOp::Ult, x, c3);
        let b = p.cmp(CmpOp::Ult, x, c5);
        let inner = p.ite(b, k20, k30);
        let tree = p.ite(a, k10, inner);
        assert_eq!(p.const_leaves(tree), Some(vec![10, 20, 30]));
        // tree + 6 is the tree of the sums.
        let six = p.constant(6, 64);
        let sum = p.bin(BinOp::Add, tree, six);
        assert_eq!(p.const_leaves(sum), Some(vec![16, 26, 36]));
        // A comparison every leaf satisfies is true; one leaf's equality is its path.
        let forty = p.constant(40, 64);
        let below = p.cmp(CmpOp::Ult, tree, forty);
        assert_eq!(p.as_const(below), Some(1));
        let twenty = p.constant(20, 64);
        let eq = p.cmp(CmpOp::Eq, tree, twenty);
        let no = p.bool_const(false);
        assert_eq!(eq, p.ite(a, no, b));
        // Extensions apply to the leaves too.
        let narrow = p.ite(a, c3, c5);
        let wide = p.zext(narrow, 32);
        assert!(matches!(p.kind(wide), ExprKind::Ite { .. }));
        assert_eq!(p.const_leaves(wide), Some(vec![3, 5]));
    }

    #[test]
    fn trees_with_other_leaves_or_too_many_are_left_alone() {
        let (mut p, _, x, _) = setup();
        let c3 = p.constant(3, 8);
        let a = p.cmp(CmpOp::Ult, x, c3);
        let mixed = p.ite(a, c3, x);
        assert_eq!(p.const_leaves(mixed), None);
        let one = p.constant(1, 8);
        let sum = p.bin(BinOp::Add, mixed, one);
        assert!(matches!(p.kind(sum), ExprKind::Bin { .. }));
        let mut chain = p.constant(0, 8);
        for k in 0..=super::LEAF_LIMIT as u128 {
            let kc = p.constant(k, 8);
            let hit = p.cmp(CmpOp::Eq, kc, x);
            let v = p.constant(k + 1, 8);
            chain = p.ite(hit, v, chain);
        }
        assert_eq!(p.const_leaves(chain), None);
    }
}
