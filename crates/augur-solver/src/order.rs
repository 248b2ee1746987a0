//! The order layer (between the query cache and the counterexample cache). Finds constraint sets that are unsatisfiable because their
//! comparisons contradict each other as orders, without asking Z3: `x < y`, `y <= z`,
//! `!(x < z)` in the signed (or in the unsigned) order, or `x == y`, `y == z`, `x != z`.
//! Such sets are what path conditions over sorted or searched data look like (a program
//! that sorts, then asserts the order, asks about comparisons its branches already imply),
//! and Z3 takes milliseconds to refute each of them.
//!
//! Each comparison of bit-vector terms (a constraint or, through `!`, `&&` and `||`, part
//! of one) gives steps `a <= b` or `a < b` of the signed or the unsigned order; an equality
//! gives steps both ways in both orders. The set is contradictory when some cycle of steps
//! contains a strict one (every term on a cycle of `<=` is equal to the others, bit-vector
//! orders being total), or when two terms that must differ lie on one cycle. Constants take
//! part with their values (consecutive constants of a width get a strict step). Anything
//! else passes on: the layer only ever answers Unsat, and only with a proof.

use crate::stats::SharedStats;
use crate::{SatResult, Solver, SolverError};
use augur_expr::bits::mask;
use augur_expr::{BinOp, CmpOp, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;

/// Answers Unsat for constraint sets whose comparisons contradict each other; passes the
/// rest on to `inner`.
pub(crate) struct OrderLayer {
    inner: Box<dyn Solver>,
    stats: SharedStats,
}

impl OrderLayer {
    /// The layer in front of `inner`.
    pub(crate) fn new(inner: Box<dyn Solver>, stats: SharedStats) -> Self {
        OrderLayer { inner, stats }
    }
}

impl Solver for OrderLayer {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        if contradictory(pool, constraints) {
            self.stats.borrow_mut().order_unsat += 1;
            return Ok(SatResult::Unsat);
        }
        self.inner.check(pool, constraints)
    }
}

/// One of the two orders of bit-vectors.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Order {
    Unsigned,
    Signed,
}

/// What a constraint set says about the order of its terms.
#[derive(Default)]
struct Facts {
    /// `(order, lo, hi, strict)`: `lo < hi` (strict) or `lo <= hi` in `order`.
    steps: Vec<(Order, ExprId, ExprId, bool)>,
    /// Pairs of terms that differ.
    differ: Vec<(ExprId, ExprId)>,
}

impl Facts {
    /// Everything the comparisons in `constraints` say.
    fn of(pool: &ExprPool, constraints: &[ExprId]) -> Self {
        let mut facts = Facts::default();
        for &c in constraints {
            facts.add(pool, c, true);
        }
        facts
    }

    /// The facts of the width-1 expression `e` having the value `holds`.
    fn add(&mut self, pool: &ExprPool, e: ExprId, holds: bool) {
        match *pool.kind(e) {
            ExprKind::Not(x) => self.add(pool, x, !holds),
            ExprKind::Bin { ref op, lhs, rhs }
                if pool.width(e) == 1
                    && matches!((op, holds), (BinOp::And, true) | (BinOp::Or, false)) =>
            {
                self.add(pool, lhs, holds);
                self.add(pool, rhs, holds);
            }
            ExprKind::Cmp { ref op, lhs, rhs } if pool.width(lhs) > 1 => {
                self.compare(op, lhs, rhs, holds)
            }
            _ => {}
        }
    }

    /// The facts of `lhs op rhs` having the value `holds`.
    fn compare(&mut self, op: &CmpOp, lhs: ExprId, rhs: ExprId, holds: bool) {
        let (order, strict) = match op {
            CmpOp::Eq if holds => {
                for order in [Order::Unsigned, Order::Signed] {
                    self.steps.push((order, lhs, rhs, false));
                    self.steps.push((order, rhs, lhs, false));
                }
                return;
            }
            CmpOp::Eq => {
                self.differ.push((lhs, rhs));
                return;
            }
            CmpOp::Ult => (Order::Unsigned, true),
            CmpOp::Ule => (Order::Unsigned, false),
            CmpOp::Slt => (Order::Signed, true),
            CmpOp::Sle => (Order::Signed, false),
        };
        // !(a < b) is b <= a, and !(a <= b) is b < a.
        if holds {
            self.steps.push((order, lhs, rhs, strict));
        } else {
            self.steps.push((order, rhs, lhs, !strict));
        }
    }

