//! Register values: concrete bit patterns (the fast path), symbolic expressions, and
//! aggregates (structs and arrays held in registers, field by field).

use augur_expr::{ExprId, ExprPool};
use std::rc::Rc;

/// A value held in a register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A concrete bit pattern of `width` bits (integers, pointers, float bits).
    Con {
        /// Bit width.
        width: u32,
        /// Bits, masked to width.
        bits: u128,
    },
    /// A symbolic bit-vector.
    Sym(ExprId),
    /// A struct or array value, one entry per field.
    Agg(Rc<Vec<Value>>),
}

/// Keep the low `width` bits.
pub fn mask(bits: u128, width: u32) -> u128 {
    bits & augur_expr::bits::mask(width)
}

/// Interpret the low `width` bits as a signed number.
pub fn sign_extend(bits: u128, width: u32) -> i128 {
    augur_expr::bits::to_signed(bits, width)
}

impl Value {
    /// A concrete value.
    pub fn con(bits: u128, width: u32) -> Value {
        Value::Con {
            width,
            bits: mask(bits, width),
        }
    }

    /// A concrete boolean (i1).
    pub fn bool(b: bool) -> Value {
        Value::Con {
            width: 1,
            bits: b as u128,
        }
    }

    /// The concrete bits, if this is concrete.
    pub fn as_con(&self) -> Option<u128> {
        match self {
            Value::Con { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    /// A symbolic expression or concrete constant, normalised: constants become `Con`.
    pub fn from_expr(pool: &ExprPool, e: ExprId) -> Value {
        match pool.as_const(e) {
            Some(bits) => Value::Con {
                width: pool.width(e),
                bits,
            },
            None => Value::Sym(e),
        }
    }

    /// The value as an expression (aggregates cannot be).
    pub fn expr(&self, pool: &mut ExprPool) -> ExprId {
        match self {
            Value::Con { width, bits } => pool.constant(*bits, *width),
            Value::Sym(e) => *e,
            Value::Agg(_) => panic!("aggregate value used as a scalar"),
        }
    }

    /// Bit width of a scalar value.
    pub fn width(&self, pool: &ExprPool) -> u32 {
        match self {
            Value::Con { width, .. } => *width,
            Value::Sym(e) => pool.width(*e),
            Value::Agg(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_sign_extension() {
        assert_eq!(
            Value::con(0x1ff, 8),
            Value::Con {
                width: 8,
                bits: 0xff
            }
        );
        assert_eq!(sign_extend(0x80, 8), -128);
        assert_eq!(sign_extend(u128::MAX, 128), -1);
        assert_eq!(mask(u128::MAX, 128), u128::MAX);
    }
}
