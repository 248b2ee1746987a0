//! Cheap facts about expressions the builders use to decide comparisons and array reads
//! without a solver: an upper bound of an expression's unsigned value, and whether two
//! array indices are provably equal or different.

use crate::bits::mask;
use crate::{BinOp, ExprId, ExprKind, ExprPool};

/// How deep [`ExprPool::umax`] looks below an expression (the bound stays sound past it:
/// a node it does not look into is bounded by its width's all-ones value).
const UMAX_DEPTH: u32 = 8;

/// The most if-then-else nodes a bound looks through at once, to the chain's leaves
/// ([`ExprPool::ite_leaves`]; a table of 256 bytes read at a symbolic index is a chain
/// of 256).
const ITE_NODES: usize = 1024;

/// The smallest all-ones value at least `v` (`v` with every bit below its top bit set).
fn smear(v: u128) -> u128 {
    match v {
        0 => 0,
        v => u128::MAX >> v.leading_zeros(),
    }
}

impl ExprPool {
    /// An upper bound of the unsigned value of the bit-vector `e` on every assignment:
    /// constants, masks, extensions, extractions, remainders, shifts (arithmetic ones of
    /// values whose sign bit is clear), divisions, ites and non-wrapping sums, products
    /// and left shifts are looked through (a few levels deep).
    pub fn umax(&self, e: ExprId) -> u128 {
        self.umax_at(e, UMAX_DEPTH)
    }

    fn umax_at(&self, e: ExprId, depth: u32) -> u128 {
        let w = self.width(e);
        let all = mask(w);
        if depth == 0 {
            return self.as_const(e).unwrap_or(all);
        }
        let m = |x: ExprId| self.umax_at(x, depth - 1);
        let bound = match *self.kind(e) {
            ExprKind::Const { value, .. } => value,
            ExprKind::ZExt { expr, .. } => m(expr),
            // Sign extension keeps the value when the sign bit is known clear.
            ExprKind::SExt { expr, .. } => {
                let inner = m(expr);
                if inner >> (self.width(expr) - 1) == 0 {
                    inner
                } else {
                    all
                }
            }
            // The low bits of a value: the value itself when it fits, else at most all ones.
            ExprKind::Extract { expr, lo: 0, .. } => m(expr),
            ExprKind::Concat { hi, lo } => {
                let wl = self.width(lo);
                (m(hi) << wl) | smear(m(lo))
            }
            ExprKind::Ite { then, els, .. } => match self.ite_leaves(e, ITE_NODES) {
                Some(leaves) => leaves.into_iter().map(m).max().unwrap_or(all),
                None => m(then).max(m(els)),
            },
            ExprKind::Bin { op, lhs, rhs } => {
                let c = self.as_const(rhs);
                match op {
                    BinOp::And => m(lhs).min(m(rhs)),
                    BinOp::Or | BinOp::Xor => smear(m(lhs).max(m(rhs))),
                    BinOp::Add => m(lhs).checked_add(m(rhs)).unwrap_or(all),
                    // A product or a left shift that cannot pass the width does not wrap
                    // (`base + 8 * (i & 255)`, a table's element address).
                    BinOp::Mul => m(lhs).checked_mul(m(rhs)).unwrap_or(all),
                    BinOp::Shl => match c {
                        Some(c) if c >= u128::from(w) => 0,
                        Some(c) => m(lhs).checked_mul(1 << c).unwrap_or(all),
                        None => all,
                    },
                    BinOp::URem => match c {
                        Some(c) if c != 0 => m(lhs).min(c - 1),
                        _ => m(lhs),
                    },
                    BinOp::UDiv => match c {
                        Some(c) if c != 0 => m(lhs) / c,
                        _ => all,
                    },
                    BinOp::LShr => m(lhs) >> c.unwrap_or(0).min(127),
                    // With the sign bit known clear, an arithmetic shift is a logical one
                    // (`hexdigits[byte >> 4]` on a promoted byte).
                    BinOp::AShr if m(lhs) >> (w - 1) == 0 => m(lhs) >> c.unwrap_or(0).min(127),
                    _ => all,
                }
            }
            _ => all,
        };
        bound.min(all)
    }

