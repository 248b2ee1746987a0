//! Bounds a path condition puts on its input *words*: runs of input bytes read as one
//! integer (`concat` of selects at constant indices, an `int` from `scanf` or
//! `augur_make_symbolic(&a, 4, ..)`), compared with constants (`a < 0 || a > 1000` on a
//! path that goes on: `0 <= a <= 1000`). From a word's range follow its high bytes'
//! ranges: for `0 <= a <= 1000` (little-endian), bytes 3 and 2 are 0, byte 1 is at most
//! 3, byte 0 is free. A space narrowed so holds 2^10 values of `a` rather than 2^32,
//! where drawing points finds solutions instead of needing hashing with the solver.
//! The bounds are those every solution meets (a superset of the solutions, as a
//! [`crate::space::Space`] must be).

use augur_expr::{ArrayId, CmpOp, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;

/// An input word: its bytes, the most significant first.
pub type Word = Vec<(ArrayId, u64)>;

/// The word `e` is (at least two bytes), if it is one.
fn word(pool: &ExprPool, e: ExprId) -> Option<Word> {
    fn bytes(pool: &ExprPool, e: ExprId, out: &mut Word) -> Option<()> {
        match pool.kind(e) {
            ExprKind::Concat { hi, lo } => {
                bytes(pool, *hi, out)?;
                bytes(pool, *lo, out)
            }
            ExprKind::Select { array, index } => match pool.kind(*array) {
                ExprKind::ArraySym(a) => {
                    out.push((*a, pool.as_const(*index)? as u64));
                    Some(())
                }
                _ => None,
            },
            _ => None,
        }
    }
    let mut out = Vec::new();
    bytes(pool, e, &mut out)?;
    (out.len() >= 2).then_some(out)
}

/// How a compared value is made of a word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ext {
    /// The word itself.
    None,
    /// Zero-extended.
    Zero,
    /// Sign-extended.
    Sign,
}

/// The word `e` is, perhaps extended, and how.
fn extended_word(pool: &ExprPool, e: ExprId) -> Option<(Word, Ext)> {
    match pool.kind(e) {
        ExprKind::ZExt { expr, .. } => Some((word(pool, *expr)?, Ext::Zero)),
        ExprKind::SExt { expr, .. } => Some((word(pool, *expr)?, Ext::Sign)),
        _ => Some((word(pool, e)?, Ext::None)),
    }
}

/// A closed interval of integers.
type Range = (i128, i128);

/// The values `x op k` (or `k op x` when `flipped`), negated when `negated`, allows `x`
/// in `domain`, as one interval (None: not one interval, or nothing learnt: `!=`).
fn allowed(op: CmpOp, k: i128, flipped: bool, negated: bool, domain: Range) -> Option<Range> {
    let (lo, hi) = domain;
    // x < k, x <= k, k < x, k <= x, x == k; each negated.
    let r = match (op, flipped, negated) {
        (CmpOp::Eq, _, false) => (k, k),
        (CmpOp::Eq, _, true) => return None,
        (CmpOp::Ult | CmpOp::Slt, false, false) => (lo, k - 1),
        (CmpOp::Ult | CmpOp::Slt, false, true) => (k, hi),
        (CmpOp::Ule | CmpOp::Sle, false, false) => (lo, k),
        (CmpOp::Ule | CmpOp::Sle, false, true) => (k + 1, hi),
        (CmpOp::Ult | CmpOp::Slt, true, false) => (k + 1, hi),
        (CmpOp::Ult | CmpOp::Slt, true, true) => (lo, k),
        (CmpOp::Ule | CmpOp::Sle, true, false) => (k, hi),
        (CmpOp::Ule | CmpOp::Sle, true, true) => (lo, k - 1),
    };
    Some((r.0.max(lo), r.1.min(hi)))
}

/// `v`'s value at `width` bits, signed.
fn signed(v: u128, width: u32) -> i128 {
    let unused = 128 - width;
    ((v << unused) as i128) >> unused
}

