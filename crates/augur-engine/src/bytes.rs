//! Conversions between register values and memory bytes (little-endian), by type.

use crate::memory::Byte;
use crate::value::Value;
use augur_expr::{ExprId, ExprPool};
use augur_ir::{Program, Ty, TyId};
use std::rc::Rc;

/// The bytes of a scalar value, `n` bytes long (zero-extended if the value is narrower).
pub fn scalar_to_bytes(pool: &mut ExprPool, v: &Value, n: usize, out: &mut Vec<Byte>) {
    match v {
        Value::Con { bits, .. } => {
            for i in 0..n {
                out.push(Byte::C(if i < 16 { (bits >> (8 * i)) as u8 } else { 0 }));
            }
        }
        Value::Sym(e) => {
            let w = pool.width(*e);
            let full = if w < (n * 8) as u32 {
                pool.zext(*e, (n * 8) as u32)
            } else {
                *e
            };
            for i in 0..n {
                let b = pool.extract(full, (8 * i) as u32, 8);
                out.push(match pool.as_const(b) {
                    Some(c) => Byte::C(c as u8),
                    None => Byte::S(b),
                });
            }
        }
        Value::Wide { words, .. } => {
            for i in 0..n {
                let w = words.get(i / 8).copied().unwrap_or(0);
                out.push(Byte::C((w >> (8 * (i % 8))) as u8));
            }
        }
        Value::Agg(_) => panic!("aggregate passed as scalar"),
    }
}

/// A scalar of `width` bits from little-endian bytes. Wider than 128 bits, the bytes must be
/// concrete for the result to be a `Wide` value (callers check: see [`all_concrete`]).
pub fn bytes_to_scalar(pool: &mut ExprPool, bytes: &[Byte], width: u32) -> Value {
    if width > 128 && all_concrete(bytes) {
        let mut words = vec![0u64; crate::wide::words(width)];
        for (i, b) in bytes.iter().enumerate().take(words.len() * 8) {
            if let Byte::C(c) = b {
                words[i / 8] |= (*c as u64) << (8 * (i % 8));
            }
        }
        return Value::from_words(&words, width);
    }
    if all_concrete(bytes) {
        let mut bits: u128 = 0;
        for (i, b) in bytes.iter().enumerate().take(16) {
            if let Byte::C(c) = b {
                bits |= (*c as u128) << (8 * i);
            }
        }
        return Value::con(bits, width);
    }
    let mut acc = None;
    for b in bytes.iter().rev() {
        let e = match b {
            Byte::C(c) => pool.constant(*c as u128, 8),
            Byte::S(e) => *e,
        };
        acc = Some(match acc {
            None => e,
            Some(hi) => pool.concat(hi, e),
        });
    }
    let e = acc.expect("at least one byte");
    let e = if pool.width(e) > width {
        pool.extract(e, 0, width)
    } else {
        e
    };
    Value::from_expr(pool, e)
}

/// Are all the bytes concrete?
pub fn all_concrete(bytes: &[Byte]) -> bool {
    bytes.iter().all(|b| matches!(b, Byte::C(_)))
}

/// Width in bits of a scalar type as held in a register.
pub fn scalar_width(prog: &Program, ty: TyId) -> u32 {
    match prog.ty(ty).ty {
        Ty::Int(w) => w,
        Ty::Ptr => 64,
        Ty::Float(k) => k.bits(),
        _ => (prog.ty(ty).store_size * 8) as u32,
    }
}

/// The bytes of a value of type `ty` (its store size; padding bytes are zero).
pub fn value_to_bytes(pool: &mut ExprPool, prog: &Program, ty: TyId, v: &Value) -> Vec<Byte> {
    let info = prog.ty(ty);
    let mut out = Vec::with_capacity(info.store_size as usize);
    write_value(pool, prog, ty, v, &mut out);
    out.resize(info.store_size as usize, Byte::C(0));
    out
}

fn write_value(pool: &mut ExprPool, prog: &Program, ty: TyId, v: &Value, out: &mut Vec<Byte>) {
    let start = out.len();
    match (&prog.ty(ty).ty, v) {
        (Ty::Struct { fields }, Value::Agg(items)) => {
            for ((off, fty), item) in fields.iter().zip(items.iter()) {
                out.resize(start + *off as usize, Byte::C(0));
                write_value(pool, prog, *fty, item, out);
            }
        }
        (Ty::Array { elem, stride, .. }, Value::Agg(items)) => {
            for (i, item) in items.iter().enumerate() {
                out.resize(start + i * *stride as usize, Byte::C(0));
                write_value(pool, prog, *elem, item, out);
            }
        }
        (Ty::Struct { .. } | Ty::Array { .. }, scalar) => {
            // An aggregate given as one bit pattern (e.g. zero).
            scalar_to_bytes(pool, scalar, prog.ty(ty).store_size as usize, out)
        }
        (_, v) => scalar_to_bytes(pool, v, prog.ty(ty).store_size as usize, out),
    }
}

