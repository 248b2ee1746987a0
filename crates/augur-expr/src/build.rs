//! Simplifying builders: every constructor folds constants, orders commutative operands
//! canonically (constant left, otherwise lower id left) and applies cheap identities.

use crate::bits::{fold_bin, fold_cmp, mask, sign_extend};
use crate::{BinOp, CmpOp, ExprId, ExprKind, ExprPool};
use std::sync::Arc;

/// The most stores that may hit a read's index (see [`ExprPool::select`]) made into a
/// choice over their values; past them, the read stays an array `select`.
const MOST_ALIASING_STORES: usize = 8;

/// The most offsets of a constant array a read at a symbolic index looks at for one
/// byte they all hold (see `const_array_byte`).
const MOST_SCANNED_OFFSETS: u64 = 4096;

impl ExprPool {
    /// The `width`-bit constant `value` (masked to `width`).
    pub fn constant(&mut self, value: u128, width: u32) -> ExprId {
        assert!((1..=128).contains(&width), "bad constant width {width}");
        self.raw(ExprKind::Const {
            width,
            value: value & mask(width),
        })
    }

    /// The width-1 constant for `b`.
    pub fn bool_const(&mut self, b: bool) -> ExprId {
        self.constant(u128::from(b), 1)
    }

    /// The array-sorted expression standing for symbolic array `a`.
    pub fn array_sym(&mut self, a: crate::ArrayId) -> ExprId {
        self.raw(ExprKind::ArraySym(a))
    }

    /// A constant array holding `bytes` (and 0 beyond them).
    pub fn array_const(&mut self, bytes: &[u8]) -> ExprId {
        let len = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        self.raw(ExprKind::ArrayConst(Arc::from(&bytes[..len])))
    }

    /// `array` with the byte at the 64-bit `index` set to the 8-bit `value`.
    pub fn store(&mut self, array: ExprId, index: ExprId, value: ExprId) -> ExprId {
        // A store overwriting the previous store to the same index hides it.
        let array = match *self.kind(array) {
            ExprKind::Store {
                array: inner,
                index: i,
                ..
            } if i == index => inner,
            _ => array,
        };
        self.raw(ExprKind::Store {
            array,
            index,
            value,
        })
    }

    /// The byte of `array` at the 64-bit `index`. Reads over writes: the value of a store
    /// to the same index (or to one the bounds show equal); stores to provably different
    /// indices (two constants, or one base plus different constants, as a multi-byte
    /// access at a symbolic offset makes) are looked through. Where the walk ends on a
    /// byte it knows (a constant array's at a constant index, or at a symbolic one whose
    /// offsets all hold one byte, an input byte), the stores that may hit the index (at
    /// most `MOST_ALIASING_STORES`) become a choice: `ite(i == index, v, ...)` down to
    /// that byte, so a read at a known offset of a table written at input-dependent
    /// indices (`mark[c] = i`) needs no array. Otherwise the read is a `select` of the
    /// first store that may hit it.
    pub fn select(&mut self, array: ExprId, index: ExprId) -> ExprId {
        let mut a = array;
        let mut aliasing: Vec<(ExprId, ExprId)> = Vec::new();
        let mut undecided_at = None;
        let known = loop {
            match *self.kind(a) {
                ExprKind::Store {
                    array: inner,
                    index: i,
                    value,
                } => {
                    if i == index {
                        break Some(value);
                    }
                    if !self.indices_differ(i, index) {
                        undecided_at.get_or_insert(a);
                        let hit = self.eq(i, index);
                        match self.as_const(hit) {
                            Some(1) => break Some(value),
                            None if aliasing.len() < MOST_ALIASING_STORES => {
                                aliasing.push((hit, value));
                            }
                            // Past the most aliasing stores, or at a store the bounds
                            // alone tell apart (`hit` folded to false), the walk stops:
                            // reads resolved through the latter led BusyBox bzip2 to
                            // queries Z3 did not finish (722 lines in 60 s before, 387
                            // with).
                            _ => break None,
                        }
                    }
                    a = inner;
                }
                ExprKind::ArrayConst(ref bytes) => {
                    break self.const_array_byte(bytes.clone(), index)
                }
                ExprKind::ArraySym(_) if self.as_const(index).is_some() => {
                    break Some(self.raw(ExprKind::Select { array: a, index }))
                }
                _ => break None,
            }
        };
        match known {
            Some(byte) => aliasing
                .into_iter()
                .rev()
                .fold(byte, |acc, (hit, value)| self.ite(hit, value, acc)),
            None => self.raw(ExprKind::Select {
                array: undecided_at.unwrap_or(a),
                index,
            }),
        }
    }