    /// Bits of the bit-vector `e` set on every assignment: of constants, through or, and,
    /// extensions, extractions, concatenations, shifts by constants and ites (a few
    /// levels deep; 0 where it does not look). `(b | 0x20) == 0` fails on every assignment.
    pub fn known_ones(&self, e: ExprId) -> u128 {
        self.known_ones_at(e, UMAX_DEPTH)
    }

    fn known_ones_at(&self, e: ExprId, depth: u32) -> u128 {
        if depth == 0 {
            return self.as_const(e).unwrap_or(0);
        }
        let k = |x: ExprId| self.known_ones_at(x, depth - 1);
        let ones = match *self.kind(e) {
            ExprKind::Const { value, .. } => value,
            ExprKind::ZExt { expr, .. } => k(expr),
            ExprKind::Extract { expr, lo, .. } => k(expr) >> lo,
            ExprKind::Concat { hi, lo } => (k(hi) << self.width(lo)) | k(lo),
            ExprKind::Ite { then, els, .. } => match self.ite_leaves(e, ITE_NODES) {
                Some(leaves) => leaves.into_iter().fold(u128::MAX, |acc, l| acc & k(l)),
                None => k(then) & k(els),
            },
            ExprKind::Bin { op, lhs, rhs } => match (op, self.as_const(rhs)) {
                (BinOp::Or, _) => k(lhs) | k(rhs),
                (BinOp::And, _) => k(lhs) & k(rhs),
                (BinOp::Shl, Some(c)) if c < 128 => k(lhs) << c,
                (BinOp::LShr, Some(c)) if c < 128 => k(lhs) >> c,
                _ => 0,
            },
            _ => 0,
        };
        ones & mask(self.width(e))
    }

    /// How many low bits of the bit-vector `e` are zero on every assignment: of constants,
    /// through products, left shifts by constants, sums, masks, extensions, extractions,
    /// concatenations and ites (a few levels deep). The offset of `t[i]` in a table of
    /// 8-byte elements is a multiple of 8.
    pub fn known_low_zeros(&self, e: ExprId) -> u32 {
        self.known_low_zeros_at(e, UMAX_DEPTH)
    }

    fn known_low_zeros_at(&self, e: ExprId, depth: u32) -> u32 {
        let w = self.width(e);
        if let Some(c) = self.as_const(e) {
            return c.trailing_zeros().min(w);
        }
        if depth == 0 {
            return 0;
        }
        let z = |x: ExprId| self.known_low_zeros_at(x, depth - 1);
        let zeros = match *self.kind(e) {
            ExprKind::ZExt { expr, .. } | ExprKind::SExt { expr, .. } => z(expr),
            ExprKind::Extract { expr, lo, .. } => z(expr).saturating_sub(lo),
            ExprKind::Concat { hi, lo } => {
                let wl = self.width(lo);
                match z(lo) {
                    all if all >= wl => wl + z(hi),
                    some => some,
                }
            }
            ExprKind::Ite { then, els, .. } => match self.ite_leaves(e, ITE_NODES) {
                Some(leaves) => leaves.into_iter().map(z).min().unwrap_or(0),
                None => z(then).min(z(els)),
            },
            ExprKind::Bin { op, lhs, rhs } => match (op, self.as_const(rhs)) {
                (BinOp::Mul, _) => z(lhs) + z(rhs),
                (BinOp::Shl, Some(c)) => z(lhs).saturating_add(c.min(128) as u32),
                (BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor, _) => z(lhs).min(z(rhs)),
                (BinOp::And, _) => z(lhs).max(z(rhs)),
                _ => 0,
            },
            _ => 0,
        };
        zeros.min(w)
    }

    /// The constant array at the bottom of the chain of stores `a`, with its number of
    /// stored bytes (the bytes past them read 0), if the chain starts from one.
    pub fn const_array_base(&self, mut a: ExprId) -> Option<(ExprId, usize)> {
        loop {
            match self.kind(a) {
                ExprKind::Store { array, .. } => a = *array,
                ExprKind::ArrayConst(bytes) => return Some((a, bytes.len())),
                _ => return None,
            }
        }
    }