/// A value of type `ty` from its bytes.
pub fn bytes_to_value(pool: &mut ExprPool, prog: &Program, ty: TyId, bytes: &[Byte]) -> Value {
    match &prog.ty(ty).ty {
        Ty::Struct { fields } => Value::Agg(Rc::new(
            fields
                .iter()
                .map(|(off, fty)| {
                    let size = prog.ty(*fty).store_size as usize;
                    let off = *off as usize;
                    bytes_to_value(pool, prog, *fty, &bytes[off..off + size])
                })
                .collect(),
        )),
        Ty::Array { elem, len, stride } => Value::Agg(Rc::new(
            (0..*len as usize)
                .map(|i| {
                    let size = prog.ty(*elem).store_size as usize;
                    let off = i * *stride as usize;
                    bytes_to_value(pool, prog, *elem, &bytes[off..off + size])
                })
                .collect(),
        )),
        _ => bytes_to_scalar(pool, bytes, scalar_width(prog, ty)),
    }
}

/// The all-zero value of a type.
pub fn zero_value(prog: &Program, ty: TyId) -> Value {
    match &prog.ty(ty).ty {
        Ty::Struct { fields } => Value::Agg(Rc::new(
            fields.iter().map(|(_, f)| zero_value(prog, *f)).collect(),
        )),
        Ty::Array { elem, len, .. } => Value::Agg(Rc::new(
            (0..*len).map(|_| zero_value(prog, *elem)).collect(),
        )),
        _ => Value::con(0, scalar_width(prog, ty).max(1)),
    }
}

/// A byte as an 8-bit expression.
pub fn byte_expr(pool: &mut ExprPool, b: Byte) -> ExprId {
    match b {
        Byte::C(c) => pool.constant(c as u128, 8),
        Byte::S(e) => e,
    }
}

/// An 8-bit expression as a byte (known when the expression is a constant).
pub fn expr_byte(pool: &ExprPool, e: ExprId) -> Byte {
    match pool.as_const(e) {
        Some(c) => Byte::C(c as u8),
        None => Byte::S(e),
    }
}

/// Concrete bytes (at most 16) as a little-endian signed integer (a nondet object's value,
/// an input shown to people).
pub fn signed_le(bytes: &[u8]) -> i128 {
    let mut v: i128 = 0;
    for (i, b) in bytes.iter().enumerate().take(16) {
        v |= (*b as i128) << (8 * i);
    }
    let bits = 8 * bytes.len().min(16) as u32;
    if bits > 0 && bits < 128 && (v >> (bits - 1)) & 1 == 1 {
        v -= 1i128 << bits;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concrete_round_trip_is_little_endian() {
        let mut pool = ExprPool::new();
        let mut out = vec![];
        scalar_to_bytes(&mut pool, &Value::con(0x11223344, 32), 4, &mut out);
        assert_eq!(
            out,
            vec![Byte::C(0x44), Byte::C(0x33), Byte::C(0x22), Byte::C(0x11)]
        );
        assert_eq!(
            bytes_to_scalar(&mut pool, &out, 32),
            Value::con(0x11223344, 32)
        );
    }

    #[test]
    fn wide_round_trip_is_little_endian() {
        let mut pool = ExprPool::new();
        let v = Value::from_words(&[0x0807060504030201, 0x100f0e0d0c0b0a09, 0x131211], 152);
        let mut out = vec![];
        scalar_to_bytes(&mut pool, &v, 19, &mut out);
        let expected: Vec<Byte> = (1..=19).map(Byte::C).collect();
        assert_eq!(out, expected);
        assert_eq!(bytes_to_scalar(&mut pool, &out, 152), v);
    }

    #[test]
    fn symbolic_round_trip_restores_the_expression() {
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 4);
        let arr = pool.array_sym(a);
        let mut bytes = vec![];
        for i in 0..4 {
            let idx = pool.constant(i, 64);
            bytes.push(Byte::S(pool.select(arr, idx)));
        }
        let v = bytes_to_scalar(&mut pool, &bytes, 32);
        let mut again = vec![];
        scalar_to_bytes(&mut pool, &v, 4, &mut again);
        assert_eq!(again, bytes);
    }
}
