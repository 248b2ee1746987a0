//! Floating point. binary32 and binary64 values compute with `augur_expr::float`'s exact
//! IEEE semantics: at once on concrete operands, as expressions on symbolic ones (solved
//! with Z3's floating-point theory), or, under `--float concrete`, on symbolic operands
//! made concrete first (each concretization counted). Negation flips the sign bit, also
//! symbolically. x86 80-bit values (`long double`) and `frem` compute concretely, x87
//! values as doubles.

use super::{Exec, Executor};
use crate::outcome::ErrorKind;
use crate::state::State;
use crate::value::{sign_extend, Value};
use augur_expr::bits::mask;
use augur_expr::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv};
use augur_expr::{BinOp, ExprId, FpBinOp, FpCmpOp, FpConvOp};
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

/// The width of a format the expressions have (binary32, binary64); None for x87's.
fn expr_width(kind: FpKind) -> Option<u32> {
    match kind {
        FpKind::F32 => Some(32),
        FpKind::F64 => Some(64),
        FpKind::F80 => None,
    }
}

fn concrete(ex: &mut Executor, st: &mut State, v: &Value) -> Exec<u128> {
    if let Value::Sym(_) = v {
        ex.stats.float_concretizations += 1;
    }
    ex.concretize(st, v)
}

/// Whether `v` is a scalar that has an expression (concrete or symbolic).
fn scalar(v: &Value) -> bool {
    matches!(v, Value::Con { .. } | Value::Sym(_))
}

/// Whether some of `vs` is symbolic and all are scalars: the operation is an expression.
fn symbolic(vs: &[&Value]) -> bool {
    vs.iter().any(|v| matches!(v, Value::Sym(_))) && vs.iter().all(|v| scalar(v))
}

/// The operands of a floating-point operation on binary32/binary64: their bits when all
/// are concrete; else their expressions, made concrete first (counted) under
/// `--float concrete` (an aggregate is an error there).
fn operands<const N: usize>(
    ex: &mut Executor,
    st: &mut State,
    vs: [&Value; N],
) -> Exec<Result<[u128; N], [ExprId; N]>> {
    if !ex.opts.symbolic_floats || !symbolic(&vs) {
        let mut bits = [0; N];
        for (b, v) in bits.iter_mut().zip(vs) {
            *b = concrete(ex, st, v)?;
        }
        return Ok(Ok(bits));
    }
    Ok(Err(vs.map(|v| v.expr(&mut ex.pool))))
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
    let fp_op = match op {
        FpOp::Add => Some(FpBinOp::Add),
        FpOp::Sub => Some(FpBinOp::Sub),
        FpOp::Mul => Some(FpBinOp::Mul),
        FpOp::Div => Some(FpBinOp::Div),
        FpOp::Rem => None,
    };
    if let (Some(fp_op), Some(w)) = (fp_op, expr_width(kind)) {
        return Ok(match operands(ex, st, [a, b])? {
            Ok([x, y]) => Value::con(fold_fp_bin(fp_op, x, y, w), w),
            Err([x, y]) => {
                let e = ex.pool.fp_bin(fp_op, x, y);
                Value::from_expr(&ex.pool, e)
            }
        });
    }
    // `frem` (C's fmod, which the solver's IEEE remainder is not) and x87 values:
    // concrete, in the host's precision of the format (x87 as doubles).
    let (a, b) = (concrete(ex, st, a)?, concrete(ex, st, b)?);
    if kind == FpKind::F32 {
        let r = f32::from_bits(a as u32) % f32::from_bits(b as u32);
        return Ok(Value::con(r.to_bits() as u128, 32));
    }
    let (x, y) = (to_f64(a, kind), to_f64(b, kind));
    Ok(from_f64(
        match op {
            FpOp::Add => x + y,
            FpOp::Sub => x - y,
            FpOp::Mul => x * y,
            FpOp::Div => x / y,
            FpOp::Rem => x % y,
        },
        kind,
    ))
}

