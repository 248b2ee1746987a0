//! Register values: concrete bit patterns (the fast path), symbolic expressions, and
//! aggregates (structs and arrays held in registers, field by field), and concrete
//! integers wider than 128 bits (`Wide`, concrete only).

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
    /// A concrete integer wider than 128 bits (never symbolic: operations that would mix
    /// it with a symbolic value end the path as unsupported).
    Wide {
        /// Bit width, more than 128.
        width: u32,
        /// Little-endian 64-bit words (`wide::words(width)` of them), masked to width.
        words: Rc<[u64]>,
    },
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
    /// A concrete value (zero-extended to a `Wide` one for widths over 128).
    #[inline]
    pub fn con(bits: u128, width: u32) -> Value {
        if width > 128 {
            return Value::from_words(&crate::wide::from_u128(bits, width), width);
        }
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

    /// A concrete value from little-endian 64-bit words (masked to `width`): `Con` up to
    /// 128 bits, `Wide` above.
    pub fn from_words(words: &[u64], width: u32) -> Value {
        let w = crate::wide::resize(words, width);
        if width <= 128 {
            Value::Con {
                width,
                bits: crate::wide::low_u128(&w),
            }
        } else {
            Value::Wide {
                width,
                words: w.into(),
            }
        }
    }

    /// The words of a concrete value (`Con` or `Wide`) zero-extended to `width` bits.
    pub fn con_words(&self, width: u32) -> Option<Vec<u64>> {
        match self {
            Value::Con { bits, .. } => Some(crate::wide::from_u128(*bits, width)),
            Value::Wide { words, .. } => Some(crate::wide::resize(words, width)),
            _ => None,
        }
    }

    /// Is this a concrete integer wider than 128 bits?
    pub fn is_wide(&self) -> bool {
        matches!(self, Value::Wide { .. })
    }

    /// The concrete bits, if this is concrete and at most 128 bits wide.
    #[inline]
    pub fn as_con(&self) -> Option<u128> {
        match self {
            Value::Con { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    /// A symbolic expression or concrete constant, normalised: constants become `Con`.
    #[inline]
    pub fn from_expr(pool: &ExprPool, e: ExprId) -> Value {
        match pool.as_const(e) {
            Some(bits) => Value::Con {
                width: pool.width(e),
                bits,
            },
            None => Value::Sym(e),
        }
    }

    /// The value as an expression (aggregates and wide values cannot be: callers check).
    pub fn expr(&self, pool: &mut ExprPool) -> ExprId {
        match self {
            Value::Con { width, bits } => pool.constant(*bits, *width),
            Value::Sym(e) => *e,
            Value::Agg(_) => panic!("aggregate value used as a scalar"),
            Value::Wide { width, .. } => {
                unreachable!("i{width} value used as an expression (callers check)")
            }
        }
    }

    /// Bit width of a scalar value.
    pub fn width(&self, pool: &ExprPool) -> u32 {
        match self {
            Value::Con { width, .. } => *width,
            Value::Sym(e) => pool.width(*e),
            Value::Agg(_) => 0,
            Value::Wide { width, .. } => *width,
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

    #[test]
    fn wide_values_are_normalised_by_width() {
        assert_eq!(
            Value::con(5, 128),
            Value::Con {
                width: 128,
                bits: 5
            }
        );
        let w = Value::con(u128::MAX, 152);
        assert_eq!(
            w,
            Value::Wide {
                width: 152,
                words: vec![u64::MAX, u64::MAX, 0].into()
            }
        );
        assert_eq!(w.as_con(), None);
        assert_eq!(w.width(&ExprPool::new()), 152);
        assert_eq!(
            Value::from_words(&[1, 2, 3], 100),
            Value::con(1 | (2 << 64), 100)
        );
        assert_eq!(w.con_words(64), Some(vec![u64::MAX]));
    }
}
