//! The expression node types: ids, operators and [`ExprKind`].

use std::sync::Arc;

/// Handle of an interned expression in an [`ExprPool`](crate::ExprPool).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ExprId(pub u32);

/// Handle of a symbolic input array (named, fixed byte size) of an
/// [`ExprPool`](crate::ExprPool).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayId(pub u32);

/// Binary bit-vector operators; both operands and the result share one width.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Unsigned division (`x / 0` is all ones, as SMT-LIB `bvudiv`).
    UDiv,
    /// Signed division truncating toward zero (SMT-LIB `bvsdiv`).
    SDiv,
    /// Unsigned remainder (`x % 0` is `x`, as SMT-LIB `bvurem`).
    URem,
    /// Signed remainder whose sign follows the dividend (SMT-LIB `bvsrem`).
    SRem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift left; shifting by the width or more gives 0.
    Shl,
    /// Logical shift right; shifting by the width or more gives 0.
    LShr,
    /// Arithmetic shift right; shifting by the width or more fills with the sign bit.
    AShr,
}

impl BinOp {
    /// Every operator, in declaration order.
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
    ];
}

impl BinOp {
    /// Whether `a op b == b op a` (such operands are kept in canonical order).
    pub fn is_commutative(&self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        )
    }
}

/// Comparison operators; the result has width 1. Greater-than forms are built by swapping
/// operands and `ne` as `not(eq)`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpOp {
    /// Equality.
    Eq,
    /// Unsigned less than.
    Ult,
    /// Unsigned less than or equal.
    Ule,
    /// Signed less than.
    Slt,
    /// Signed less than or equal.
    Sle,
}

impl CmpOp {
    /// Every comparison, in declaration order.
    pub const ALL: [CmpOp; 5] = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
}

/// Floating-point arithmetic on IEEE bit patterns (binary32 or binary64, as the operands'
/// width says), rounding to nearest, ties to even; NaN results as [`crate::float`] says.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FpBinOp {
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division.
    Div,
}

impl FpBinOp {
    /// Every operator, in declaration order.
    pub const ALL: [FpBinOp; 4] = [FpBinOp::Add, FpBinOp::Sub, FpBinOp::Mul, FpBinOp::Div];
}

/// Floating-point comparisons (width 1). The first three are ordered: false when either
/// operand is NaN; every predicate of LLVM's `fcmp` is one of them, swapped or negated.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FpCmpOp {
    /// Equal (`+0 == -0`).
    Eq,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Unordered: either operand is NaN.
    Uno,
}

impl FpCmpOp {
    /// Every comparison, in declaration order.
    pub const ALL: [FpCmpOp; 4] = [FpCmpOp::Eq, FpCmpOp::Lt, FpCmpOp::Le, FpCmpOp::Uno];
}

/// Conversions to, from and between the floating-point formats (as
/// [`crate::float::fold_fp_conv`] defines them).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FpConvOp {
    /// A signed integer to the float of the result's width.
    FromSInt,
    /// An unsigned integer to the float of the result's width.
    FromUInt,
    /// A float to a signed integer, truncating toward zero (saturating; NaN gives 0).
    ToSInt,
    /// A float to an unsigned integer, truncating toward zero (saturating; NaN gives 0).
    ToUInt,
    /// A float to the other format.
    Resize,
}

impl FpConvOp {
    /// Every conversion, in declaration order.
    pub const ALL: [FpConvOp; 5] = [
        FpConvOp::FromSInt,
        FpConvOp::FromUInt,
        FpConvOp::ToSInt,
        FpConvOp::ToUInt,
        FpConvOp::Resize,
    ];
}

