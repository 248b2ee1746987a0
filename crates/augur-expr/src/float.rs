//! Concrete IEEE 754 binary32/binary64 arithmetic on bit patterns, shared by constant
//! folding, evaluation and the interpreter's concrete floating point, so that all of them
//! and the solver's translation give the same bits.
//!
//! A value's width says its format: 32 bits is binary32, 64 bits binary64. Every
//! operation rounds to nearest, ties to even. The bits of a NaN result follow x86's SSE
//! rules, which leave them otherwise unspecified by IEEE: the first NaN operand, made
//! quiet; else the second; else (an invalid operation such as `0/0`) the default NaN,
//! negative and quiet (`0xffc00000`, `0xfff8000000000000`).

use crate::bits::mask;
use crate::{FpBinOp, FpCmpOp, FpConvOp};

/// Whether `width` is a floating-point width (32 or 64).
pub fn is_float_width(width: u32) -> bool {
    width == 32 || width == 64
}

/// The number of fraction bits of the format of `width` bits (23 or 52).
pub fn fraction_bits(width: u32) -> u32 {
    if width == 32 {
        23
    } else {
        52
    }
}

/// The quiet bit of a NaN of `width` bits (the fraction's top bit).
pub fn quiet_bit(width: u32) -> u128 {
    1 << (fraction_bits(width) - 1)
}

/// The default NaN an invalid operation gives: negative and quiet, empty payload.
pub fn default_nan(width: u32) -> u128 {
    let sign = 1u128 << (width - 1);
    let exp = mask(width - 1) & !mask(fraction_bits(width));
    sign | exp | quiet_bit(width)
}

/// Whether the `width`-bit pattern `v` is a NaN.
pub fn is_nan(v: u128, width: u32) -> bool {
    let abs = v & mask(width - 1);
    abs > mask(width - 1) & !mask(fraction_bits(width))
}

/// The value of a `width`-bit pattern as an f64 (exact for both formats).
fn to_f64(v: u128, width: u32) -> f64 {
    if width == 32 {
        f64::from(f32::from_bits(v as u32))
    } else {
        f64::from_bits(v as u64)
    }
}

/// The NaN a result takes when an operand is one (the first, made quiet), if any.
fn propagated(operands: &[u128], width: u32) -> Option<u128> {
    operands
        .iter()
        .find(|&&v| is_nan(v, width))
        .map(|&v| v | quiet_bit(width))
}

/// `r` (the host's result bits) with a NaN replaced by the one the rules above give.
fn settle(r: u128, operands: &[u128], width: u32) -> u128 {
    if !is_nan(r, width) {
        return r;
    }
    propagated(operands, width).unwrap_or_else(|| default_nan(width))
}

/// `a op b` on `width`-bit floating-point patterns.
pub fn fold_fp_bin(op: FpBinOp, a: u128, b: u128, width: u32) -> u128 {
    let r = if width == 32 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        u128::from(fp_arith(op, x, y).to_bits())
    } else {
        let (x, y) = (f64::from_bits(a as u64), f64::from_bits(b as u64));
        u128::from(fp_arith(op, x, y).to_bits())
    };
    settle(r, &[a, b], width)
}

/// `x op y` in the precision of `T`.
fn fp_arith<T>(op: FpBinOp, x: T, y: T) -> T
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    match op {
        FpBinOp::Add => x + y,
        FpBinOp::Sub => x - y,
        FpBinOp::Mul => x * y,
        FpBinOp::Div => x / y,
    }
}

/// `a op b` on `width`-bit floating-point patterns (ordered: false when either is NaN,
/// except `Uno`, which says exactly that).
pub fn fold_fp_cmp(op: FpCmpOp, a: u128, b: u128, width: u32) -> bool {
    let (x, y) = (to_f64(a, width), to_f64(b, width));
    match op {
        FpCmpOp::Eq => x == y,
        FpCmpOp::Lt => x < y,
        FpCmpOp::Le => x <= y,
        FpCmpOp::Uno => x.is_nan() || y.is_nan(),
    }
}

