//! Integer arithmetic, comparisons, casts and address arithmetic, with a concrete fast path
//! that never touches the expression pool.

use super::step::Split;
use super::{Exec, Executor};
use crate::outcome::{ErrorKind, Outcome};
use crate::state::State;
use crate::value::{sign_extend, Value};
use crate::wide;
use augur_expr::CmpOp;
use augur_ir::{CastOp, IntOp, IntPred, Operand};

/// `a op b` on concrete `width`-bit values (division by zero is the caller's business and
/// follows SMT-LIB here, as in the expression pool's folding).
pub fn fold_binary(op: IntOp, a: u128, b: u128, width: u32) -> u128 {
    augur_expr::bits::fold_bin(&op, a, b, width)
}

/// Execute an integer binary operation; division and remainder by a divisor that may be
/// zero fork off an error path.
pub fn binary(
    ex: &mut Executor,
    st: &mut State,
    op: IntOp,
    a: &Value,
    b: &Value,
    width: u32,
) -> Exec<Value> {
    if width > 128 || a.is_wide() || b.is_wide() {
        return wide_binary(ex, st, op, a, b, width);
    }
    if matches!(op, IntOp::UDiv | IntOp::SDiv | IntOp::URem | IntOp::SRem) {
        check_divisor(ex, st, b)?;
    }
    Ok(match (a, b) {
        (Value::Con { bits: x, .. }, Value::Con { bits: y, .. }) => Value::Con {
            width,
            bits: fold_binary(op, *x, *y, width),
        },
        _ => {
            let (x, y) = (a.expr(&mut ex.pool), b.expr(&mut ex.pool));
            let e = ex.pool.bin(op, x, y);
            Value::from_expr(&ex.pool, e)
        }
    })
}

/// The error ending a path where a value wider than 128 bits meets a symbolic one.
fn wide_unsupported(ex: &Executor, st: &State) -> Outcome {
    ex.error(
        st,
        ErrorKind::Unsupported,
        "integers wider than 128 bits are only supported on concrete values".into(),
    )
}

/// The words of two concrete operands of a wide operation, or the unsupported error.
fn wide_operands(
    ex: &Executor,
    st: &State,
    a: &Value,
    b: &Value,
    width: u32,
) -> Exec<(Vec<u64>, Vec<u64>)> {
    match (a.con_words(width), b.con_words(width)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(wide_unsupported(ex, st)),
    }
}

/// A binary operation on integers wider than 128 bits (concrete only; bitwise operations,
/// shifts, addition and subtraction).
fn wide_binary(
    ex: &mut Executor,
    st: &mut State,
    op: IntOp,
    a: &Value,
    b: &Value,
    width: u32,
) -> Exec<Value> {
    let (x, y) = wide_operands(ex, st, a, b, width)?;
    let r = match op {
        IntOp::And => wide::and(&x, &y),
        IntOp::Or => wide::or(&x, &y),
        IntOp::Xor => wide::xor(&x, &y),
        IntOp::Add => wide::add(&x, &y, width),
        IntOp::Sub => wide::sub(&x, &y, width),
        IntOp::Shl => wide::shl(&x, &y, width),
        IntOp::LShr => wide::lshr(&x, &y, width),
        IntOp::AShr => wide::ashr(&x, &y, width),
        IntOp::Mul | IntOp::UDiv | IntOp::SDiv | IntOp::URem | IntOp::SRem => {
            return Err(ex.error(
                st,
                ErrorKind::Unsupported,
                format!("{op:?} on integers wider than 128 bits"),
            ))
        }
    };
    Ok(Value::from_words(&r, width))
}

fn check_divisor(ex: &mut Executor, st: &mut State, b: &Value) -> Exec<()> {
    let msg = || "division by zero".to_string();
    match b {
        Value::Con { bits: 0, .. } => Err(ex.error(st, ErrorKind::DivisionByZero, msg())),
        Value::Sym(e) => {
            let zero = ex.pool.constant(0, ex.pool.width(*e));
            let is_zero = ex.pool.eq(*e, zero);
            match ex.split(st, is_zero)? {
                Split::True => Err(ex.error(st, ErrorKind::DivisionByZero, msg())),
                Split::False => Ok(()),
                Split::Both(mut nonzero) => {
                    std::mem::swap(st, &mut nonzero);
                    let out = ex.error(&nonzero, ErrorKind::DivisionByZero, msg());
                    ex.finish(*nonzero, out);
                    Ok(())
                }
            }
        }
        _ => Ok(()),
    }
}