/// Floating-point negation: the sign bit flipped (for symbolic values too, in every
/// format: no floating-point theory needed).
pub fn negate(ex: &mut Executor, st: &mut State, a: &Value, kind: FpKind) -> Exec<Value> {
    let w = kind.bits();
    if !scalar(a) {
        concrete(ex, st, a)?;
    }
    let e = a.expr(&mut ex.pool);
    let sign = ex.pool.constant(1 << (w - 1), w);
    let flipped = ex.pool.bin(BinOp::Xor, sign, e);
    Ok(Value::from_expr(&ex.pool, flipped))
}

/// The math intrinsics that stay symbolic on a symbolic operand: `fabs` and `copysign`
/// (sign-bit operations, in every format) and, unless `--float concrete`, `sqrt` of
/// binary32/binary64. None for the others and for concrete operands (computed concretely
/// by the caller).
pub fn symbolic_math(
    ex: &mut Executor,
    family: &str,
    args: &[Value],
    kind: FpKind,
) -> Option<Value> {
    if args.iter().all(|a| matches!(a, Value::Con { .. })) {
        return None;
    }
    let w = kind.bits();
    let p = &mut ex.pool;
    let e = match family {
        "fabs" | "copysign" => {
            let x = args[0].expr(p);
            let magnitude = p.constant(mask(w - 1), w);
            let abs = p.bin(BinOp::And, magnitude, x);
            if family == "fabs" {
                abs
            } else {
                let y = args[1].expr(p);
                let sign_bit = p.constant(1 << (w - 1), w);
                let sign = p.bin(BinOp::And, sign_bit, y);
                p.bin(BinOp::Or, abs, sign)
            }
        }
        "sqrt" if ex.opts.symbolic_floats && expr_width(kind).is_some() => {
            let x = args[0].expr(p);
            p.fp_sqrt(x)
        }
        _ => return None,
    };
    Some(Value::from_expr(p, e))
}

/// An `fcmp` predicate as a disjunction of comparisons (each with its operands swapped
/// or not), negated or not; an empty disjunction is false.
fn predicate(pred: FpPred) -> (&'static [(FpCmpOp, bool)], bool) {
    const EQ: &[(FpCmpOp, bool)] = &[(FpCmpOp::Eq, false)];
    const LT: &[(FpCmpOp, bool)] = &[(FpCmpOp::Lt, false)];
    const LE: &[(FpCmpOp, bool)] = &[(FpCmpOp::Le, false)];
    const GT: &[(FpCmpOp, bool)] = &[(FpCmpOp::Lt, true)];
    const GE: &[(FpCmpOp, bool)] = &[(FpCmpOp::Le, true)];
    const NE: &[(FpCmpOp, bool)] = &[(FpCmpOp::Lt, false), (FpCmpOp::Lt, true)];
    const UNO: &[(FpCmpOp, bool)] = &[(FpCmpOp::Uno, false)];
    match pred {
        FpPred::False => (&[], false),
        FpPred::True => (&[], true),
        FpPred::Oeq => (EQ, false),
        FpPred::Olt => (LT, false),
        FpPred::Ole => (LE, false),
        FpPred::Ogt => (GT, false),
        FpPred::Oge => (GE, false),
        FpPred::One => (NE, false),
        FpPred::Uno => (UNO, false),
        FpPred::Ord => (UNO, true),
        // An unordered predicate is the opposite ordered one negated.
        FpPred::Une => (EQ, true),
        FpPred::Uge => (LT, true),
        FpPred::Ugt => (LE, true),
        FpPred::Ule => (GT, true),
        FpPred::Ult => (GE, true),
        FpPred::Ueq => (NE, true),
    }
}

