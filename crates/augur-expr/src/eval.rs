//! Evaluation of expressions under an [`Assignment`], iteratively so deep expressions
//! cannot overflow the stack.

use crate::bits::{fold_bin, fold_cmp, mask, sign_extend};
use crate::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv, fold_fp_sqrt};
use crate::{Assignment, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;

/// Evaluates expressions of one pool under one assignment, memoising every node value so
/// several expressions sharing subterms (e.g. a constraint set) are evaluated once.
pub struct Evaluator<'a> {
    pool: &'a ExprPool,
    assignment: &'a Assignment,
    memo: FxHashMap<ExprId, u128>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator with an empty memo.
    pub fn new(pool: &'a ExprPool, assignment: &'a Assignment) -> Self {
        Evaluator {
            pool,
            assignment,
            memo: FxHashMap::default(),
        }
    }

    /// The value of `e` (0 for array-sorted expressions, which have no scalar value).
    pub fn eval(&mut self, e: ExprId) -> u128 {
        if let Some(&v) = self.memo.get(&e) {
            return v;
        }
        let order = self.pool.post_order(&[e], |n| self.memo.contains_key(&n));
        for n in order {
            let v = self.node(n);
            self.memo.insert(n, v);
        }
        self.memo[&e]
    }

    /// The value of node `n` whose children are all memoised.
    fn node(&self, n: ExprId) -> u128 {
        let p = self.pool;
        let v = |e: ExprId| self.memo[&e];
        match *p.kind(n) {
            ExprKind::Const { value, .. } => value,
            ExprKind::Select { array, index } => self.select(array, v(index)),
            ExprKind::ArraySym(_) | ExprKind::ArrayConst(_) | ExprKind::Store { .. } => 0,
            ExprKind::Ite { cond, then, els } => v(if v(cond) == 1 { then } else { els }),
            ExprKind::Concat { hi, lo } => (v(hi) << p.width(lo)) | v(lo),
            ExprKind::Extract { expr, lo, width } => (v(expr) >> lo) & mask(width),
            ExprKind::ZExt { expr, .. } => v(expr),
            ExprKind::SExt { expr, width } => sign_extend(v(expr), p.width(expr), width),
            ExprKind::Not(e) => !v(e) & mask(p.width(e)),
            ExprKind::Bin { ref op, lhs, rhs } => fold_bin(op, v(lhs), v(rhs), p.width(lhs)),
            ExprKind::Cmp { ref op, lhs, rhs } => {
                u128::from(fold_cmp(op, v(lhs), v(rhs), p.width(lhs)))
            }
            ExprKind::FpBin { op, lhs, rhs } => fold_fp_bin(op, v(lhs), v(rhs), p.width(lhs)),
            ExprKind::FpCmp { op, lhs, rhs } => {
                u128::from(fold_fp_cmp(op, v(lhs), v(rhs), p.width(lhs)))
            }
            ExprKind::FpSqrt(e) => fold_fp_sqrt(v(e), p.width(e)),
            ExprKind::FpConv { op, expr, width } => fold_fp_conv(op, v(expr), p.width(expr), width),
        }
    }

    /// The byte of array-sorted `array` at index value `i` (store chains are memoised).
    fn select(&self, mut array: ExprId, i: u128) -> u128 {
        loop {
            match self.pool.kind(array) {
                ExprKind::Store {
                    array: inner,
                    index,
                    value,
                } => {
                    if self.memo[index] == i {
                        return self.memo[value];
                    }
                    array = *inner;
                }
                ExprKind::ArraySym(a) => return u128::from(self.assignment.byte(*a, i)),
                ExprKind::ArrayConst(bytes) => {
                    let byte = usize::try_from(i).ok().and_then(|i| bytes.get(i));
                    return u128::from(byte.copied().unwrap_or(0));
                }
                k => unreachable!("select from a non-array {k:?}"),
            }
        }
    }
}

impl ExprPool {
    /// The value of `e` under `a` (arrays missing from `a` read as 0).
    pub fn eval(&self, e: ExprId, a: &Assignment) -> u128 {
        Evaluator::new(self, a).eval(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BinOp, CmpOp};

    #[test]
    fn reads_assigned_bytes_through_stores() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 2);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let i1 = p.constant(1, 64);
        let b0 = p.select(arr, i0);
        let sym_i = p.zext(b0, 64);
        let v = p.constant(42, 8);
        let st = p.store(arr, sym_i, v);
        let r1 = p.raw(ExprKind::Select {
            array: st,
            index: i1,
        });
        let mut a = Assignment::default();
        a.set(x, vec![0, 9]);
        assert_eq!(p.eval(r1, &a), 9);
        a.set(x, vec![1, 9]);
        assert_eq!(p.eval(r1, &a), 42);
        assert_eq!(p.eval(b0, &Assignment::default()), 0);
    }

    #[test]
    fn deep_expressions_do_not_overflow_the_stack() {
        let run = || {
            let mut p = ExprPool::new();
            let x = p.new_array("x", 1);
            let arr = p.array_sym(x);
            let i0 = p.constant(0, 64);
            let b = p.select(arr, i0);
            let mut e = p.zext(b, 32);
            let one = p.constant(1, 32);
            for _ in 0..200_000 {
                e = p.raw(ExprKind::Bin {
                    op: BinOp::Add,
                    lhs: e,
                    rhs: one,
                });
            }
            let mut a = Assignment::default();
            a.set(x, vec![5]);
            p.eval(e, &a)
        };
        let v = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(v, 200_005);
    }

    #[test]
    fn evaluator_memoises_across_calls() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 1);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let c = p.constant(3, 8);
        let lt = p.raw(ExprKind::Cmp {
            op: CmpOp::Ult,
            lhs: b,
            rhs: c,
        });
        let sum = p.add(b, c);
        let mut a = Assignment::default();
        a.set(x, vec![2]);
        let mut ev = Evaluator::new(&p, &a);
        assert_eq!(ev.eval(lt), 1);
        assert_eq!(ev.eval(sum), 5);
        assert_eq!(ev.eval(arr), 0);
    }
}