/// Concrete integer comparison.
pub fn fold_compare(pred: IntPred, a: u128, b: u128, width: u32) -> bool {
    let (sa, sb) = (sign_extend(a, width), sign_extend(b, width));
    match pred {
        IntPred::Eq => a == b,
        IntPred::Ne => a != b,
        IntPred::Ugt => a > b,
        IntPred::Uge => a >= b,
        IntPred::Ult => a < b,
        IntPred::Ule => a <= b,
        IntPred::Sgt => sa > sb,
        IntPred::Sge => sa >= sb,
        IntPred::Slt => sa < sb,
        IntPred::Sle => sa <= sb,
    }
}

/// Concrete comparison of integers wider than 128 bits (words of equal length).
pub fn fold_compare_wide(pred: IntPred, a: &[u64], b: &[u64], width: u32) -> bool {
    use std::cmp::Ordering::{Greater, Less};
    let u = wide::cmp_unsigned(a, b);
    let s = wide::cmp_signed(a, b, width);
    match pred {
        IntPred::Eq => a == b,
        IntPred::Ne => a != b,
        IntPred::Ugt => u == Greater,
        IntPred::Uge => u != Less,
        IntPred::Ult => u == Less,
        IntPred::Ule => u != Greater,
        IntPred::Sgt => s == Greater,
        IntPred::Sge => s != Less,
        IntPred::Slt => s == Less,
        IntPred::Sle => s != Greater,
    }
}

/// Execute an integer comparison (i1 result).
pub fn compare(ex: &mut Executor, st: &State, pred: IntPred, a: &Value, b: &Value) -> Exec<Value> {
    if let (Value::Con { bits: x, width }, Value::Con { bits: y, .. }) = (a, b) {
        return Ok(Value::bool(fold_compare(pred, *x, *y, *width)));
    }
    if a.is_wide() || b.is_wide() {
        let width = a.width(&ex.pool).max(b.width(&ex.pool));
        let (x, y) = wide_operands(ex, st, a, b, width)?;
        return Ok(Value::bool(fold_compare_wide(pred, &x, &y, width)));
    }
    let (x, y) = (a.expr(&mut ex.pool), b.expr(&mut ex.pool));
    let p = &mut ex.pool;
    let e = match pred {
        IntPred::Eq => p.cmp(CmpOp::Eq, x, y),
        IntPred::Ne => {
            let eq = p.cmp(CmpOp::Eq, x, y);
            p.not(eq)
        }
        IntPred::Ult => p.cmp(CmpOp::Ult, x, y),
        IntPred::Ule => p.cmp(CmpOp::Ule, x, y),
        IntPred::Ugt => p.cmp(CmpOp::Ult, y, x),
        IntPred::Uge => p.cmp(CmpOp::Ule, y, x),
        IntPred::Slt => p.cmp(CmpOp::Slt, x, y),
        IntPred::Sle => p.cmp(CmpOp::Sle, x, y),
        IntPred::Sgt => p.cmp(CmpOp::Slt, y, x),
        IntPred::Sge => p.cmp(CmpOp::Sle, y, x),
    };
    Ok(Value::from_expr(&ex.pool, e))
}

