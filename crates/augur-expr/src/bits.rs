//! Concrete bit-vector arithmetic on `u128` values with SMT-LIB semantics, shared by
//! constant folding and evaluation.

use crate::{BinOp, CmpOp};

/// All-ones mask of `width` bits (`width` in 1..=128).
#[inline]
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Interprets the low `width` bits of `value` as a two's-complement number.
#[inline]
pub fn to_signed(value: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((value << shift) as i128) >> shift
}

/// Sign-extends a `from`-bit value to `to` bits.
#[inline]
pub fn sign_extend(value: u128, from: u32, to: u32) -> u128 {
    (to_signed(value, from) as u128) & mask(to)
}

/// `a op b` on `width`-bit values (inputs must already be masked).
pub fn fold_bin(op: &BinOp, a: u128, b: u128, width: u32) -> u128 {
    let m = mask(width);
    let signed = |v| to_signed(v, width);
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a.checked_div(b).unwrap_or(m),
        BinOp::URem => a.checked_rem(b).unwrap_or(a),
        BinOp::SDiv if b == 0 => {
            if signed(a) < 0 {
                1
            } else {
                m
            }
        }
        BinOp::SDiv => signed(a).wrapping_div(signed(b)) as u128,
        BinOp::SRem if b == 0 => a,
        BinOp::SRem => signed(a).wrapping_rem(signed(b)) as u128,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl if b >= width as u128 => 0,
        BinOp::Shl => a << b,
        BinOp::LShr if b >= width as u128 => 0,
        BinOp::LShr => a >> b,
        BinOp::AShr => (signed(a) >> b.min(width as u128 - 1)) as u128,
    };
    r & m
}

/// `a op b` on `width`-bit values (inputs must already be masked).
pub fn fold_cmp(op: &CmpOp, a: u128, b: u128, width: u32) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Slt => to_signed(a, width) < to_signed(b, width),
        CmpOp::Sle => to_signed(a, width) <= to_signed(b, width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(8), 0xff);
        assert_eq!(mask(127), u128::MAX >> 1);
        assert_eq!(mask(128), u128::MAX);
    }

    #[test]
    fn signed_views() {
        assert_eq!(to_signed(0xff, 8), -1);
        assert_eq!(to_signed(0x7f, 8), 127);
        assert_eq!(to_signed(u128::MAX, 128), -1);
        assert_eq!(sign_extend(0x80, 8, 16), 0xff80);
        assert_eq!(sign_extend(1, 1, 128), u128::MAX);
    }

    #[test]
    fn division_by_zero_follows_smtlib() {
        assert_eq!(fold_bin(&BinOp::UDiv, 5, 0, 8), 0xff);
        assert_eq!(fold_bin(&BinOp::URem, 5, 0, 8), 5);
        assert_eq!(fold_bin(&BinOp::SDiv, 5, 0, 8), 0xff);
        assert_eq!(fold_bin(&BinOp::SDiv, 0xfb, 0, 8), 1);
        assert_eq!(fold_bin(&BinOp::SRem, 0xfb, 0, 8), 0xfb);
    }

    #[test]
    fn signed_division_truncates_and_wraps() {
        // -7 / 2 = -3, -7 % 2 = -1 (sign of the dividend)
        assert_eq!(fold_bin(&BinOp::SDiv, 0xf9, 2, 8), 0xfd);
        assert_eq!(fold_bin(&BinOp::SRem, 0xf9, 2, 8), 0xff);
        assert_eq!(fold_bin(&BinOp::SRem, 7, 0xfe, 8), 1);
        // INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 = 0
        assert_eq!(fold_bin(&BinOp::SDiv, 0x80, 0xff, 8), 0x80);
        assert_eq!(fold_bin(&BinOp::SRem, 0x80, 0xff, 8), 0);
        let min = 1u128 << 127;
        assert_eq!(fold_bin(&BinOp::SDiv, min, u128::MAX, 128), min);
    }

    #[test]
    fn wide_arithmetic_masks() {
        assert_eq!(fold_bin(&BinOp::Add, u128::MAX, 2, 128), 1);
        assert_eq!(fold_bin(&BinOp::Mul, 1 << 100, 1 << 30, 128), 0);
        assert_eq!(fold_bin(&BinOp::Sub, 0, 1, 100), mask(100));
        assert_eq!(fold_bin(&BinOp::Mul, 0xff, 0xff, 8), 1);
    }

    #[test]
    fn shifts_by_width_or_more() {
        assert_eq!(fold_bin(&BinOp::Shl, 1, 8, 8), 0);
        assert_eq!(fold_bin(&BinOp::Shl, 1, 7, 8), 0x80);
        assert_eq!(fold_bin(&BinOp::Shl, 3, 7, 8), 0x80);
        assert_eq!(fold_bin(&BinOp::LShr, 0x80, 200, 8), 0);
        assert_eq!(fold_bin(&BinOp::AShr, 0x80, 200, 8), 0xff);
        assert_eq!(fold_bin(&BinOp::AShr, 0x40, 200, 8), 0);
        assert_eq!(fold_bin(&BinOp::AShr, 0x80, 1, 8), 0xc0);
        assert_eq!(fold_bin(&BinOp::Shl, 1, 127, 128), 1 << 127);
        assert_eq!(fold_bin(&BinOp::LShr, 1 << 127, 128, 128), 0);
    }

    #[test]
    fn comparisons() {
        assert!(fold_cmp(&CmpOp::Ult, 1, 0xff, 8));
        assert!(!fold_cmp(&CmpOp::Slt, 1, 0xff, 8));
        assert!(fold_cmp(&CmpOp::Sle, 0xff, 0xff, 8));
        assert!(fold_cmp(&CmpOp::Slt, 1 << 127, 0, 128));
        assert!(fold_cmp(&CmpOp::Eq, 3, 3, 2));
    }
}