    /// The byte at `index` of a constant array of `bytes` (0 past them), when the index
    /// decides it: a constant, or one whose offsets ([`ExprPool::index_stride`], at most
    /// `MOST_SCANNED_OFFSETS`) all hold the same byte (the zeroed counts of a table of
    /// structs, read at an input-dependent element).
    fn const_array_byte(&mut self, bytes: Arc<[u8]>, index: ExprId) -> Option<ExprId> {
        let at = |j: u64| {
            usize::try_from(j)
                .ok()
                .and_then(|j| bytes.get(j))
                .copied()
                .unwrap_or(0)
        };
        let byte = match self.as_const(index) {
            Some(j) => at(u64::try_from(j).unwrap_or(u64::MAX)),
            None if bytes.is_empty() => 0,
            None => {
                let stride = self.index_stride(index, u64::MAX);
                if stride.count() > MOST_SCANNED_OFFSETS {
                    return None;
                }
                let mut values = stride.offsets().map(at);
                let first = values.next()?;
                if !values.all(|v| v == first) {
                    return None;
                }
                first
            }
        };
        Some(self.constant(u128::from(byte), 8))
    }

    /// `then` if the width-1 `cond` holds, else `els`.
    pub fn ite(&mut self, cond: ExprId, then: ExprId, els: ExprId) -> ExprId {
        assert_eq!(self.width(cond), 1, "ite condition must have width 1");
        let w = self.same_width(then, els);
        if let Some(c) = self.as_const(cond) {
            return if c == 1 { then } else { els };
        }
        if then == els {
            return then;
        }
        if let ExprKind::Not(c) = *self.kind(cond) {
            return self.ite(c, els, then);
        }
        if w == 1 {
            match (self.as_const(then), self.as_const(els)) {
                (Some(1), Some(0)) => return cond,
                (Some(0), Some(1)) => return self.not(cond),
                _ => {}
            }
        }
        self.raw(ExprKind::Ite { cond, then, els })
    }

    /// `hi` followed by `lo` (the result's low bits are `lo`).
    pub fn concat(&mut self, hi: ExprId, lo: ExprId) -> ExprId {
        let (wh, wl) = (self.width(hi), self.width(lo));
        assert!(wh != 0 && wl != 0 && wh + wl <= 128, "bad concat");
        match (self.as_const(hi), self.as_const(lo)) {
            (Some(h), Some(l)) => return self.constant((h << wl) | l, wh + wl),
            (Some(0), None) => return self.zext(lo, wh + wl),
            _ => {}
        }
        if let (
            &ExprKind::Extract {
                expr: e1, lo: lo1, ..
            },
            &ExprKind::Extract {
                expr: e2, lo: lo2, ..
            },
        ) = (self.kind(hi), self.kind(lo))
        {
            if e1 == e2 && lo1 == lo2 + wl {
                return self.extract(e1, lo2, wh + wl);
            }
        }
        self.raw(ExprKind::Concat { hi, lo })
    }

    /// `width` bits of `e` starting at bit `lo`.
    pub fn extract(&mut self, e: ExprId, lo: u32, width: u32) -> ExprId {
        let we = self.width(e);
        assert!(width >= 1 && lo + width <= we, "extract out of range");
        if lo == 0 && width == we {
            return e;
        }
        match *self.kind(e) {
            ExprKind::Const { value, .. } => self.constant(value >> lo, width),
            ExprKind::Concat { hi, lo: low } => {
                let wl = self.width(low);
                if lo + width <= wl {
                    self.extract(low, lo, width)
                } else if lo >= wl {
                    self.extract(hi, lo - wl, width)
                } else {
                    self.raw(ExprKind::Extract { expr: e, lo, width })
                }
            }
            ExprKind::Extract {
                expr, lo: inner, ..
            } => self.extract(expr, inner + lo, width),
            ExprKind::ZExt { expr, .. } | ExprKind::SExt { expr, .. }
                if lo + width <= self.width(expr) =>
            {
                self.extract(expr, lo, width)
            }
            ExprKind::ZExt { expr, .. } if lo >= self.width(expr) => self.constant(0, width),
            _ => self.raw(ExprKind::Extract { expr: e, lo, width }),
        }
    }

    /// Zero extension of `e` to `width` bits (`width >= width(e)`; equal width returns `e`).
    pub fn zext(&mut self, e: ExprId, width: u32) -> ExprId {
        let we = self.width(e);
        assert!(we != 0 && we <= width && width <= 128, "bad zext");
        if we == width {
            return e;
        }
        match *self.kind(e) {
            ExprKind::Const { value, .. } => self.constant(value, width),
            ExprKind::ZExt { expr, .. } => self.zext(expr, width),
            ExprKind::Ite { .. } => self
                .through_leaves(e, |p, v| p.constant(v, width))
                .unwrap_or_else(|| self.raw(ExprKind::ZExt { expr: e, width })),
            _ => self.raw(ExprKind::ZExt { expr: e, width }),
        }
    }

