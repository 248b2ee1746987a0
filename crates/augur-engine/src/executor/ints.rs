//! Integer arithmetic, comparisons, casts and address arithmetic, with a concrete fast path
//! that never touches the expression pool.

use super::step::Split;
use super::{Exec, Executor};
use crate::outcome::ErrorKind;
use crate::state::State;
use crate::value::{sign_extend, Value};
use augur_expr::{BinOp, CmpOp};
use augur_ir::{CastOp, IntOp, IntPred, Operand};

/// `a op b` on concrete `width`-bit values (division by zero is the caller's business and
/// follows SMT-LIB here, as in the expression pool's folding).
pub fn fold_binary(op: IntOp, a: u128, b: u128, width: u32) -> u128 {
    augur_expr::bits::fold_bin(&bin_op(op), a, b, width)
}

/// The expression-pool operator for an integer operation.
fn bin_op(op: IntOp) -> BinOp {
    match op {
        IntOp::Add => BinOp::Add,
        IntOp::Sub => BinOp::Sub,
        IntOp::Mul => BinOp::Mul,
        IntOp::UDiv => BinOp::UDiv,
        IntOp::SDiv => BinOp::SDiv,
        IntOp::URem => BinOp::URem,
        IntOp::SRem => BinOp::SRem,
        IntOp::And => BinOp::And,
        IntOp::Or => BinOp::Or,
        IntOp::Xor => BinOp::Xor,
        IntOp::Shl => BinOp::Shl,
        IntOp::LShr => BinOp::LShr,
        IntOp::AShr => BinOp::AShr,
    }
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
            let e = ex.pool.bin(bin_op(op), x, y);
            Value::from_expr(&ex.pool, e)
        }
    })
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

/// Execute an integer comparison (i1 result).
pub fn compare(ex: &mut Executor, pred: IntPred, a: &Value, b: &Value) -> Value {
    if let (Value::Con { bits: x, width }, Value::Con { bits: y, .. }) = (a, b) {
        return Value::bool(fold_compare(pred, *x, *y, *width));
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
    Value::from_expr(&ex.pool, e)
}

/// Execute an integer cast to `width` bits.
pub fn cast(ex: &mut Executor, op: CastOp, a: &Value, width: u32) -> Value {
    match a {
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
    }
}

/// Address arithmetic: `base + offset + sum(sext(index) * scale)` in 64 bits.
pub fn gep(
    ex: &mut Executor,
    st: &State,
    base: &Value,
    offset: i64,
    indices: &[(Operand, u32, u64)],
) -> Value {
    if let Some(addr) = concrete_gep(ex, st, base, offset, indices) {
        return Value::con(addr as u128, 64);
    }
    let mut e = base.expr(&mut ex.pool);
    let off = ex.pool.constant(offset as u64 as u128, 64);
    e = ex.pool.add(e, off);
    for (op, w, s) in indices {
        let i = ex.operand(st, op).expr(&mut ex.pool);
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

/// The address when the base and every index are concrete (the common case, computed
/// without touching the expression pool or allocating).
fn concrete_gep(
    ex: &Executor,
    st: &State,
    base: &Value,
    offset: i64,
    indices: &[(Operand, u32, u64)],
) -> Option<u64> {
    let Value::Con { bits, .. } = base else {
        return None;
    };
    let mut acc = (*bits as u64).wrapping_add(offset as u64);
    for (op, w, s) in indices {
        let i = match op {
            Operand::Imm { value, .. } => *value,
            Operand::Reg(r) => st.frame().regs[r.0 as usize].as_con()?,
            other => ex.operand(st, other).as_con()?,
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