    /// An index as `constant + base` (the base absent for a constant index).
    fn offset_form(&self, index: ExprId) -> (u128, Option<ExprId>) {
        match *self.kind(index) {
            ExprKind::Const { value, .. } => (value, None),
            ExprKind::Bin {
                op: BinOp::Add,
                lhs,
                rhs,
            } => match self.as_const(lhs) {
                Some(c) => (c, Some(rhs)),
                None => (0, Some(index)),
            },
            _ => (0, Some(index)),
        }
    }

    /// Whether the indices `a` and `b` differ on every assignment: both are one base plus
    /// different constants (`x + 1` and `x + 3`, or two different constants).
    pub fn indices_differ(&self, a: ExprId, b: ExprId) -> bool {
        let (ca, ba) = self.offset_form(a);
        let (cb, bb) = self.offset_form(b);
        ba == bb && ca != cb
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArrayId, Assignment, CmpOp};

    use crate::build::tests::setup;
    use crate::Rng;

    /// Shapes whose bound `umax` knows, each with the best bound by hand.
    fn shapes(p: &mut ExprPool, b: ExprId, w: ExprId) -> Vec<(ExprId, u128)> {
        let [c63, c10, c3, c28] = [63, 10, 3, 28].map(|v| p.constant(v, 32));
        let masked = p.and(w, c63);
        let z = p.zext(b, 32);
        let low = p.extract(masked, 0, 8);
        let sx = p.sext(low, 64);
        let sum = p.add(masked, z);
        let rem = p.bin(BinOp::URem, w, c10);
        let div = p.bin(BinOp::UDiv, z, c3);
        let shr = p.bin(BinOp::LShr, w, c28);
        let or = p.or(masked, c10);
        let c100 = p.constant(100, 8);
        let small = p.ult(b, c100);
        let pick = p.ite(small, masked, c10);
        let b16 = p.zext(b, 16);
        let cat = p.concat(b16, b);
        let [c8, c2, c14336, c32] = [8, 2, 14336, 32].map(|v| p.constant(v, 32));
        let scaled = p.bin(BinOp::Mul, c8, masked);
        let element = p.add(c14336, scaled);
        let shl = p.bin(BinOp::Shl, z, c2);
        let wraps = p.bin(BinOp::Mul, w, c8);
        let gone = p.bin(BinOp::Shl, w, c32);
        let shl_wraps = p.bin(BinOp::Shl, z, c28);
        let c4 = p.constant(4, 32);
        let ashr = p.bin(BinOp::AShr, z, c4);
        let ashr_signed = p.bin(BinOp::AShr, w, c4);
        vec![
            (masked, 63),
            (z, 255),
            (low, 63),
            (sx, 63),
            (sum, 63 + 255),
            (rem, 9),
            (div, 85),
            (shr, 15),
            (or, 63),
            (pick, 63),
            (cat, 0xffff),
            (element, 14336 + 8 * 63),
            (shl, 255 << 2),
            (wraps, mask(32)),
            (gone, 0),
            (shl_wraps, mask(32)),
            (ashr, 15),
            (ashr_signed, mask(32)),
            (w, mask(32)),
        ]
    }

    /// `check` under 2,000 random values of the 4-byte array `a`.
    fn on_random_inputs(a: ArrayId, mut check: impl FnMut(&Assignment)) {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..2000 {
            let mut m = Assignment::default();
            m.set(a, rng.next_u64().to_le_bytes()[..4].to_vec());
            check(&m);
        }
    }

    #[test]
    fn bounds_are_tight_on_known_shapes_and_hold_on_random_inputs() {
        let (mut p, a, b, w) = setup();
        let cases = shapes(&mut p, b, w);
        for &(e, want) in &cases {
            assert_eq!(p.umax(e), want, "{}", p.display(e));
        }
        on_random_inputs(a, |m| {
            for &(e, _) in &cases {
                assert!(p.eval(e, m) <= p.umax(e), "{} under {m:?}", p.display(e));
            }
        });
    }