    /// Sign extension of `e` to `width` bits (`width >= width(e)`; equal width returns `e`).
    pub fn sext(&mut self, e: ExprId, width: u32) -> ExprId {
        let we = self.width(e);
        assert!(we != 0 && we <= width && width <= 128, "bad sext");
        if we == width {
            return e;
        }
        match *self.kind(e) {
            ExprKind::Const { value, .. } => self.constant(sign_extend(value, we, width), width),
            ExprKind::SExt { expr, .. } => self.sext(expr, width),
            ExprKind::Ite { .. } => self
                .through_leaves(e, |p, v| p.constant(sign_extend(v, we, width), width))
                .unwrap_or_else(|| self.raw(ExprKind::SExt { expr: e, width })),
            _ => self.raw(ExprKind::SExt { expr: e, width }),
        }
    }

    /// Bitwise not (logical not for width 1).
    pub fn not(&mut self, e: ExprId) -> ExprId {
        let w = self.width(e);
        assert!(w != 0, "not of an array");
        match *self.kind(e) {
            ExprKind::Const { value, .. } => self.constant(!value, w),
            ExprKind::Not(inner) => inner,
            _ => self.raw(ExprKind::Not(e)),
        }
    }

    /// `lhs op rhs`.
    pub fn bin(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId) -> ExprId {
        let w = self.same_width(lhs, rhs);
        let (mut l, mut r) = (lhs, rhs);
        let (mut cl, mut cr) = (self.as_const(l), self.as_const(r));
        if let (Some(a), Some(b)) = (cl, cr) {
            return self.constant(fold_bin(&op, a, b, w), w);
        }
        let folded = |p: &mut ExprPool, a, b| p.constant(fold_bin(&op, a, b, w), w);
        if let Some(t) = self.through_leaves_against(l, r, cl, cr, folded) {
            return t;
        }
        if op.is_commutative() && (cr.is_some() || (cl.is_none() && r < l)) {
            std::mem::swap(&mut l, &mut r);
            std::mem::swap(&mut cl, &mut cr);
        }
        let ones = mask(w);
        match (&op, cl, cr) {
            (BinOp::Add, Some(0), _) => return r,
            (BinOp::Add, Some(c1), _) => {
                if let ExprKind::Bin {
                    op: BinOp::Add,
                    lhs: inner_l,
                    rhs: x,
                } = *self.kind(r)
                {
                    if let Some(c2) = self.as_const(inner_l) {
                        let c = self.constant(c1.wrapping_add(c2), w);
                        return self.bin(BinOp::Add, c, x);
                    }
                }
            }
            (BinOp::Sub, _, Some(0)) => return l,
            (BinOp::Sub, _, Some(c)) => {
                let neg = self.constant(c.wrapping_neg(), w);
                return self.bin(BinOp::Add, neg, l);
            }
            (BinOp::Sub | BinOp::Xor, _, _) if l == r => return self.constant(0, w),
            (BinOp::Mul | BinOp::And, Some(0), _) => return l,
            (BinOp::Mul, Some(1), _) => return r,
            (BinOp::And, Some(c), _) if c == ones => return r,
            (BinOp::Or | BinOp::Xor, Some(0), _) => return r,
            (BinOp::Or, Some(c), _) if c == ones => return l,
            (BinOp::Xor, Some(c), _) if c == ones => return self.not(r),
            (BinOp::And | BinOp::Or, _, _) if l == r => return l,
            (BinOp::Shl | BinOp::LShr | BinOp::AShr, _, Some(0)) => return l,
            (BinOp::Shl | BinOp::LShr | BinOp::AShr, Some(0), _) => return l,
            (BinOp::Shl | BinOp::LShr, _, Some(c)) if c >= u128::from(w) => {
                return self.constant(0, w)
            }
            (BinOp::UDiv | BinOp::SDiv, _, Some(1)) => return l,
            (BinOp::URem | BinOp::SRem, _, Some(1)) => return self.constant(0, w),
            _ => {}
        }
        self.raw(ExprKind::Bin { op, lhs: l, rhs: r })
    }