    /// Whether the steps of `order` (and the pairs that differ) contradict each other.
    fn contradict(&self, pool: &ExprPool, order: Order) -> bool {
        let mut graph = Graph::default();
        let mut steps: Vec<(usize, usize, bool)> = Vec::new();
        for &(o, lo, hi, strict) in &self.steps {
            if o == order {
                steps.push((graph.node(lo), graph.node(hi), strict));
            }
        }
        if steps.is_empty() {
            return false;
        }
        steps.extend(constant_steps(pool, order, &mut graph));
        let mut edges = vec![Vec::new(); graph.terms.len()];
        for &(lo, hi, _) in &steps {
            edges[lo].push(hi);
        }
        let component = components(&edges);
        let same = |a: usize, b: usize| component[a] == component[b];
        steps.iter().any(|&(lo, hi, strict)| strict && same(lo, hi))
            || self.differ.iter().any(|(a, b)| {
                matches!((graph.index.get(a), graph.index.get(b)), (Some(&a), Some(&b)) if same(a, b))
            })
    }
}

/// The terms of one order's steps, numbered.
#[derive(Default)]
struct Graph {
    index: FxHashMap<ExprId, usize>,
    terms: Vec<ExprId>,
}

impl Graph {
    /// The number of `term`, numbering it if new.
    fn node(&mut self, term: ExprId) -> usize {
        let next = self.terms.len();
        let n = *self.index.entry(term).or_insert(next);
        if n == next {
            self.terms.push(term);
        }
        n
    }
}

/// Strict steps between consecutive constants of each width among the terms of `graph`,
/// ordered by their values in `order`.
fn constant_steps(pool: &ExprPool, order: Order, graph: &mut Graph) -> Vec<(usize, usize, bool)> {
    // Signed values compare as unsigned ones with the sign bit flipped.
    let mut constants: Vec<(u32, u128, usize)> = graph
        .terms
        .iter()
        .enumerate()
        .filter_map(|(n, &t)| {
            let value = pool.as_const(t)?;
            let w = pool.width(t);
            let key = match order {
                Order::Unsigned => value,
                Order::Signed => (value ^ (1 << (w - 1))) & mask(w),
            };
            Some((w, key, n))
        })
        .collect();
    constants.sort_unstable();
    constants
        .windows(2)
        .filter(|pair| pair[0].0 == pair[1].0 && pair[0].1 < pair[1].1)
        .map(|pair| (pair[0].2, pair[1].2, true))
        .collect()
}

/// The strongly connected component of each node of the graph with adjacency lists `edges`
/// (Tarjan's algorithm, iterative).
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut index, mut low, mut component) = (vec![UNSEEN; n], vec![0; n], vec![UNSEEN; n]);
    let (mut stack, mut calls) = (Vec::new(), Vec::new());
    let (mut next, mut found) = (0, 0);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        calls.push((root, 0));
        while let Some(&(v, i)) = calls.last() {
            if let Some(&w) = edges[v].get(i) {
                calls.last_mut().expect("a call").1 += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    calls.push((w, 0));
                } else if component[w] == UNSEEN {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    component[w] = found;
                    if w == v {
                        break;
                    }
                }
                found += 1;
            }
        }
    }
    component
}