/// Whether `pred` holds of the `width`-bit floats `a` and `b`.
fn decide(pred: FpPred, a: u128, b: u128, width: u32) -> bool {
    let (terms, negated) = predicate(pred);
    let any = terms.iter().any(|&(op, swap)| {
        let (l, r) = if swap { (b, a) } else { (a, b) };
        fold_fp_cmp(op, l, r, width)
    });
    any != negated
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
    let Some(w) = expr_width(kind) else {
        let (x, y) = (concrete(ex, st, a)?, concrete(ex, st, b)?);
        let (x, y) = (to_f64(x, kind).to_bits(), to_f64(y, kind).to_bits());
        return Ok(Value::bool(decide(pred, x.into(), y.into(), 64)));
    };
    Ok(match operands(ex, st, [a, b])? {
        Ok([x, y]) => Value::bool(decide(pred, x, y, w)),
        Err([x, y]) => {
            let (terms, negated) = predicate(pred);
            let p = &mut ex.pool;
            let mut any = p.bool_const(false);
            for &(op, swap) in terms {
                let (l, r) = if swap { (y, x) } else { (x, y) };
                let c = p.fp_cmp(op, l, r);
                any = p.bool_or(any, c);
            }
            let e = if negated { p.not(any) } else { any };
            Value::from_expr(p, e)
        }
    })
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
    let (conv, from_w, to_w) = match op {
        FpCastOp::Resize => (FpConvOp::Resize, expr_width(from), expr_width(to)),
        FpCastOp::ToSInt => (FpConvOp::ToSInt, expr_width(from), Some(int_width)),
        FpCastOp::ToUInt => (FpConvOp::ToUInt, expr_width(from), Some(int_width)),
        FpCastOp::FromSInt => (FpConvOp::FromSInt, Some(int_width), expr_width(to)),
        FpCastOp::FromUInt => (FpConvOp::FromUInt, Some(int_width), expr_width(to)),
    };
    if let (Some(from_w), Some(to_w)) = (from_w, to_w) {
        if from_w == to_w && op == FpCastOp::Resize {
            return Ok(a.clone());
        }
        return Ok(match operands(ex, st, [a])? {
            Ok([x]) => Value::con(fold_fp_conv(conv, x, from_w, to_w), to_w),
            Err([x]) => {
                let e = ex.pool.fp_conv(conv, x, to_w);
                Value::from_expr(&ex.pool, e)
            }
        });
    }
    // To or from x87's format: concrete, through doubles.
    let bits = concrete(ex, st, a)?;
    Ok(match op {
        FpCastOp::Resize => from_f64(to_f64(bits, from), to),
        FpCastOp::ToSInt | FpCastOp::ToUInt => {
            let as_f64 = u128::from(to_f64(bits, from).to_bits());
            Value::con(fold_fp_conv(conv, as_f64, 64, int_width), int_width)
        }
        FpCastOp::FromSInt => from_f64(sign_extend(bits, int_width) as f64, to),
        FpCastOp::FromUInt => from_f64(bits as f64, to),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `fcmp` predicate, as the comparisons `predicate` gives, decides like its
    /// definition on the host's doubles: ordered ones false on NaN, unordered ones true.
    #[test]
    fn predicates_decide_as_defined() {
        use FpPred::*;
        let values = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for pred in [
            False, Oeq, Ogt, Oge, Olt, Ole, One, Ord, Uno, Ueq, Ugt, Uge, Ult, Ule, Une, True,
        ] {
            for x in values {
                for y in values {
                    let uno = x.is_nan() || y.is_nan();
                    let want = match pred {
                        False => false,
                        True => true,
                        Ord => !uno,
                        Uno => uno,
                        Oeq => x == y,
                        Ogt => x > y,
                        Oge => x >= y,
                        Olt => x < y,
                        Ole => x <= y,
                        One => !uno && x != y,
                        Ueq => uno || x == y,
                        Ugt => uno || x > y,
                        Uge => uno || x >= y,
                        Ult => uno || x < y,
                        Ule => uno || x <= y,
                        Une => x != y,
                    };
                    let (a, b) = (u128::from(x.to_bits()), u128::from(y.to_bits()));
                    assert_eq!(decide(pred, a, b, 64), want, "{pred:?} {x} {y}");
                }
            }
        }
    }

    #[test]
    fn f80_round_trips_doubles() {
        for v in [1.0, -2.5, 1e300, std::f64::consts::PI, 1e-310, 0.0] {
            assert_eq!(f80_to_f64(f64_to_f80(v)), v, "{v}");
        }
        assert!(f80_to_f64(f64_to_f80(f64::NAN)).is_nan());
    }
}