    /// `lhs op rhs` as a width-1 expression.
    pub fn cmp(&mut self, op: CmpOp, lhs: ExprId, rhs: ExprId) -> ExprId {
        let w = self.same_width(lhs, rhs);
        let (cl, cr) = (self.as_const(lhs), self.as_const(rhs));
        if let (Some(a), Some(b)) = (cl, cr) {
            return self.bool_const(fold_cmp(&op, a, b, w));
        }
        let decided = |p: &mut ExprPool, a, b| p.bool_const(fold_cmp(&op, a, b, w));
        if let Some(t) = self.through_leaves_against(lhs, rhs, cl, cr, decided) {
            return t;
        }
        if lhs == rhs {
            return self.bool_const(matches!(op, CmpOp::Eq | CmpOp::Ule | CmpOp::Sle));
        }
        if let Some(b) = self.decided_by_bounds(&op, lhs, rhs) {
            return self.bool_const(b);
        }
        let ones = mask(w);
        match (&op, cl, cr) {
            (CmpOp::Eq, None, Some(_)) => return self.cmp(op, rhs, lhs),
            (CmpOp::Eq, None, None) if rhs < lhs => return self.cmp(op, rhs, lhs),
            (CmpOp::Eq, Some(c), _) => return self.eq_const(c, rhs),
            (CmpOp::Ult, _, Some(0)) => return self.bool_const(false),
            (CmpOp::Ult, Some(c), _) if c == ones => return self.bool_const(false),
            (CmpOp::Ule, Some(0), _) => return self.bool_const(true),
            (CmpOp::Ule, _, Some(c)) if c == ones => return self.bool_const(true),
            _ => {}
        }
        self.raw(ExprKind::Cmp { op, lhs, rhs })
    }

    /// The value of an unsigned comparison or an equality with one constant side that the
    /// other side's bounds decide: its upper bound ([`ExprPool::umax`]) and its bits set
    /// on every assignment ([`ExprPool::known_ones`], also a lower bound). `(x & 63) <= 63`
    /// holds and `zext(b) == 300` and `(b | 0x20) == 0` fail on every assignment.
    fn decided_by_bounds(&self, op: &CmpOp, lhs: ExprId, rhs: ExprId) -> Option<bool> {
        let (x, c, x_first) = match (self.as_const(lhs), self.as_const(rhs)) {
            (None, Some(c)) => (lhs, c, true),
            (Some(c), None) => (rhs, c, false),
            _ => return None,
        };
        if !matches!(op, CmpOp::Eq | CmpOp::Ult | CmpOp::Ule) {
            return None;
        }
        let (ones, most) = (self.known_ones(x), self.umax(x));
        // Some(true) when the comparison holds on every value in [ones, most], Some(false)
        // when it holds on none.
        let decide = |always: bool, never: bool| match (always, never) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        match (op, x_first) {
            (CmpOp::Eq, _) => (ones & !c != 0 || most < c).then_some(false),
            (CmpOp::Ult, true) => decide(most < c, ones >= c),
            (CmpOp::Ule, true) => decide(most <= c, ones > c),
            (CmpOp::Ult, false) => decide(ones > c, most <= c),
            _ => decide(ones >= c, most < c), // c <= x
        }
    }

    /// `f(a, b)` for every pair of values of `l` and `r` when one side is a constant
    /// (`cl` or `cr`) and the other a tree of constants ([`ExprPool::const_leaves`]): the
    /// same tree over the results.
    fn through_leaves_against(
        &mut self,
        l: ExprId,
        r: ExprId,
        cl: Option<u128>,
        cr: Option<u128>,
        f: impl Fn(&mut ExprPool, u128, u128) -> ExprId,
    ) -> Option<ExprId> {
        match (cl, cr) {
            (None, Some(c)) => self.through_leaves(l, |p, v| f(p, v, c)),
            (Some(c), None) => self.through_leaves(r, |p, v| f(p, c, v)),
            _ => None,
        }
    }