/// Execute an integer cast to `width` bits.
pub fn cast(ex: &mut Executor, st: &State, op: CastOp, a: &Value, width: u32) -> Exec<Value> {
    Ok(match a {
        Value::Con { bits, width: from } if width > 128 => match op {
            CastOp::SExt => Value::from_words(
                &wide::sext(&wide::from_u128(*bits, *from), *from, width),
                width,
            ),
            _ => Value::con(*bits, width),
        },
        Value::Wide { words, width: from } => match op {
            CastOp::SExt if width > *from => {
                Value::from_words(&wide::sext(words, *from, width), width)
            }
            _ => Value::from_words(words, width),
        },
        Value::Sym(_) if width > 128 => return Err(wide_unsupported(ex, st)),
        Value::Con { bits, width: from } => match op {
            CastOp::SExt => Value::con(sign_extend(*bits, *from) as u128, width),
            _ => Value::con(*bits, width),
        },
        Value::Sym(e) => {
            let from = ex.pool.width(*e);
            let r = match op {
                _ if from == width => *e,
                CastOp::Trunc => ex.pool.extract(*e, 0, width),
                CastOp::SExt => ex.pool.sext(*e, width),
                CastOp::ZExt => ex.pool.zext(*e, width),
                CastOp::Same if from > width => ex.pool.extract(*e, 0, width),
                CastOp::Same => ex.pool.zext(*e, width),
            };
            Value::from_expr(&ex.pool, r)
        }
        Value::Agg(_) => a.clone(),
    })
}

/// Address arithmetic: `base + offset + sum(sext(index) * scale)` in 64 bits.
pub fn gep(
    ex: &mut Executor,
    st: &State,
    base: &Value,
    offset: i64,
    indices: &[(Operand, u32, u64)],
) -> Value {
    if let Some(addr) = base
        .as_con()
        .and_then(|b| concrete_gep(ex, st, b, offset, indices))
    {
        return Value::con(addr as u128, 64);
    }
    let mut e = base.expr(&mut ex.pool);
    let off = ex.pool.constant(offset as u64 as u128, 64);
    e = ex.pool.add(e, off);
    for (op, w, s) in indices {
        let (i, w) = match ex.operand(st, op) {
            // An index wider than 128 bits is concrete; only its low 64 bits matter.
            Value::Wide { words, .. } => (Value::con(words[0] as u128, 64), &64),
            i => (i, w),
        };
        let i = i.expr(&mut ex.pool);
        let i = match (*w).cmp(&64) {
            std::cmp::Ordering::Less => ex.pool.sext(i, 64),
            std::cmp::Ordering::Greater => ex.pool.extract(i, 0, 64),
            std::cmp::Ordering::Equal => i,
        };
        let scale = ex.pool.constant(*s as u128, 64);
        let term = ex.pool.mul(i, scale);
        e = ex.pool.add(e, term);
    }
    Value::from_expr(&ex.pool, e)
}

/// The address from the concrete base address `base` when every index is concrete (the
/// common case, computed without touching the expression pool or allocating).
#[inline]
pub(super) fn concrete_gep(
    ex: &Executor,
    st: &State,
    base: u128,
    offset: i64,
    indices: &[(Operand, u32, u64)],
) -> Option<u64> {
    let mut acc = (base as u64).wrapping_add(offset as u64);
    let regs = &st.frame().regs;
    for (op, w, s) in indices {
        let i = match ex.con_operand(regs, op) {
            Some((i, _)) => i,
            // An index wider than 128 bits is concrete; only its low 64 bits matter.
            None => match ex.operand(st, op) {
                Value::Wide { words, .. } => words[0] as u128,
                _ => return None,
            },
        };
        acc = acc.wrapping_add((sign_extend(i, *w) as i64).wrapping_mul(*s as i64) as u64);
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_follow_llvm_semantics() {
        assert_eq!(fold_binary(IntOp::SDiv, 0xf9, 2, 8), 0xfd); // -7 / 2 = -3
        assert_eq!(fold_binary(IntOp::SRem, 0xf9, 2, 8), 0xff); // -7 % 2 = -1
        assert_eq!(fold_binary(IntOp::AShr, 0x80, 7, 8), 0xff);
        assert_eq!(fold_binary(IntOp::Shl, 1, 8, 8), 0);
        assert_eq!(fold_binary(IntOp::Add, u128::MAX, 1, 128), 0);
        assert_eq!(fold_binary(IntOp::Mul, 1u128 << 100, 4, 128), 1u128 << 102);
        assert!(fold_compare(IntPred::Slt, 0xff, 0, 8));
        assert!(!fold_compare(IntPred::Ult, 0xff, 0, 8));
    }
}
