//! Copying expressions from one run's pool into another pool, symbolic arrays matched
//! by name: both programs read the same input objects (`arg00`, `stdin`, ...), so their
//! constraints can be compared in one pool.

use augur_expr::{ArrayId, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;

/// Copies expressions of `from` into a target pool, remembering what it copied.
pub struct Importer<'a> {
    from: &'a ExprPool,
    done: FxHashMap<ExprId, ExprId>,
}

/// The array named like `a` of `from` in `to` (declared there if missing).
fn array_in(from: &ExprPool, to: &mut ExprPool, a: ArrayId) -> ArrayId {
    let name = from.array_name(a);
    (0..to.num_arrays() as u32)
        .map(ArrayId)
        .find(|t| to.array_name(*t) == name)
        .unwrap_or_else(|| to.new_array(name, from.array_size(a)))
}

impl<'a> Importer<'a> {
    /// An importer reading `from`.
    pub fn new(from: &'a ExprPool) -> Self {
        Importer {
            from,
            done: FxHashMap::default(),
        }
    }

    /// `e` (of the source pool) rebuilt in `to`.
    pub fn import(&mut self, to: &mut ExprPool, e: ExprId) -> ExprId {
        let order = self.from.post_order(&[e], |n| self.done.contains_key(&n));
        for n in order {
            let m = |c: &ExprId| self.done[c];
            let copy = match self.from.kind(n).clone() {
                ExprKind::Const { width, value } => to.constant(value, width),
                ExprKind::ArraySym(a) => {
                    let t = array_in(self.from, to, a);
                    to.array_sym(t)
                }
                ExprKind::ArrayConst(bytes) => to.array_const(&bytes),
                ExprKind::Select { array, index } => to.select(m(&array), m(&index)),
                ExprKind::Store {
                    array,
                    index,
                    value,
                } => to.store(m(&array), m(&index), m(&value)),
                ExprKind::Ite { cond, then, els } => to.ite(m(&cond), m(&then), m(&els)),
                ExprKind::Concat { hi, lo } => to.concat(m(&hi), m(&lo)),
                ExprKind::Extract { expr, lo, width } => to.extract(m(&expr), lo, width),
                ExprKind::ZExt { expr, width } => to.zext(m(&expr), width),
                ExprKind::SExt { expr, width } => to.sext(m(&expr), width),
                ExprKind::Not(x) => to.not(m(&x)),
                ExprKind::Bin { op, lhs, rhs } => to.bin(op, m(&lhs), m(&rhs)),
                ExprKind::Cmp { op, lhs, rhs } => to.cmp(op, m(&lhs), m(&rhs)),
                ExprKind::FpBin { op, lhs, rhs } => to.fp_bin(op, m(&lhs), m(&rhs)),
                ExprKind::FpCmp { op, lhs, rhs } => to.fp_cmp(op, m(&lhs), m(&rhs)),
                ExprKind::FpSqrt(x) => to.fp_sqrt(m(&x)),
                ExprKind::FpConv { op, expr, width } => to.fp_conv(op, m(&expr), width),
            };
            self.done.insert(n, copy);
        }
        self.done[&e]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_are_matched_by_name() {
        let mut a = ExprPool::new();
        let x = a.new_array("arg00", 3);
        let xs = a.array_sym(x);
        let i = a.constant(1, 64);
        let b1 = a.select(xs, i);
        let k = a.constant(112, 8);
        let eq = a.eq(b1, k);

        let mut b = ExprPool::new();
        b.new_array("stdin", 4);
        let y = b.new_array("arg00", 3);
        let ys = b.array_sym(y);
        let j = b.constant(1, 64);
        let c1 = b.select(ys, j);
        let k2 = b.constant(112, 8);
        let want = b.eq(c1, k2);

        let got = Importer::new(&a).import(&mut b, eq);
        assert_eq!(got, want);
        assert_eq!(b.num_arrays(), 2);
    }
}