    /// `c == x` for a constant `c` and a non-constant `x`.
    fn eq_const(&mut self, c: u128, x: ExprId) -> ExprId {
        let w = self.width(x);
        if w == 1 {
            return if c == 1 { x } else { self.not(x) };
        }
        match *self.kind(x) {
            ExprKind::ZExt { expr, .. } => {
                let wn = self.width(expr);
                if c >> wn != 0 {
                    return self.bool_const(false);
                }
                let narrow = self.constant(c, wn);
                return self.cmp(CmpOp::Eq, narrow, expr);
            }
            ExprKind::SExt { expr, .. } => {
                let wn = self.width(expr);
                let t = c & mask(wn);
                if sign_extend(t, wn, w) != c {
                    return self.bool_const(false);
                }
                let narrow = self.constant(t, wn);
                return self.cmp(CmpOp::Eq, narrow, expr);
            }
            ExprKind::Bin {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                if let Some(c2) = self.as_const(lhs) {
                    let diff = self.constant(c.wrapping_sub(c2), w);
                    return self.cmp(CmpOp::Eq, diff, rhs);
                }
            }
            _ => {}
        }
        let c = self.constant(c, w);
        self.raw(ExprKind::Cmp {
            op: CmpOp::Eq,
            lhs: c,
            rhs: x,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{ArrayId, Assignment};

    /// A pool with one 4-byte array `x` and its byte 0 / 32-bit little-endian word.
    pub(crate) fn setup() -> (ExprPool, ArrayId, ExprId, ExprId) {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let arr = p.array_sym(a);
        let bytes: Vec<ExprId> = (0..4)
            .map(|i| {
                let idx = p.constant(i, 64);
                p.select(arr, idx)
            })
            .collect();
        let w = bytes[1..].iter().fold(bytes[0], |acc, &b| p.concat(b, acc));
        (p, a, bytes[0], w)
    }

    /// The constant `build` folds to, if any.
    fn fold(p: &mut ExprPool, build: impl FnOnce(&mut ExprPool) -> ExprId) -> Option<u128> {
        let e = build(p);
        p.as_const(e)
    }

    fn is_raw_bin(p: &ExprPool, e: ExprId, op: BinOp) -> bool {
        matches!(p.kind(e), ExprKind::Bin { op: o, .. } if *o == op)
    }

    #[test]
    fn constants_are_masked() {
        let mut p = ExprPool::new();
        assert_eq!(fold(&mut p, |p| p.constant(0x1ff, 8)), Some(0xff));
        assert_eq!(p.constant(0x1ff, 8), p.constant(0xff, 8));
        assert_eq!(fold(&mut p, |p| p.bool_const(true)), Some(1));
        let f = p.bool_const(false);
        assert_eq!(p.width(f), 1);
    }

    #[test]
    fn folds_every_operator_on_constants() {
        let mut p = ExprPool::new();
        let a = p.constant(200, 8);
        let b = p.constant(100, 8);
        let t = p.bool_const(true);
        assert_eq!(fold(&mut p, |p| p.bin(BinOp::Add, a, b)), Some(44));
        assert_eq!(fold(&mut p, |p| p.bin(BinOp::SDiv, a, b)), Some(0));
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Slt, a, b)), Some(1));
        assert_eq!(fold(&mut p, |p| p.not(a)), Some(55));
        assert_eq!(fold(&mut p, |p| p.concat(a, b)), Some(200 << 8 | 100));
        assert_eq!(fold(&mut p, |p| p.extract(a, 3, 4)), Some(9));
        assert_eq!(fold(&mut p, |p| p.zext(a, 128)), Some(200));
        assert_eq!(fold(&mut p, |p| p.sext(a, 16)), Some(0xffc8));
        assert_eq!(fold(&mut p, |p| p.sext(a, 128)), Some(u128::MAX - 55));
        assert_eq!(p.ite(t, a, b), a);
    }

    #[test]
    fn select_folds_constant_arrays_and_store_chains() {
        let (mut p, _, b0, _) = setup();
        let arr = p.array_const(&[1, 2, 3]);
        let i1 = p.constant(1, 64);
        let i5 = p.constant(5, 64);
        assert_eq!(fold(&mut p, |p| p.select(arr, i1)), Some(2));
        assert_eq!(fold(&mut p, |p| p.select(arr, i5)), Some(0));
        let st = p.store(arr, i5, b0);
        assert_eq!(p.select(st, i5), b0);
        assert_eq!(fold(&mut p, |p| p.select(st, i1)), Some(2));
        // a store at a symbolic index is a choice for a read the walk can finish
        let sym_idx = p.zext(b0, 64);
        let st2 = p.store(st, sym_idx, b0);
        let s = p.select(st2, i1);
        assert!(matches!(p.kind(s), ExprKind::Ite { .. }));
        assert_eq!(p.select(st2, sym_idx), b0);
    }

    /// Whether `e` reads an array anywhere but an input byte at a constant index.
    fn reads_an_array(p: &ExprPool, e: ExprId) -> bool {
        let mut found = false;
        p.post_order(&[e], |n| {
            if let ExprKind::Select { array, index } = *p.kind(n) {
                let input = matches!(p.kind(array), ExprKind::ArraySym(_));
                found |= !(input && p.as_const(index).is_some());
            }
            false
        });
        found
    }