/// Which value of a word a range is of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Reading {
    /// Its unsigned value.
    Unsigned,
    /// Its signed value.
    Signed,
}

/// The range of a word's unsigned or signed value one constraint `c` allows, with the
/// word.
fn bound(pool: &ExprPool, c: ExprId) -> Option<(Word, Reading, Range)> {
    let (mut e, mut negated) = (c, false);
    while let ExprKind::Not(inner) = pool.kind(e) {
        (e, negated) = (*inner, !negated);
    }
    let ExprKind::Cmp { op, lhs, rhs } = pool.kind(e).clone() else {
        return None;
    };
    let (x, k, flipped) = match (pool.as_const(lhs), pool.as_const(rhs)) {
        (None, Some(k)) => (lhs, k, false),
        (Some(k), None) => (rhs, k, true),
        _ => return None,
    };
    let (w, ext) = extended_word(pool, x)?;
    let width = pool.width(x);
    let n = 8 * w.len() as u32;
    let is_signed = matches!(op, CmpOp::Slt | CmpOp::Sle);
    let unsigned = (0, (1i128 << n) - 1);
    let signed_range = (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1);
    match (ext, is_signed || op == CmpOp::Eq && ext == Ext::Sign) {
        // The compared value is the word's unsigned value (zero-extension keeps it in
        // range both ways).
        (Ext::None, false) | (Ext::Zero, _) => {
            let k = match is_signed {
                true => signed(k, width),
                false => k as i128,
            };
            let r = allowed(op, k, flipped, negated, unsigned)?;
            Some((w, Reading::Unsigned, r))
        }
        // Its signed value.
        (Ext::None | Ext::Sign, true) => {
            let r = allowed(op, signed(k, width), flipped, negated, signed_range)?;
            Some((w, Reading::Signed, r))
        }
        // An unsigned comparison of a sign-extended word: not followed.
        (Ext::Sign, false) => None,
    }
}

/// The range of a word's unsigned value, of `n` bits, that a range of its signed value
/// is, when it lies on one side of 0.
fn as_unsigned((lo, hi): Range, n: u32) -> Option<Range> {
    match (lo >= 0, hi < 0) {
        (true, _) => Some((lo, hi)),
        (_, true) => Some((lo + (1 << n), hi + (1 << n))),
        _ => None,
    }
}

/// The values each byte of a word may take, the most significant first, when its
/// unsigned value lies in `range`: the high bytes while the range's ends share them.
fn byte_ranges(len: usize, range: Range) -> Vec<(u8, u8)> {
    let (mut lo, mut hi) = (range.0 as u128, range.1 as u128);
    let mut out = Vec::new();
    for k in (0..len).rev() {
        let shift = 8 * k as u32;
        let (top_lo, top_hi) = ((lo >> shift) as u8, (hi >> shift) as u8);
        out.push((top_lo, top_hi));
        if top_lo != top_hi {
            break;
        }
        let low = (1u128 << shift) - 1;
        (lo, hi) = (lo & low, hi & low);
    }
    out
}