/// One expression node. Children are ids in the same pool.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum ExprKind {
    /// A constant; `value` is masked to `width` bits.
    Const {
        /// Width in bits (1..=128).
        width: u32,
        /// The value, zero above `width`.
        value: u128,
    },
    /// The byte (width 8) of an array-sorted expression at a 64-bit index.
    Select {
        /// Array-sorted expression.
        array: ExprId,
        /// 64-bit index.
        index: ExprId,
    },
    /// Array-sorted: a symbolic input array itself.
    ArraySym(ArrayId),
    /// Array-sorted: a constant array; bytes beyond its length read 0.
    ArrayConst(Arc<[u8]>),
    /// Array-sorted: `array` with the byte at `index` replaced by `value`.
    Store {
        /// Array-sorted expression being updated.
        array: ExprId,
        /// 64-bit index.
        index: ExprId,
        /// 8-bit value.
        value: ExprId,
    },
    /// `then` if the width-1 `cond` is 1, else `els`.
    Ite {
        /// Width-1 condition.
        cond: ExprId,
        /// Value when `cond` holds.
        then: ExprId,
        /// Value otherwise.
        els: ExprId,
    },
    /// `hi` followed by `lo`: the result's low bits are `lo`.
    Concat {
        /// High part.
        hi: ExprId,
        /// Low part.
        lo: ExprId,
    },
    /// `width` bits of `expr` starting at bit `lo`.
    Extract {
        /// Source expression.
        expr: ExprId,
        /// Lowest extracted bit.
        lo: u32,
        /// Number of extracted bits.
        width: u32,
    },
    /// Zero extension of `expr` to `width` bits.
    ZExt {
        /// Source expression.
        expr: ExprId,
        /// Result width.
        width: u32,
    },
    /// Sign extension of `expr` to `width` bits.
    SExt {
        /// Source expression.
        expr: ExprId,
        /// Result width.
        width: u32,
    },
    /// Bitwise not (logical not for width 1).
    Not(ExprId),
    /// A binary operator.
    Bin {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// A comparison (width 1).
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// Floating-point arithmetic (operands and result share one width, 32 or 64).
    FpBin {
        /// The operator.
        op: FpBinOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// A floating-point comparison (width 1) of two floats of one width.
    FpCmp {
        /// The operator.
        op: FpCmpOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// The square root of a float (width 32 or 64).
    FpSqrt(ExprId),
    /// A conversion of `expr` to a `width`-bit integer or float.
    FpConv {
        /// The conversion.
        op: FpConvOp,
        /// Source expression (a float, or an integer for `FromSInt`/`FromUInt`).
        expr: ExprId,
        /// Result width.
        width: u32,
    },
}

impl ExprKind {
    /// The direct children of this node, in field order.
    pub fn children(&self) -> impl DoubleEndedIterator<Item = ExprId> {
        let none = ExprId(u32::MAX);
        let (ids, n) = match *self {
            ExprKind::Const { .. } | ExprKind::ArraySym(_) | ExprKind::ArrayConst(_) => {
                ([none; 3], 0)
            }
            ExprKind::Select { array, index } => ([array, index, none], 2),
            ExprKind::Store {
                array,
                index,
                value,
            } => ([array, index, value], 3),
            ExprKind::Ite { cond, then, els } => ([cond, then, els], 3),
            ExprKind::Concat { hi, lo } => ([hi, lo, none], 2),
            ExprKind::Extract { expr, .. }
            | ExprKind::ZExt { expr, .. }
            | ExprKind::SExt { expr, .. }
            | ExprKind::Not(expr)
            | ExprKind::FpSqrt(expr)
            | ExprKind::FpConv { expr, .. } => ([expr, none, none], 1),
            ExprKind::Bin { lhs, rhs, .. }
            | ExprKind::Cmp { lhs, rhs, .. }
            | ExprKind::FpBin { lhs, rhs, .. }
            | ExprKind::FpCmp { lhs, rhs, .. } => ([lhs, rhs, none], 2),
        };
        ids.into_iter().take(n)
    }

    /// This node with its children renamed by `expr` and its symbolic array by `array`:
    /// the same node in another pool (interned there with [`crate::ExprPool::raw`]).
    pub fn renamed(
        &self,
        mut expr: impl FnMut(ExprId) -> ExprId,
        array: impl FnOnce(ArrayId) -> ArrayId,
    ) -> ExprKind {
        use ExprKind::*;
        let mut e = |id: &ExprId| expr(*id);
        match self {
            Const { .. } | ArrayConst(_) => self.clone(),
            ArraySym(a) => ArraySym(array(*a)),
            Select { array, index } => Select {
                array: e(array),
                index: e(index),
            },
            Store {
                array,
                index,
                value,
            } => Store {
                array: e(array),
                index: e(index),
                value: e(value),
            },
            Ite { cond, then, els } => Ite {
                cond: e(cond),
                then: e(then),
                els: e(els),
            },
            Concat { hi, lo } => Concat {
                hi: e(hi),
                lo: e(lo),
            },
            Extract { expr, lo, width } => Extract {
                expr: e(expr),
                lo: *lo,
                width: *width,
            },
            ZExt { expr, width } => ZExt {
                expr: e(expr),
                width: *width,
            },
            SExt { expr, width } => SExt {
                expr: e(expr),
                width: *width,
            },
            Not(x) => Not(e(x)),
            Bin { op, lhs, rhs } => Bin {
                op: *op,
                lhs: e(lhs),
                rhs: e(rhs),
            },
            Cmp { op, lhs, rhs } => Cmp {
                op: op.clone(),
                lhs: e(lhs),
                rhs: e(rhs),
            },
            FpBin { op, lhs, rhs } => FpBin {
                op: *op,
                lhs: e(lhs),
                rhs: e(rhs),
            },
            FpCmp { op, lhs, rhs } => FpCmp {
                op: *op,
                lhs: e(lhs),
                rhs: e(rhs),
            },
            FpSqrt(x) => FpSqrt(e(x)),
            FpConv { op, expr, width } => FpConv {
                op: *op,
                expr: e(expr),
                width: *width,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_in_field_order() {
        let k = ExprKind::Store {
            array: ExprId(1),
            index: ExprId(2),
            value: ExprId(3),
        };
        assert_eq!(
            k.children().collect::<Vec<_>>(),
            [ExprId(1), ExprId(2), ExprId(3)]
        );
        assert_eq!(ExprKind::Not(ExprId(7)).children().count(), 1);
        assert_eq!(ExprKind::Const { width: 8, value: 1 }.children().count(), 0);
    }

    #[test]
    fn renaming_changes_ids_only() {
        let store = ExprKind::Store {
            array: ExprId(1),
            index: ExprId(2),
            value: ExprId(3),
        };
        let moved = store.renamed(|e| ExprId(e.0 + 10), |a| a);
        assert_eq!(
            moved,
            ExprKind::Store {
                array: ExprId(11),
                index: ExprId(12),
                value: ExprId(13),
            }
        );
        let sym = ExprKind::ArraySym(ArrayId(4)).renamed(|e| e, |_| ArrayId(0));
        assert_eq!(sym, ExprKind::ArraySym(ArrayId(0)));
        let extract = ExprKind::Extract {
            expr: ExprId(5),
            lo: 3,
            width: 2,
        };
        assert_eq!(
            extract.renamed(|_| ExprId(0), |a| a),
            ExprKind::Extract {
                expr: ExprId(0),
                lo: 3,
                width: 2
            }
        );
    }

    #[test]
    fn commutativity() {
        assert!(BinOp::Xor.is_commutative());
        assert!(!BinOp::Sub.is_commutative());
        assert!(!BinOp::Shl.is_commutative());
    }
}