/// The square root of the `width`-bit floating-point pattern `a`.
pub fn fold_fp_sqrt(a: u128, width: u32) -> u128 {
    let r = if width == 32 {
        u128::from(f32::from_bits(a as u32).sqrt().to_bits())
    } else {
        u128::from(f64::from_bits(a as u64).sqrt().to_bits())
    };
    settle(r, &[a], width)
}

/// The conversion `op` of the `from`-bit value `a` to `to` bits. Integers are `from` or
/// `to` bits wide (at most 128); a float that does not fit the integer saturates to its
/// bounds and NaN becomes 0 (C leaves both undefined). A NaN changing format keeps its
/// sign and the top of its payload and becomes quiet, as x86's conversions do.
pub fn fold_fp_conv(op: FpConvOp, a: u128, from: u32, to: u32) -> u128 {
    match op {
        FpConvOp::FromSInt => {
            let v = crate::bits::to_signed(a, from);
            if to == 32 {
                u128::from((v as f32).to_bits())
            } else {
                u128::from((v as f64).to_bits())
            }
        }
        FpConvOp::FromUInt => {
            if to == 32 {
                u128::from((a as f32).to_bits())
            } else {
                u128::from((a as f64).to_bits())
            }
        }
        FpConvOp::ToSInt => {
            let bound = 1i128 << (to - 1).min(126);
            let v = to_f64(a, from) as i128;
            let v = if to == 128 {
                v
            } else {
                v.clamp(-bound, bound - 1)
            };
            (v as u128) & mask(to)
        }
        FpConvOp::ToUInt => (to_f64(a, from) as u128).min(mask(to)),
        FpConvOp::Resize => resize(a, from, to),
    }
}