    #[test]
    fn known_ones_hold_on_random_inputs_and_decide_comparisons() {
        let (mut p, a, b, w) = setup();
        let [c20, c0f] = [0x20, 0x0f].map(|v| p.constant(v, 8));
        let lower = p.or(b, c20);
        let z = p.zext(lower, 32);
        let c8 = p.constant(8, 32);
        let shifted = p.bin(BinOp::Shl, z, c8);
        let masked = p.and(lower, c0f);
        let cases = [
            (lower, 0x20),
            (z, 0x20),
            (shifted, 0x2000),
            (masked, 0),
            (w, 0),
        ];
        for &(e, want) in &cases {
            assert_eq!(p.known_ones(e), want, "{}", p.display(e));
        }
        on_random_inputs(a, |m| {
            for &(e, _) in &cases {
                let ones = p.known_ones(e);
                assert_eq!(p.eval(e, m) & ones, ones, "{} under {m:?}", p.display(e));
            }
        });
        let [zero, c1f] = [0, 0x1f].map(|v| p.constant(v, 8));
        let folded = [
            (p.eq(zero, lower), 0),
            (p.ult(lower, c20), 0),
            (p.ule(c1f, lower), 1),
        ];
        for (e, want) in folded {
            assert_eq!(p.as_const(e), Some(want), "{}", p.display(e));
        }
    }

    #[test]
    fn known_low_zeros_hold_on_random_inputs() {
        let (mut p, a, b, w) = setup();
        let [c8, c3, c16, cf0] = [8, 3, 16, 0xf0].map(|v| p.constant(v, 32));
        let z = p.zext(b, 32);
        let scaled = p.bin(BinOp::Mul, c8, z);
        let shifted = p.bin(BinOp::Shl, w, c3);
        let field = p.add(scaled, c16);
        let masked = p.and(w, cf0);
        let mixed = p.add(scaled, w);
        let narrow = p.extract(shifted, 2, 8);
        let cases = [
            (scaled, 3),
            (shifted, 3),
            (field, 3),
            (masked, 4),
            (mixed, 0),
            (narrow, 1),
        ];
        for &(e, want) in &cases {
            assert_eq!(p.known_low_zeros(e), want, "{}", p.display(e));
        }
        on_random_inputs(a, |m| {
            for &(e, want) in &cases {
                assert!(
                    p.eval(e, m).trailing_zeros() >= want,
                    "{} under {m:?}",
                    p.display(e)
                );
            }
        });
    }

    #[test]
    fn comparisons_against_bounds_fold() {
        let (mut p, _, _, w) = setup();
        let c63 = p.constant(63, 32);
        let masked = p.and(w, c63);
        let off = p.zext(masked, 64);
        let [c62, c63, c64] = [62, 63, 64].map(|v| p.constant(v, 64));
        let folded = [
            (p.ule(off, c63), 1),
            (p.ult(off, c64), 1),
            (p.ult(c63, off), 0),
            (p.ule(c64, off), 0),
            (p.eq(c64, off), 0),
        ];
        for (e, want) in folded {
            assert_eq!(p.as_const(e), Some(want), "{}", p.display(e));
        }
        // A bound that does not decide leaves the comparison alone.
        let open = p.ule(off, c62);
        let raw = p.raw(ExprKind::Cmp {
            op: CmpOp::Ule,
            lhs: off,
            rhs: c62,
        });
        assert_eq!(open, raw);
    }

    #[test]
    fn indices_with_one_base_and_different_offsets_differ() {
        let (mut p, _, b, _) = setup();
        let x = p.zext(b, 64);
        let [one, three] = [1, 3].map(|v| p.constant(v, 64));
        let x1 = p.add(x, one);
        let x3 = p.add(x, three);
        assert!(p.indices_differ(x1, x3));
        assert!(p.indices_differ(x, x1));
        assert!(p.indices_differ(one, three));
        assert!(!p.indices_differ(x1, x1));
        assert!(!p.indices_differ(x, three));
        let y = p.sext(b, 64);
        assert!(!p.indices_differ(x1, y));
    }
}