    #[test]
    fn reads_over_stores_at_input_indices_are_the_last_store_to_the_index() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let x = p.array_sym(a);
        let input: Vec<ExprId> = (0..4)
            .map(|k| {
                let i = p.constant(k, 64);
                p.select(x, i)
            })
            .collect();
        let seven = p.constant(7, 8);
        let one = p.constant(1, 64);
        let idx: Vec<ExprId> = input[..2]
            .iter()
            .map(|&b| {
                let low = p.and(b, seven);
                p.zext(low, 64)
            })
            .collect();
        let idx1_plus_1 = p.add(idx[1], one);
        let [c1, c6, nine, four] =
            [(1, 64), (6, 64), (9, 8), (4, 8)].map(|(v, w)| p.constant(v, w));
        let stores = [
            (c1, input[3]),
            (idx[0], input[2]),
            (c6, nine),
            (idx1_plus_1, four),
        ];
        let base = [5u8, 6, 7];
        let arr = stores
            .iter()
            .fold(p.array_const(&base), |arr, &(i, v)| p.store(arr, i, v));
        let mut reads: Vec<ExprId> = (0..10).map(|k| p.constant(k, 64)).collect();
        reads.extend([idx[0], idx[1], idx1_plus_1]);
        let values: Vec<ExprId> = reads.iter().map(|&i| p.select(arr, i)).collect();
        // every store at an input-dependent index may hit 1 to 7 (0 and 8 are told
        // apart from one by its bounds, and such a store stops the walk)
        for (k, &v) in values.iter().enumerate().take(8).skip(1) {
            assert!(!reads_an_array(&p, v), "a read at {k} needs no array");
        }
        assert!(reads_an_array(&p, values[0]));
        let mut rng = crate::Rng::new(7);
        for _ in 0..200 {
            let mut m = Assignment::default();
            m.set(a, (0..4).map(|_| rng.below(256) as u8).collect());
            let mut memory = [0u8; 16];
            memory[..3].copy_from_slice(&base);
            for &(i, v) in &stores {
                memory[p.eval(i, &m) as usize] = p.eval(v, &m) as u8;
            }
            for (&i, &v) in reads.iter().zip(&values) {
                assert_eq!(p.eval(v, &m), u128::from(memory[p.eval(i, &m) as usize]));
            }
        }
    }

    #[test]
    fn a_read_of_an_element_field_every_element_shares_is_that_byte() {
        let (mut p, _, b0, _) = setup();
        let table: Vec<u8> = (0..16).flat_map(|_| [0, 0, 7, 7]).collect();
        let arr = p.array_const(&table);
        let fifteen = p.constant(15, 8);
        let low = p.and(b0, fifteen);
        let element = p.zext(low, 64);
        let four = p.constant(4, 64);
        let at = p.mul(element, four);
        let [one, two] = [1, 2].map(|k| p.constant(k, 64));
        let at1 = p.add(at, one);
        let at2 = p.add(at, two);
        assert_eq!(p.select(arr, at), p.constant(0, 8));
        assert_eq!(p.select(arr, at1), p.constant(0, 8));
        assert_eq!(p.select(arr, at2), p.constant(7, 8));
        // every byte of the table: not one value
        let s = p.select(arr, element);
        assert!(matches!(p.kind(s), ExprKind::Select { .. }));
    }

    #[test]
    fn reads_the_stores_cannot_decide_stay_array_selects() {
        let (mut p, _, b0, w) = setup();
        let sym_idx = p.zext(b0, 64);
        let b1 = p.extract(w, 8, 8);
        let other_idx = p.zext(b1, 64);
        let table = p.array_const(&[1, 2, 3]);
        let v = p.constant(9, 8);
        let written = p.store(table, sym_idx, v);
        let i1 = p.constant(1, 64);
        let at = p.add(sym_idx, i1);
        // another symbolic index into a table of known bytes: a select of the store
        let s = p.select(written, other_idx);
        assert!(matches!(p.kind(s), ExprKind::Select { array, .. } if *array == written));
        // past the most aliasing stores: a select of the first of them
        let zeros = p.array_const(&[]);
        let i200 = p.constant(200, 64);
        let mut arr = zeros;
        for k in 0..=MOST_ALIASING_STORES as u128 {
            let read = p.select(arr, i200);
            assert!(matches!(
                p.kind(read),
                ExprKind::Ite { .. } | ExprKind::Const { .. }
            ));
            let ck = p.constant(k, 64);
            let i = p.add(sym_idx, ck);
            arr = p.store(arr, i, v);
        }
        let s = p.select(arr, i200);
        assert!(matches!(p.kind(s), ExprKind::Select { array, .. } if *array == arr));
        // a read of zeros at any index is zero
        assert_eq!(p.select(zeros, at), p.constant(0, 8));
    }

    #[test]
    fn store_to_same_index_overwrites() {
        let (mut p, _, b0, _) = setup();
        let arr = p.array_const(&[1, 2, 3]);
        let i1 = p.constant(1, 64);
        let v = p.constant(9, 8);
        let s1 = p.store(arr, i1, b0);
        let s2 = p.store(s1, i1, v);
        assert_eq!(s2, p.store(arr, i1, v));
    }

    #[test]
    fn array_const_ignores_trailing_zeros() {
        let mut p = ExprPool::new();
        assert_eq!(p.array_const(&[1, 0, 0]), p.array_const(&[1]));
    }

    #[test]
    fn commutative_operands_are_canonical() {
        let (mut p, _, b0, w) = setup();
        let x = p.extract(w, 8, 8);
        let c = p.constant(5, 8);
        for op in [BinOp::Add, BinOp::Mul, BinOp::And, BinOp::Or, BinOp::Xor] {
            let e1 = p.bin(op, b0, c);
            let e2 = p.bin(op, c, b0);
            assert_eq!(e1, e2);
            assert!(matches!(p.kind(e1), ExprKind::Bin { lhs, .. } if *lhs == c));
            assert_eq!(p.bin(op, x, b0), p.bin(op, b0, x));
        }
        assert_eq!(p.cmp(CmpOp::Eq, b0, c), p.cmp(CmpOp::Eq, c, b0));
        assert_eq!(p.cmp(CmpOp::Eq, b0, x), p.cmp(CmpOp::Eq, x, b0));
        assert_ne!(p.bin(BinOp::Sub, b0, x), p.bin(BinOp::Sub, x, b0));
    }

    #[test]
    fn arithmetic_identities() {
        let (mut p, _, x, _) = setup();
        let zero = p.constant(0, 8);
        let one = p.constant(1, 8);
        assert_eq!(p.bin(BinOp::Add, x, zero), x);
        assert_eq!(p.bin(BinOp::Sub, x, zero), x);
        assert_eq!(p.bin(BinOp::Mul, x, zero), zero);
        assert_eq!(p.bin(BinOp::Mul, one, x), x);
        assert_eq!(p.bin(BinOp::Sub, x, x), zero);
        assert_eq!(p.bin(BinOp::UDiv, x, one), x);
        assert_eq!(p.bin(BinOp::SDiv, x, one), x);
        assert_eq!(p.bin(BinOp::URem, x, one), zero);
        assert_eq!(p.bin(BinOp::SRem, x, one), zero);
        assert_eq!(p.bin(BinOp::Shl, x, zero), x);
        assert_eq!(p.bin(BinOp::AShr, zero, x), zero);
        let eight = p.constant(8, 8);
        assert_eq!(p.bin(BinOp::LShr, x, eight), zero);
        let ashr = p.bin(BinOp::AShr, x, eight);
        assert!(is_raw_bin(&p, ashr, BinOp::AShr));
    }

    #[test]
    fn bitwise_identities() {
        let (mut p, _, x, _) = setup();
        let zero = p.constant(0, 8);
        let ones = p.constant(0xff, 8);
        assert_eq!(p.bin(BinOp::And, x, zero), zero);
        assert_eq!(p.bin(BinOp::And, x, ones), x);
        assert_eq!(p.bin(BinOp::And, x, x), x);
        assert_eq!(p.bin(BinOp::Or, x, zero), x);
        assert_eq!(p.bin(BinOp::Or, x, ones), ones);
        assert_eq!(p.bin(BinOp::Or, x, x), x);
        assert_eq!(p.bin(BinOp::Xor, x, zero), x);
        assert_eq!(p.bin(BinOp::Xor, x, x), zero);
        assert_eq!(p.bin(BinOp::Xor, ones, x), p.not(x));
        let nx = p.not(x);
        assert_eq!(p.not(nx), x);
    }

    #[test]
    fn constants_gather_in_sums() {
        let (mut p, _, x, _) = setup();
        let c3 = p.constant(3, 8);
        let c4 = p.constant(4, 8);
        let s = p.bin(BinOp::Add, x, c3);
        let s2 = p.bin(BinOp::Add, s, c4);
        let c7 = p.constant(7, 8);
        assert_eq!(s2, p.bin(BinOp::Add, c7, x));
        // x - 3 == x + 253
        let d = p.bin(BinOp::Sub, x, c3);
        let c253 = p.constant(253, 8);
        assert_eq!(d, p.bin(BinOp::Add, c253, x));
    }

    #[test]
    fn comparison_identities() {
        let (mut p, _, x, _) = setup();
        let zero = p.constant(0, 8);
        let ones = p.constant(0xff, 8);
        let t = p.bool_const(true);
        let f = p.bool_const(false);
        assert_eq!(p.cmp(CmpOp::Eq, x, x), t);
        assert_eq!(p.cmp(CmpOp::Ule, x, x), t);
        assert_eq!(p.cmp(CmpOp::Slt, x, x), f);
        assert_eq!(p.cmp(CmpOp::Ult, x, zero), f);
        assert_eq!(p.cmp(CmpOp::Ult, ones, x), f);
        assert_eq!(p.cmp(CmpOp::Ule, zero, x), t);
        assert_eq!(p.cmp(CmpOp::Ule, x, ones), t);
    }

    #[test]
    fn width_one_equalities() {
        let (mut p, _, x, _) = setup();
        let c = p.constant(3, 8);
        let b = p.cmp(CmpOp::Ult, x, c);
        let one = p.bool_const(true);
        let zero = p.bool_const(false);
        assert_eq!(p.cmp(CmpOp::Eq, b, one), b);
        assert_eq!(p.cmp(CmpOp::Eq, zero, b), p.not(b));
    }

    #[test]
    fn eq_through_extensions() {
        let (mut p, _, x, _) = setup();
        let zx = p.zext(x, 32);
        let sx = p.sext(x, 32);
        let c5_8 = p.constant(5, 8);
        let want = p.cmp(CmpOp::Eq, c5_8, x);
        let c5 = p.constant(5, 32);
        assert_eq!(p.cmp(CmpOp::Eq, c5, zx), want);
        assert_eq!(p.cmp(CmpOp::Eq, sx, c5), want);
        let big = p.constant(300, 32);
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Eq, big, zx)), Some(0));
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Eq, big, sx)), Some(0));
        let m1 = p.constant(0xffff_ffff, 32);
        let m1_8 = p.constant(0xff, 8);
        let want = p.cmp(CmpOp::Eq, m1_8, x);
        assert_eq!(p.cmp(CmpOp::Eq, m1, sx), want);
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Eq, m1, zx)), Some(0));
    }

    #[test]
    fn eq_of_ite_of_constants() {
        let (mut p, _, x, _) = setup();
        let c = p.constant(3, 8);
        let b = p.cmp(CmpOp::Ult, x, c);
        let k1 = p.constant(10, 32);
        let k2 = p.constant(20, 32);
        let i = p.ite(b, k1, k2);
        assert_eq!(p.cmp(CmpOp::Eq, k1, i), b);
        assert_eq!(p.cmp(CmpOp::Eq, i, k2), p.not(b));
        let k3 = p.constant(30, 32);
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Eq, k3, i)), Some(0));
        let same = p.raw(ExprKind::Ite {
            cond: b,
            then: k1,
            els: k1,
        });
        assert_eq!(fold(&mut p, |p| p.cmp(CmpOp::Eq, k1, same)), Some(1));
    }

    #[test]
    fn eq_moves_constants_out_of_sums() {
        let (mut p, _, x, _) = setup();
        let c3 = p.constant(3, 8);
        let s = p.bin(BinOp::Add, c3, x);
        let c10 = p.constant(10, 8);
        let c7 = p.constant(7, 8);
        assert_eq!(p.cmp(CmpOp::Eq, c10, s), p.cmp(CmpOp::Eq, c7, x));
    }

    #[test]
    fn ite_identities() {
        let (mut p, _, x, w) = setup();
        let y = p.extract(w, 8, 8);
        let c = p.constant(3, 8);
        let b = p.cmp(CmpOp::Ult, x, c);
        let t = p.bool_const(true);
        let f = p.bool_const(false);
        assert_eq!(p.ite(b, x, x), x);
        assert_eq!(p.ite(t, x, y), x);
        assert_eq!(p.ite(f, x, y), y);
        assert_eq!(p.ite(b, t, f), b);
        assert_eq!(p.ite(b, f, t), p.not(b));
        let nb = p.not(b);
        assert_eq!(p.ite(nb, x, y), p.ite(b, y, x));
    }

    #[test]
    fn extract_simplifications() {
        let (mut p, _, x, w) = setup();
        assert_eq!(p.extract(w, 0, 32), w);
        assert_eq!(p.extract(w, 0, 8), x);
        let b2 = p.extract(w, 16, 8);
        assert!(matches!(p.kind(b2), ExprKind::Select { .. }));
        let mid = p.extract(w, 8, 16);
        assert!(matches!(p.kind(mid), ExprKind::Extract { .. }));
        assert_eq!(p.extract(mid, 8, 8), b2);
        let z = p.zext(x, 32);
        assert_eq!(p.extract(z, 0, 8), x);
        assert_eq!(fold(&mut p, |p| p.extract(z, 8, 8)), Some(0));
        let s = p.sext(x, 32);
        assert_eq!(p.extract(s, 4, 4), p.extract(x, 4, 4));
        let ex = p.extract(s, 4, 8);
        assert!(matches!(p.kind(ex), ExprKind::Extract { .. }));
    }

    #[test]
    fn concat_simplifications() {
        let (mut p, _, x, w) = setup();
        let m = p.mul(w, w);
        let lo = p.extract(m, 4, 8);
        let hi = p.extract(m, 12, 8);
        assert_eq!(p.concat(hi, lo), p.extract(m, 4, 16));
        let lo0 = p.extract(m, 0, 16);
        let hi0 = p.extract(m, 16, 16);
        assert_eq!(p.concat(hi0, lo0), m);
        let zero = p.constant(0, 24);
        assert_eq!(p.concat(zero, x), p.zext(x, 32));
    }

    #[test]
    fn extension_simplifications() {
        let (mut p, _, x, _) = setup();
        assert_eq!(p.zext(x, 8), x);
        assert_eq!(p.sext(x, 8), x);
        let z16 = p.zext(x, 16);
        assert_eq!(p.zext(z16, 64), p.zext(x, 64));
        let s16 = p.sext(x, 16);
        assert_eq!(p.sext(s16, 64), p.sext(x, 64));
    }

    #[test]
    #[should_panic(expected = "operand widths differ")]
    fn builder_width_mismatch_panics() {
        let mut p = ExprPool::new();
        let a = p.constant(1, 8);
        let b = p.constant(1, 16);
        p.bin(BinOp::Add, a, b);
    }
}
