//! Floating point, computed concretely with exact IEEE results (the host's f32/f64).
//! A symbolic operand is made concrete first; each such concretization is counted.
//! x86 80-bit values are computed as doubles.

use super::{Exec, Executor};
use crate::outcome::ErrorKind;
use crate::state::State;
use crate::value::{sign_extend, Value};
use augur_ir::{FpCastOp, FpKind, FpOp, FpPred};

/// Convert x87 80-bit extended bits to a double.
pub fn f80_to_f64(bits: u128) -> f64 {
    let mantissa = bits as u64;
    let exp = ((bits >> 64) & 0x7fff) as i32;
    let sign = (bits >> 79) & 1 == 1;
    let v = if exp == 0 && mantissa == 0 {
        0.0
    } else if exp == 0x7fff {
        if mantissa << 1 == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else {
        (mantissa as f64) * 2f64.powi(-63) * 2f64.powi(exp - 16383)
    };
    if sign {
        -v
    } else {
        v
    }
}

/// Convert a double to x87 80-bit extended bits.
pub fn f64_to_f80(v: f64) -> u128 {
    let sign = (v.is_sign_negative() as u128) << 79;
    if v == 0.0 {
        return sign;
    }
    if v.is_nan() {
        return sign | (0x7fffu128 << 64) | (0xc000_0000_0000_0000u128);
    }
    if v.is_infinite() {
        return sign | (0x7fffu128 << 64) | (1u128 << 63);
    }
    let b = v.abs().to_bits();
    let (mut exp, mut mant) = (((b >> 52) & 0x7ff) as i32, b & ((1 << 52) - 1));
    if exp == 0 {
        // Subnormal double: normalise.
        let shift = mant.leading_zeros() as i32 - 11;
        mant <<= shift;
        mant &= (1 << 52) - 1;
        exp = 1 - shift;
    }
    let m80 = (1u64 << 63) | (mant << 11);
    let e80 = (exp - 1023 + 16383) as u128;
    sign | (e80 << 64) | m80 as u128
}

fn to_f64(bits: u128, kind: FpKind) -> f64 {
    match kind {
        FpKind::F32 => f32::from_bits(bits as u32) as f64,
        FpKind::F64 => f64::from_bits(bits as u64),
        FpKind::F80 => f80_to_f64(bits),
    }
}

fn from_f64(v: f64, kind: FpKind) -> Value {
    match kind {
        FpKind::F32 => Value::con((v as f32).to_bits() as u128, 32),
        FpKind::F64 => Value::con(v.to_bits() as u128, 64),
        FpKind::F80 => Value::con(f64_to_f80(v), 80),
    }
}

fn concrete(ex: &mut Executor, st: &mut State, v: &Value) -> Exec<u128> {
    if let Value::Sym(_) = v {
        ex.stats.float_concretizations += 1;
    }
    ex.concretize(st, v)
}

/// Floating-point arithmetic.
pub fn binary(
    ex: &mut Executor,
    st: &mut State,
    op: FpOp,
    a: &Value,
    b: &Value,
    kind: FpKind,
) -> Exec<Value> {
    let (a, b) = (concrete(ex, st, a)?, concrete(ex, st, b)?);
    if kind == FpKind::F32 {
        // Single precision must round after every operation.
        let r = arith(op, f32::from_bits(a as u32), f32::from_bits(b as u32));
        return Ok(Value::con(r.to_bits() as u128, 32));
    }
    Ok(from_f64(arith(op, to_f64(a, kind), to_f64(b, kind)), kind))
}

/// `x op y` in the precision of `T`.
fn arith<T>(op: FpOp, x: T, y: T) -> T
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>
        + std::ops::Rem<Output = T>,
{
    match op {
        FpOp::Add => x + y,
        FpOp::Sub => x - y,
        FpOp::Mul => x * y,
        FpOp::Div => x / y,
        FpOp::Rem => x % y,
    }
}

/// Floating-point negation (flips the sign bit).
pub fn negate(ex: &mut Executor, st: &mut State, a: &Value, kind: FpKind) -> Exec<Value> {
    let a = concrete(ex, st, a)?;
    Ok(Value::con(a ^ (1u128 << (kind.bits() - 1)), kind.bits()))
}

/// Floating-point comparison.
pub fn compare(
    ex: &mut Executor,
    st: &mut State,
    pred: FpPred,
    a: &Value,
    b: &Value,
    kind: FpKind,
) -> Exec<Value> {
    let (x, y) = (
        to_f64(concrete(ex, st, a)?, kind),
        to_f64(concrete(ex, st, b)?, kind),
    );
    let uno = x.is_nan() || y.is_nan();
    let r = match pred {
        FpPred::False => false,
        FpPred::True => true,
        FpPred::Ord => !uno,
        FpPred::Uno => uno,
        FpPred::Oeq => !uno && x == y,
        FpPred::Ogt => !uno && x > y,
        FpPred::Oge => !uno && x >= y,
        FpPred::Olt => !uno && x < y,
        FpPred::Ole => !uno && x <= y,
        FpPred::One => !uno && x != y,
        FpPred::Ueq => uno || x == y,
        FpPred::Ugt => uno || x > y,
        FpPred::Uge => uno || x >= y,
        FpPred::Ult => uno || x < y,
        FpPred::Ule => uno || x <= y,
        FpPred::Une => uno || x != y,
    };
    Ok(Value::bool(r))
}

/// Casts to, from and between floating-point formats.
pub fn cast(
    ex: &mut Executor,
    st: &mut State,
    op: FpCastOp,
    a: &Value,
    from: FpKind,
    to: FpKind,
    int_width: u32,
) -> Exec<Value> {
    if int_width > 128 && op != FpCastOp::Resize {
        return Err(ex.error(
            st,
            ErrorKind::Unsupported,
            format!("conversion between floating point and i{int_width}"),
        ));
    }
    let bits = concrete(ex, st, a)?;
    Ok(match op {
        FpCastOp::Resize => from_f64(to_f64(bits, from), to),
        FpCastOp::ToSInt => {
            let v = to_f64(bits, from);
            Value::con(saturating_to_int(v, int_width, true), int_width)
        }
        FpCastOp::ToUInt => {
            let v = to_f64(bits, from);
            Value::con(saturating_to_int(v, int_width, false), int_width)
        }
        FpCastOp::FromSInt => int_to_float(
            sign_extend(bits, int_width) as f64,
            sign_extend(bits, int_width),
            to,
        ),
        FpCastOp::FromUInt => int_to_float(bits as f64, bits as i128, to),
    })
}

/// An integer to float conversion rounding once (f32 from the integer, not via f64).
fn int_to_float(as_f64: f64, exact: i128, to: FpKind) -> Value {
    match to {
        FpKind::F32 => Value::con((exact as f32).to_bits() as u128, 32),
        _ => from_f64(as_f64, to),
    }
}

/// Truncate toward zero; out-of-range results are undefined in C: use Rust's saturation.
fn saturating_to_int(v: f64, width: u32, signed: bool) -> u128 {
    if signed {
        let r = v as i128;
        let lo = -(1i128 << (width - 1).min(126));
        let hi = (1i128 << (width - 1).min(126)) - 1;
        r.clamp(lo, hi) as u128
    } else {
        v as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f80_round_trips_doubles() {
        for v in [1.0, -2.5, 1e300, std::f64::consts::PI, 1e-310, 0.0] {
            assert_eq!(f80_to_f64(f64_to_f80(v)), v, "{v}");
        }
        assert!(f80_to_f64(f64_to_f80(f64::NAN)).is_nan());
    }
}
