//! Builders of the floating-point nodes. They fold constants (with [`crate::float`]'s
//! exact semantics) and nothing else: the usual identities do not hold for IEEE values
//! (`x == x` fails for NaN, `x + 0.0` turns `-0.0` into `+0.0`, `x * 0.0` may be NaN).

use crate::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv, fold_fp_sqrt};
use crate::{ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp};

impl ExprPool {
    /// `lhs op rhs` on floats of one width (32 or 64).
    pub fn fp_bin(&mut self, op: FpBinOp, lhs: ExprId, rhs: ExprId) -> ExprId {
        let w = self.same_width(lhs, rhs);
        if let (Some(a), Some(b)) = (self.as_const(lhs), self.as_const(rhs)) {
            return self.constant(fold_fp_bin(op, a, b, w), w);
        }
        self.raw(ExprKind::FpBin { op, lhs, rhs })
    }

    /// `lhs op rhs` on floats of one width, as a width-1 expression.
    pub fn fp_cmp(&mut self, op: FpCmpOp, lhs: ExprId, rhs: ExprId) -> ExprId {
        let w = self.same_width(lhs, rhs);
        if let (Some(a), Some(b)) = (self.as_const(lhs), self.as_const(rhs)) {
            return self.bool_const(fold_fp_cmp(op, a, b, w));
        }
        self.raw(ExprKind::FpCmp { op, lhs, rhs })
    }

    /// The square root of the float `e`.
    pub fn fp_sqrt(&mut self, e: ExprId) -> ExprId {
        if let Some(a) = self.as_const(e) {
            return self.constant(fold_fp_sqrt(a, self.width(e)), self.width(e));
        }
        self.raw(ExprKind::FpSqrt(e))
    }

    /// The conversion `op` of `e` to `width` bits.
    pub fn fp_conv(&mut self, op: FpConvOp, e: ExprId, width: u32) -> ExprId {
        if let Some(a) = self.as_const(e) {
            return self.constant(fold_fp_conv(op, a, self.width(e), width), width);
        }
        self.raw(ExprKind::FpConv { op, expr: e, width })
    }
}

#[cfg(test)]
mod tests {
    use crate::build::tests::setup;
    use crate::{Assignment, ExprKind, FpBinOp, FpCmpOp, FpConvOp};

    #[test]
    fn constants_fold_and_symbolic_operands_stay() {
        let (mut p, a, _, w) = setup();
        let [one, two] = [1.0f32, 2.0].map(|v| p.constant(u128::from(v.to_bits()), 32));
        let three = p.fp_bin(FpBinOp::Add, one, two);
        assert_eq!(p.as_const(three), Some(u128::from(3.0f32.to_bits())));
        assert_eq!(p.fp_cmp(FpCmpOp::Lt, one, two), p.bool_const(true));
        let four = p.constant(u128::from(4.0f32.to_bits()), 32);
        let root = p.fp_sqrt(four);
        assert_eq!(p.as_const(root), Some(u128::from(2.0f32.to_bits())));
        let seven = p.constant(7, 8);
        let seven_f = p.fp_conv(FpConvOp::FromUInt, seven, 64);
        assert_eq!(p.as_const(seven_f), Some(u128::from(7.0f64.to_bits())));
        // x == x is not folded: it fails for NaN.
        let eq = p.fp_cmp(FpCmpOp::Eq, w, w);
        assert!(matches!(p.kind(eq), ExprKind::FpCmp { .. }));
        let mut m = Assignment::default();
        m.set(a, f32::NAN.to_bits().to_le_bytes().to_vec());
        assert_eq!(p.eval(eq, &m), 0);
        m.set(a, 1.5f32.to_bits().to_le_bytes().to_vec());
        assert_eq!(p.eval(eq, &m), 1);
        let sum = p.fp_bin(FpBinOp::Add, w, one);
        assert_eq!(p.eval(sum, &m), u128::from(2.5f32.to_bits()));
    }
}
