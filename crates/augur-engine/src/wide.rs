//! Concrete arithmetic on integers wider than 128 bits, held as little-endian 64-bit words.
//!
//! Every function takes and returns words masked to the given width (`words(width)` words
//! long); shifts by the width or more follow SMT-LIB as the 128-bit folding does (`shl` and
//! `lshr` give zero, `ashr` gives copies of the sign bit).

use std::cmp::Ordering;

/// Number of 64-bit words holding `width` bits.
pub fn words(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

/// Clear the bits of `w` at and above `width`.
pub fn mask_in_place(w: &mut [u64], width: u32) {
    for (i, word) in w.iter_mut().enumerate() {
        let lo = i as u32 * 64;
        if lo >= width {
            *word = 0;
        } else if width - lo < 64 {
            *word &= (1u64 << (width - lo)) - 1;
        }
    }
}

/// `v` zero-extended (or truncated) to exactly `words(width)` words, masked to `width`.
pub fn resize(v: &[u64], width: u32) -> Vec<u64> {
    let mut out = vec![0u64; words(width)];
    for (o, x) in out.iter_mut().zip(v) {
        *o = *x;
    }
    mask_in_place(&mut out, width);
    out
}

/// The words of a 128-bit value, zero-extended to `width` bits.
pub fn from_u128(bits: u128, width: u32) -> Vec<u64> {
    resize(&[bits as u64, (bits >> 64) as u64], width)
}

/// The low 128 bits.
pub fn low_u128(v: &[u64]) -> u128 {
    let lo = v.first().copied().unwrap_or(0) as u128;
    let hi = v.get(1).copied().unwrap_or(0) as u128;
    lo | (hi << 64)
}

/// Bit `i` of `v` (false past the end).
pub fn bit(v: &[u64], i: u32) -> bool {
    v.get(i as usize / 64)
        .is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// Is the top bit (bit `width - 1`) set?
pub fn is_negative(v: &[u64], width: u32) -> bool {
    width > 0 && bit(v, width - 1)
}

/// `v` (a `from`-bit value) sign-extended to `to` bits (`to >= from`).
pub fn sext(v: &[u64], from: u32, to: u32) -> Vec<u64> {
    let mut out = resize(v, to);
    if is_negative(v, from) {
        for i in from..to {
            out[i as usize / 64] |= 1u64 << (i % 64);
        }
    }
    out
}

/// Bitwise and.
pub fn and(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

/// Bitwise or.
pub fn or(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

/// Bitwise exclusive or.
pub fn xor(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// `a + b` modulo 2^width.
pub fn add(a: &[u64], b: &[u64], width: u32) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut carry = false;
    for (x, y) in a.iter().zip(b) {
        let (s1, c1) = x.overflowing_add(*y);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        out.push(s2);
        carry = c1 || c2;
    }
    mask_in_place(&mut out, width);
    out
}

/// `a - b` modulo 2^width.
pub fn sub(a: &[u64], b: &[u64], width: u32) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = false;
    for (x, y) in a.iter().zip(b) {
        let (d1, b1) = x.overflowing_sub(*y);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        out.push(d2);
        borrow = b1 || b2;
    }
    mask_in_place(&mut out, width);
    out
}

/// The shift amount held in `amount`, or `None` if it is `width` or more.
fn shift_amount(amount: &[u64], width: u32) -> Option<u32> {
    if amount.iter().skip(1).any(|w| *w != 0)
        || amount.first().copied().unwrap_or(0) >= width as u64
    {
        return None;
    }
    Some(amount.first().copied().unwrap_or(0) as u32)
}

/// `v` shifted left by `n` bits (`n` may exceed the width), masked to `width`.
pub fn shl_by(v: &[u64], n: u32, width: u32) -> Vec<u64> {
    let len = words(width);
    let mut out = vec![0u64; len];
    let (q, r) = ((n / 64) as usize, n % 64);
    for (src, o) in out.iter_mut().skip(q).enumerate() {
        let mut w = v.get(src).copied().unwrap_or(0) << r;
        if r > 0 && src > 0 {
            w |= v.get(src - 1).copied().unwrap_or(0) >> (64 - r);
        }
        *o = w;
    }
    mask_in_place(&mut out, width);
    out
}

/// `v` shifted right by `n` bits, filling with `fill` bits, masked to `width`.
fn shr_by(v: &[u64], n: u32, width: u32, fill: bool) -> Vec<u64> {
    let len = words(width);
    let v = if fill {
        sext(v, width, len as u32 * 64)
    } else {
        resize(v, len as u32 * 64)
    };
    let ext = if fill { u64::MAX } else { 0 };
    let get = |i: usize| v.get(i).copied().unwrap_or(ext);
    let mut out = vec![0u64; len];
    let (q, r) = ((n / 64) as usize, n % 64);
    for (i, o) in out.iter_mut().enumerate() {
        let mut w = get(i + q) >> r;
        if r > 0 {
            w |= get(i + q + 1) << (64 - r);
        }
        *o = w;
    }
    mask_in_place(&mut out, width);
    out
}

/// `v << amount` (zero for an amount of `width` or more).
pub fn shl(v: &[u64], amount: &[u64], width: u32) -> Vec<u64> {
    match shift_amount(amount, width) {
        Some(n) => shl_by(v, n, width),
        None => vec![0; words(width)],
    }
}

/// Logical `v >> amount` (zero for an amount of `width` or more).
pub fn lshr(v: &[u64], amount: &[u64], width: u32) -> Vec<u64> {
    match shift_amount(amount, width) {
        Some(n) => shr_by(v, n, width, false),
        None => vec![0; words(width)],
    }
}

/// Arithmetic `v >> amount` (all sign bits for an amount of `width` or more).
pub fn ashr(v: &[u64], amount: &[u64], width: u32) -> Vec<u64> {
    let neg = is_negative(v, width);
    let n = shift_amount(amount, width).unwrap_or(width.saturating_sub(1));
    shr_by(v, n, width, neg)
}

/// Unsigned comparison.
pub fn cmp_unsigned(a: &[u64], b: &[u64]) -> Ordering {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        match x.cmp(&y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    Ordering::Equal
}

/// Signed (two's complement, `width` bits) comparison.
pub fn cmp_signed(a: &[u64], b: &[u64], width: u32) -> Ordering {
    match (is_negative(a, width), is_negative(b, width)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => cmp_unsigned(a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: u32 = 152;

    fn v(lo: u128, top: u64) -> Vec<u64> {
        let mut w = from_u128(lo, W);
        w[2] = top;
        mask_in_place(&mut w, W);
        w
    }

    #[test]
    fn masks_to_width() {
        let mut w = vec![u64::MAX; 3];
        mask_in_place(&mut w, W);
        assert_eq!(w, vec![u64::MAX, u64::MAX, (1 << 24) - 1]);
        let mut w = vec![u64::MAX; 2];
        mask_in_place(&mut w, 128);
        assert_eq!(w, vec![u64::MAX; 2]);
        assert_eq!(words(152), 3);
        assert_eq!(words(192), 3);
        assert_eq!(words(193), 4);
        assert_eq!(resize(&[1, 2, 3, 4], 130), vec![1, 2, 3]);
    }

    #[test]
    fn shifts_by_zero_multiples_of_64_and_past_the_width() {
        let x = v(0x1234_5678_9abc_def0_1111_2222_3333_4444, 0xab_cdef);
        assert_eq!(shl(&x, &[0], W), x);
        assert_eq!(lshr(&x, &[0], W), x);
        assert_eq!(ashr(&x, &[0], W), x);
        assert_eq!(shl(&x, &[64], W), vec![0, x[0], x[1] & ((1 << 24) - 1)]);
        assert_eq!(lshr(&x, &[64], W), vec![x[1], x[2], 0]);
        assert_eq!(lshr(&x, &[128], W), vec![x[2], 0, 0]);
        assert_eq!(shl(&x, &[152], W), vec![0, 0, 0]);
        assert_eq!(lshr(&x, &[1000], W), vec![0, 0, 0]);
        assert_eq!(lshr(&x, &[0, 1], W), vec![0, 0, 0]);
        assert_eq!(shl(&[1, 0, 0], &[151], W), vec![0, 0, 1 << 23]);
        assert_eq!(lshr(&[0, 0, 1 << 23], &[151], W), vec![1, 0, 0]);
        assert_eq!(shl(&[u64::MAX, 0, 0], &[4], W), vec![!0xf, 0xf, 0]);
        assert_eq!(lshr(&[0, 0xf, 0], &[4], W), vec![0xf << 60, 0, 0]);
    }

    #[test]
    fn arithmetic_shift_copies_the_sign() {
        let neg = v(0, 1 << 23); // only the top bit set
        assert_eq!(
            ashr(&neg, &[151], W),
            vec![u64::MAX, u64::MAX, (1 << 24) - 1]
        );
        assert_eq!(
            ashr(&neg, &[500], W),
            vec![u64::MAX, u64::MAX, (1 << 24) - 1]
        );
        // Bit 151 lands on bit 63 and every bit above is a copy of it.
        assert_eq!(ashr(&neg, &[88], W), vec![1 << 63, u64::MAX, (1 << 24) - 1]);
        assert_eq!(
            ashr(&neg, &[120], W),
            vec![u64::MAX << 31, u64::MAX, (1 << 24) - 1]
        );
        let pos = v(0, 1 << 22);
        assert_eq!(ashr(&pos, &[150], W), vec![1, 0, 0]);
        assert_eq!(ashr(&pos, &[500], W), vec![0, 0, 0]);
    }

    #[test]
    fn sign_and_zero_extension() {
        assert_eq!(
            sext(&[0x80], 8, W),
            vec![u64::MAX << 7, u64::MAX, (1 << 24) - 1]
        );
        assert_eq!(sext(&[0x7f], 8, W), vec![0x7f, 0, 0]);
        assert_eq!(
            sext(&from_u128(u128::MAX, 128), 128, 200),
            vec![u64::MAX, u64::MAX, u64::MAX, 0xff]
        );
        assert_eq!(from_u128(u128::MAX, W), vec![u64::MAX, u64::MAX, 0]);
        assert_eq!(low_u128(&[1, 2, 3]), 1 | (2u128 << 64));
    }

    #[test]
    fn add_and_sub_carry_across_words() {
        let max = vec![u64::MAX, u64::MAX, (1 << 24) - 1];
        assert_eq!(add(&max, &[1, 0, 0], W), vec![0, 0, 0]);
        assert_eq!(add(&[u64::MAX, 0, 0], &[1, 0, 0], W), vec![0, 1, 0]);
        assert_eq!(add(&[u64::MAX, u64::MAX, 0], &[1, 0, 0], W), vec![0, 0, 1]);
        assert_eq!(sub(&[0, 0, 0], &[1, 0, 0], W), max);
        assert_eq!(sub(&[0, 1, 0], &[1, 0, 0], W), vec![u64::MAX, 0, 0]);
        assert_eq!(sub(&[5, 7, 9], &[5, 7, 9], W), vec![0, 0, 0]);
    }

    #[test]
    fn bitwise_and_comparisons() {
        let a = vec![0b1100, 1, 2];
        let b = vec![0b1010, 3, 0];
        assert_eq!(and(&a, &b), vec![0b1000, 1, 0]);
        assert_eq!(or(&a, &b), vec![0b1110, 3, 2]);
        assert_eq!(xor(&a, &b), vec![0b0110, 2, 2]);
        assert_eq!(cmp_unsigned(&a, &b), Ordering::Greater);
        assert_eq!(cmp_unsigned(&a, &a), Ordering::Equal);
        let neg = v(0, 1 << 23);
        assert_eq!(cmp_unsigned(&neg, &a), Ordering::Greater);
        assert_eq!(cmp_signed(&neg, &a, W), Ordering::Less);
        assert_eq!(cmp_signed(&a, &neg, W), Ordering::Greater);
        let minus_one = vec![u64::MAX, u64::MAX, (1 << 24) - 1];
        assert_eq!(cmp_signed(&neg, &minus_one, W), Ordering::Less);
    }
}