/// Whether the comparisons in `constraints` contradict each other as orders.
pub(crate) fn contradictory(pool: &ExprPool, constraints: &[ExprId]) -> bool {
    let facts = Facts::of(pool, constraints);
    !facts.steps.is_empty()
        && [Order::Unsigned, Order::Signed]
            .into_iter()
            .any(|order| facts.contradict(pool, order))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::SharedStats;
    use crate::test_util::{var, Recorder, Rng};
    use crate::z3_backend::Z3Backend;

    /// Three 2-byte inputs.
    fn xyz() -> (ExprPool, [ExprId; 3]) {
        let mut p = ExprPool::new();
        let vars = ["x", "y", "z"].map(|n| var(&mut p, n, 2).1);
        (p, vars)
    }

    #[test]
    fn components_are_the_cycles() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3, 3 -> 4 -> 3, 5 alone
        let edges = vec![vec![1], vec![2], vec![0, 3], vec![4], vec![3], vec![]];
        let c = components(&edges);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] == c[4] && c[3] != c[0]);
        assert!(c[5] != c[0] && c[5] != c[3]);
    }

    #[test]
    fn implied_comparisons_are_refuted() {
        let (mut p, [x, y, z]) = xyz();
        let (xy, yz, xz) = (p.slt(x, y), p.sle(y, z), p.slt(x, z));
        let not_xz = p.not(xz);
        assert!(contradictory(&p, &[xy, yz, not_xz]), "x < y <= z <= x");
        assert!(!contradictory(&p, &[xy, yz, xz]));
        // the sort's shape: !(a > k) refutes a <= k's negation
        let (gt, le) = (p.sgt(x, y), p.sle(x, y));
        let (not_gt, not_le) = (p.not(gt), p.not(le));
        assert!(contradictory(&p, &[not_gt, not_le]));
        assert!(!contradictory(&p, &[gt, not_le]));
        // conjunctions and negated disjunctions are taken apart
        let both = p.bool_and(xy, gt);
        assert!(contradictory(&p, &[both]));
        let either = p.bool_or(not_gt, le);
        let neither = p.not(either);
        assert!(!contradictory(&p, &[neither]));
        assert!(contradictory(&p, &[neither, le]));
    }

    #[test]
    fn the_orders_are_kept_apart() {
        let (mut p, [x, y, _]) = xyz();
        // x = 0xffff, y = 0: x <s y and y <u x
        let (s, u) = (p.slt(x, y), p.ult(y, x));
        assert!(!contradictory(&p, &[s, u]));
        let u2 = p.ult(x, y);
        assert!(contradictory(&p, &[u2, u]));
    }

    #[test]
    fn equalities_and_differences() {
        let (mut p, [x, y, z]) = xyz();
        let (xy, yz, xz) = (p.eq(x, y), p.eq(y, z), p.eq(x, z));
        let not_xz = p.not(xz);
        assert!(contradictory(&p, &[xy, yz, not_xz]));
        assert!(!contradictory(&p, &[xy, not_xz]));
        let lt = p.ult(y, z);
        assert!(contradictory(&p, &[xy, xz, lt]));
    }

    #[test]
    fn constants_are_ordered_by_value() {
        let (mut p, [x, _, _]) = xyz();
        let k = |p: &mut ExprPool, v| p.constant(v, 16);
        let (k5, k10, minus1, k0) = (k(&mut p, 5), k(&mut p, 10), k(&mut p, 0xffff), k(&mut p, 0));
        let (below5, above10) = (p.ult(x, k5), p.ult(k10, x));
        assert!(contradictory(&p, &[below5, above10]));
        // signed: x < -1 and 0 < x contradict; unsigned, x < 0xffff and 0 < x do not
        let (s_below, s_above) = (p.slt(x, minus1), p.slt(k0, x));
        assert!(contradictory(&p, &[s_below, s_above]));
        let (u_below, u_above) = (p.ult(x, minus1), p.ult(k0, x));
        assert!(!contradictory(&p, &[u_below, u_above]));
    }

    #[test]
    fn only_contradictions_stay_away_from_z3() {
        let (mut p, [x, y, _]) = xyz();
        let (lt, gt) = (p.slt(x, y), p.sgt(x, y));
        let stats = SharedStats::default();
        let (rec, log) = Recorder::new(true);
        let mut layer = OrderLayer::new(Box::new(rec), stats.clone());
        assert_eq!(layer.check(&p, &[lt, gt]), Ok(SatResult::Unsat));
        assert!(log.borrow().is_empty());
        assert_eq!(stats.borrow().order_unsat, 1);
        assert!(matches!(layer.check(&p, &[lt]), Ok(SatResult::Sat(_))));
        assert_eq!(*log.borrow(), [vec![lt]]);
    }

    /// Random comparison sets over three 1-byte inputs and a few constants: every set the
    /// layer refutes, Z3 refutes too, and the layer refutes some.
    #[test]
    fn refutations_agree_with_z3() {
        let mut p = ExprPool::new();
        let mut terms: Vec<ExprId> = ["a", "b", "c"].map(|n| var(&mut p, n, 1).1).to_vec();
        terms.extend([0, 0x7f, 0xff].map(|v| p.constant(v, 8)));
        let mut rng = Rng::new(0x5eed_0f0d_e125_7a11);
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        let mut refuted = 0;
        for _ in 0..600 {
            let n = 2 + rng.next_u64() % 5;
            let set: Vec<ExprId> = (0..n)
                .map(|_| {
                    let pick =
                        |rng: &mut Rng| terms[(rng.next_u64() % terms.len() as u64) as usize];
                    let (l, r) = (pick(&mut rng), pick(&mut rng));
                    let op = CmpOp::ALL[(rng.next_u64() % 5) as usize].clone();
                    let c = p.cmp(op, l, r);
                    if rng.next_u64().is_multiple_of(2) {
                        p.not(c)
                    } else {
                        c
                    }
                })
                .collect();
            if contradictory(&p, &set) {
                refuted += 1;
                let shown: Vec<String> = set.iter().map(|&c| p.display(c).to_string()).collect();
                assert_eq!(z3.check(&p, &set), Ok(SatResult::Unsat), "{shown:?}");
            }
        }
        assert!(refuted >= 50, "only {refuted} refuted");
    }
}