/// Per input byte, the range of values the word bounds of `constraints` allow it (bytes
/// they say nothing of are absent): each word's constraints' ranges intersected, then
/// its high bytes' ranges.
pub fn byte_bounds(pool: &ExprPool, constraints: &[ExprId]) -> FxHashMap<(ArrayId, u64), (u8, u8)> {
    let mut ranges: FxHashMap<(Word, Reading), Range> = FxHashMap::default();
    for &c in constraints {
        if let Some((w, reading, (lo, hi))) = bound(pool, c) {
            let r = ranges.entry((w, reading)).or_insert((lo, hi));
            *r = (r.0.max(lo), r.1.min(hi));
        }
    }
    // Each word's unsigned range: its own, and its signed one's where that is one.
    let mut words: FxHashMap<Word, Range> = FxHashMap::default();
    for ((w, reading), r) in ranges {
        let n = 8 * w.len() as u32;
        let r = match reading {
            Reading::Unsigned => r,
            Reading::Signed if r.0 > r.1 => r,
            Reading::Signed => match as_unsigned(r, n) {
                Some(r) => r,
                None => continue,
            },
        };
        let e = words.entry(w).or_insert(r);
        *e = (e.0.max(r.0), e.1.min(r.1));
    }
    let mut out: FxHashMap<(ArrayId, u64), (u8, u8)> = FxHashMap::default();
    for (w, r) in words {
        if r.0 > r.1 {
            // No value: the path cannot hold (never so for a path's condition); say nothing.
            continue;
        }
        for (b, (lo, hi)) in w.iter().zip(byte_ranges(w.len(), r)) {
            let e = out.entry(*b).or_insert((lo, hi));
            *e = (e.0.max(lo), e.1.min(hi));
        }
    }
    out.retain(|_, (lo, hi)| lo <= hi);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::byte;
    use augur_expr::Assignment;

    /// An `n`-byte little-endian word of array `a`.
    fn le_word(pool: &mut ExprPool, a: ArrayId, n: u64) -> ExprId {
        let mut x = byte(pool, a, 0);
        for i in 1..n {
            let b = byte(pool, a, i);
            x = pool.concat(b, x);
        }
        x
    }

    #[test]
    fn a_signed_range_bounds_the_high_bytes() {
        // `if (a < 0 || a > 1000) return;` passed: !(a <s 0), !(1000 <s a).
        let mut pool = ExprPool::new();
        let a = pool.new_array("a", 4);
        let x = le_word(&mut pool, a, 4);
        let zero = pool.constant(0, 32);
        let thousand = pool.constant(1000, 32);
        let neg = pool.cmp(CmpOp::Slt, x, zero);
        let big = pool.cmp(CmpOp::Slt, thousand, x);
        let c = [pool.not(neg), pool.not(big)];
        let b = byte_bounds(&pool, &c);
        assert_eq!(b.get(&(a, 3)), Some(&(0, 0)));
        assert_eq!(b.get(&(a, 2)), Some(&(0, 0)));
        assert_eq!(b.get(&(a, 1)), Some(&(0, 3)));
        assert_eq!(b.get(&(a, 0)), None, "byte 0 is free");
    }

    #[test]
    fn every_solution_lies_in_the_bounds() {
        // Random comparisons of a 2-byte word (itself, zero- or sign-extended to 32
        // bits) with constants: every assignment satisfying them is inside the bounds.
        let mut rng = augur_engine::Rng::new(11);
        let mut bounded = 0;
        for _ in 0..100 {
            let mut pool = ExprPool::new();
            let a = pool.new_array("a", 2);
            let x = le_word(&mut pool, a, 2);
            let mut c = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let (side, width) = match rng.below(3) {
                    0 => (x, 16),
                    1 => (pool.zext(x, 32), 32),
                    _ => (pool.sext(x, 32), 32),
                };
                let k = match rng.below(2) {
                    0 => rng.below(1 << 16),
                    _ => rng.below(1 << width),
                };
                let k = pool.constant(u128::from(k), width);
                let op = CmpOp::ALL[rng.below(5) as usize].clone();
                let cmp = match rng.below(2) {
                    0 => pool.cmp(op, side, k),
                    _ => pool.cmp(op, k, side),
                };
                c.push(match rng.below(2) {
                    0 => cmp,
                    _ => pool.not(cmp),
                });
            }
            let b = byte_bounds(&pool, &c);
            bounded += usize::from(!b.is_empty());
            let mut checker = crate::sample::Checker::new(&pool, &c);
            for v in 0..=u16::MAX {
                let mut s = Assignment::default();
                s.set(a, v.to_le_bytes().to_vec());
                if checker.holds(&s) {
                    for (i, byte) in v.to_le_bytes().iter().enumerate() {
                        if let Some(&(lo, hi)) = b.get(&(a, i as u64)) {
                            assert!(lo <= *byte && *byte <= hi, "{v} outside {b:?}");
                        }
                    }
                }
            }
        }
        // The bounds are found, not only never wrong.
        assert!(bounded >= 30, "{bounded} of 100 sets bounded a byte");
    }
}