/// `a` converted between the two formats.
fn resize(a: u128, from: u32, to: u32) -> u128 {
    if is_nan(a, from) {
        let sign = (a >> (from - 1)) << (to - 1);
        let frac = a & mask(fraction_bits(from));
        let frac = if to > from {
            frac << (fraction_bits(to) - fraction_bits(from))
        } else {
            frac >> (fraction_bits(from) - fraction_bits(to))
        };
        let exp = mask(to - 1) & !mask(fraction_bits(to));
        return sign | exp | frac | quiet_bit(to);
    }
    let v = to_f64(a, from);
    if to == 32 {
        u128::from((v as f32).to_bits())
    } else {
        u128::from(v.to_bits())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f32) -> u128 {
        u128::from(v.to_bits())
    }

    fn d(v: f64) -> u128 {
        u128::from(v.to_bits())
    }

    #[test]
    fn arithmetic_rounds_in_its_own_precision() {
        // 0.1f + 0.2f rounds once in binary32: 0.3f exactly, unlike 0.1 + 0.2 in binary64.
        assert_eq!(fold_fp_bin(FpBinOp::Add, f(0.1), f(0.2), 32), f(0.3));
        assert_eq!(
            fold_fp_bin(FpBinOp::Add, d(0.1), d(0.2), 64),
            d(0.300_000_000_000_000_04)
        );
        assert_eq!(fold_fp_bin(FpBinOp::Div, d(1.0), d(3.0), 64), d(1.0 / 3.0));
        assert_eq!(
            fold_fp_bin(FpBinOp::Mul, f(1e20), f(1e20), 32),
            f(f32::INFINITY)
        );
        assert_eq!(fold_fp_bin(FpBinOp::Sub, d(5.0), d(5.0), 64), d(0.0));
    }

    #[test]
    fn nan_results_follow_the_sse_rules() {
        let qnan = d(f64::NAN);
        let snan_payload = 0x7ff0_0000_0000_0001u128;
        assert_eq!(
            fold_fp_bin(FpBinOp::Div, d(0.0), d(0.0), 64),
            0xfff8_0000_0000_0000
        );
        assert_eq!(
            fold_fp_bin(FpBinOp::Sub, f(f32::INFINITY), f(f32::INFINITY), 32),
            0xffc0_0000
        );
        assert_eq!(fold_fp_bin(FpBinOp::Add, qnan, d(1.0), 64), qnan);
        assert_eq!(
            fold_fp_bin(FpBinOp::Mul, d(2.0), snan_payload, 64),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(
            fold_fp_bin(FpBinOp::Add, snan_payload, qnan, 64),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(fold_fp_sqrt(d(-1.0), 64), 0xfff8_0000_0000_0000);
        assert_eq!(fold_fp_sqrt(d(-0.0), 64), d(-0.0));
        assert_eq!(fold_fp_sqrt(f(2.25), 32), f(1.5));
    }

    #[test]
    fn comparisons_are_ordered() {
        let nan = d(f64::NAN);
        assert!(fold_fp_cmp(FpCmpOp::Eq, d(0.0), d(-0.0), 64));
        assert!(!fold_fp_cmp(FpCmpOp::Eq, nan, nan, 64));
        assert!(!fold_fp_cmp(FpCmpOp::Le, nan, d(1.0), 64));
        assert!(fold_fp_cmp(FpCmpOp::Uno, d(1.0), nan, 64));
        assert!(!fold_fp_cmp(FpCmpOp::Uno, d(1.0), d(2.0), 64));
        assert!(fold_fp_cmp(FpCmpOp::Lt, f(-1.0), f(f32::INFINITY), 32));
        assert!(fold_fp_cmp(FpCmpOp::Le, f(2.0), f(2.0), 32));
    }

    #[test]
    fn integer_conversions_round_and_saturate() {
        // 2^24 + 1 is not a binary32 value: it rounds to even (2^24).
        assert_eq!(
            fold_fp_conv(FpConvOp::FromSInt, (1 << 24) + 1, 32, 32),
            f(16_777_216.0)
        );
        assert_eq!(
            fold_fp_conv(FpConvOp::FromSInt, 0xffff_fff9, 32, 64),
            d(-7.0)
        );
        assert_eq!(
            fold_fp_conv(FpConvOp::FromUInt, 0xffff_fff9, 32, 64),
            d(4_294_967_289.0)
        );
        assert_eq!(fold_fp_conv(FpConvOp::ToSInt, d(-7.9), 64, 32), 0xffff_fff9);
        assert_eq!(fold_fp_conv(FpConvOp::ToSInt, d(1e10), 64, 32), 0x7fff_ffff);
        assert_eq!(
            fold_fp_conv(FpConvOp::ToSInt, d(-1e10), 64, 32),
            0x8000_0000
        );
        assert_eq!(fold_fp_conv(FpConvOp::ToSInt, d(f64::NAN), 64, 8), 0);
        assert_eq!(fold_fp_conv(FpConvOp::ToUInt, f(300.5), 32, 8), 0xff);
        assert_eq!(fold_fp_conv(FpConvOp::ToUInt, f(-3.0), 32, 8), 0);
        assert_eq!(fold_fp_conv(FpConvOp::ToUInt, f(250.9), 32, 8), 250);
    }

    #[test]
    fn format_changes_round_and_keep_nan_payloads() {
        assert_eq!(fold_fp_conv(FpConvOp::Resize, d(0.1), 64, 32), f(0.1));
        assert_eq!(
            fold_fp_conv(FpConvOp::Resize, f(0.1), 32, 64),
            d(f64::from(0.1f32))
        );
        assert_eq!(
            fold_fp_conv(FpConvOp::Resize, d(1e300), 64, 32),
            f(f32::INFINITY)
        );
        assert_eq!(
            fold_fp_conv(FpConvOp::Resize, 0xffc0_0001, 32, 64),
            0xfff8_0000_2000_0000
        );
        assert_eq!(
            fold_fp_conv(FpConvOp::Resize, 0x7ff0_0000_2000_0000, 64, 32),
            0x7fc0_0001
        );
    }

    #[test]
    fn classifies_nans() {
        assert!(is_nan(0x7fc0_0000, 32));
        assert!(is_nan(0xff80_0001, 32));
        assert!(!is_nan(0xff80_0000, 32));
        assert!(is_nan(default_nan(64), 64));
        assert_eq!(default_nan(32), 0xffc0_0000);
    }
}
