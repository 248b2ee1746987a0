//! Evaluation of expressions under an [`Assignment`], iteratively so deep expressions
//! cannot overflow the stack.

use crate::bits::{fold_bin, fold_cmp, mask, sign_extend};
use crate::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv, fold_fp_sqrt};
use crate::{Assignment, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;

/// How many stores of a chain a read walks before it looks the byte up in what the chain
/// wrote (most chains are short, and most reads find a recent write).
const WALKED_STORES: usize = 16;

/// The bytes a store chain wrote, by index (an outer store's byte replacing an inner
/// one's), over the chain's base array: a persistent map, so the chains ending at the
/// stores of a long chain that reads look through share their entries.
#[derive(Clone)]
struct Written {
    base: ExprId,
    bytes: imbl::HashMap<u128, u128>,
}

/// Evaluates expressions of one pool under one assignment, memoising every node value so
/// several expressions sharing subterms (e.g. a constraint set) are evaluated once, and
/// the bytes every store chain read from has written, so that a read costs the same
/// whatever the chain's length (a buffer filled byte by byte makes chains of thousands).
pub struct Evaluator<'a> {
    pool: &'a ExprPool,
    assignment: &'a Assignment,
    memo: FxHashMap<ExprId, u128>,
    written: FxHashMap<ExprId, Written>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator with an empty memo.
    pub fn new(pool: &'a ExprPool, assignment: &'a Assignment) -> Self {
        Evaluator {
            pool,
            assignment,
            memo: FxHashMap::default(),
            written: FxHashMap::default(),
        }
    }

    /// The value of `e` (0 for array-sorted expressions, which have no scalar value).
    pub fn eval(&mut self, e: ExprId) -> u128 {
        if let Some(&v) = self.memo.get(&e) {
            return v;
        }
        let order = self.pool.post_order(&[e], |n| self.memo.contains_key(&n));
        for n in order {
            let v = match *self.pool.kind(n) {
                ExprKind::Select { array, index } => {
                    let i = self.memo[&index];
                    self.select(array, i)
                }
                _ => self.node(n),
            };
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
            // Selects are read by `eval` (they need the written bytes of their chains).
            ExprKind::ArraySym(_)
            | ExprKind::ArrayConst(_)
            | ExprKind::Store { .. }
            | ExprKind::Select { .. } => 0,
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

    /// The byte of array-sorted `array` at index value `i`: found by walking the store
    /// chain when it is short, else in the bytes the chain wrote.
    fn select(&mut self, array: ExprId, i: u128) -> u128 {
        let mut at = array;
        for _ in 0..WALKED_STORES {
            match *self.pool.kind(at) {
                ExprKind::Store {
                    array: inner,
                    index,
                    value,
                } => {
                    if self.memo[&index] == i {
                        return self.memo[&value];
                    }
                    at = inner;
                }
                _ => return self.base_byte(at, i),
            }
        }
        let w = self.written(array);
        match w.bytes.get(&i) {
            Some(&b) => b,
            None => {
                let base = w.base;
                self.base_byte(base, i)
            }
        }
    }

    /// The byte of a chain's base array (symbolic or constant) at index value `i`.
    fn base_byte(&self, base: ExprId, i: u128) -> u128 {
        match self.pool.kind(base) {
            ExprKind::ArraySym(a) => u128::from(self.assignment.byte(*a, i)),
            ExprKind::ArrayConst(bytes) => {
                let byte = usize::try_from(i).ok().and_then(|i| bytes.get(i));
                u128::from(byte.copied().unwrap_or(0))
            }
            k => unreachable!("select from a non-array {k:?}"),
        }
    }

    /// The bytes the store chain ending at `top` wrote: those of the nearest chain below it
    /// already read this way (shared, persistent), with the stores above that one added.
    /// (The indices and values of the stores are memoised: they come before the select in
    /// post order.)
    fn written(&mut self, top: ExprId) -> &Written {
        let mut pending = Vec::new();
        let mut at = top;
        let mut below = loop {
            if let Some(w) = self.written.get(&at) {
                break w.clone();
            }
            match *self.pool.kind(at) {
                ExprKind::Store { array, .. } => {
                    pending.push(at);
                    at = array;
                }
                _ => {
                    break Written {
                        base: at,
                        bytes: imbl::HashMap::new(),
                    }
                }
            }
        };
        for &store in pending.iter().rev() {
            let ExprKind::Store { index, value, .. } = *self.pool.kind(store) else {
                unreachable!("a store of the chain")
            };
            below.bytes.insert(self.memo[&index], self.memo[&value]);
        }
        self.written.entry(top).or_insert(below)
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
    fn reads_through_a_long_chain_see_the_outermost_write() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 4);
        let mut arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let sym = p.select(arr, i0);
        // 20,000 stores: every index 0..10,000 written twice, the second time with the
        // first byte of x added; index 10,000 never written.
        for round in 0..2u128 {
            for i in 0..10_000u128 {
                let idx = p.constant(i, 64);
                let byte = p.constant((i + round) % 256, 8);
                let value = if round == 1 {
                    p.bin(BinOp::Add, byte, sym)
                } else {
                    byte
                };
                arr = p.store(arr, idx, value);
            }
        }
        let reads: Vec<ExprId> = [0u128, 4_999, 9_999, 10_000]
            .iter()
            .map(|&i| {
                let idx = p.constant(i, 64);
                p.raw(ExprKind::Select {
                    array: arr,
                    index: idx,
                })
            })
            .collect();
        let mut a = Assignment::default();
        a.set(x, vec![3, 0, 0, 0]);
        let mut ev = Evaluator::new(&p, &a);
        let got: Vec<u128> = reads.iter().map(|&r| ev.eval(r)).collect();
        // (i + 1) % 256 + 3, and index 10,000 reads x's byte there (out of x: 0).
        assert_eq!(got, vec![4, (5_000 % 256) + 3, (10_000 % 256) + 3, 0]);
    }

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
