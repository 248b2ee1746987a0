//! SMT-LIB2 terms of the floating-point nodes (the theory of FloatingPoint, with Z3's
//! `fp.to_ieee_bv`), giving the bits [`crate::float`] gives: NaN results are pinned by
//! `ite`s, as the Z3 translation pins them.

use crate::float::{default_nan, fraction_bits, quiet_bit};
use crate::{ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp};

/// The sort parameters `eb sb` of the format of `width` bits.
fn sort(width: u32) -> String {
    format!(
        "{} {}",
        width - 1 - fraction_bits(width),
        fraction_bits(width) + 1
    )
}

/// The bits `bits` (a term of `width` bits) read as a float.
fn float(bits: &str, width: u32) -> String {
    format!("((_ to_fp {}) {bits})", sort(width))
}

/// The bits of the float `result` of an operation on `operands` (bit terms): a NaN
/// operand's bits made quiet, else the default NaN for a NaN result, else its bits.
fn settled(result: &str, operands: &[&str], width: u32) -> String {
    let nan = format!("(_ bv{} {width})", default_nan(width));
    let mut out = format!("(ite (fp.isNaN {result}) {nan} (fp.to_ieee_bv {result}))");
    for op in operands.iter().rev() {
        out = format!(
            "(ite (fp.isNaN {}) (bvor {op} (_ bv{} {width})) {out})",
            float(op, width),
            quiet_bit(width)
        );
    }
    out
}

/// The float of `width` bits nearest `v` (infinite past the format's range), as a term.
fn float_const(v: f64, width: u32) -> String {
    let bits = if width == 32 {
        u128::from((v as f32).to_bits())
    } else {
        u128::from(v.to_bits())
    };
    float(&format!("(_ bv{bits} {width})"), width)
}

impl ExprPool {
    /// The defining term of the floating-point node `e`, its operands named by `t`.
    pub(crate) fn smt_float_body(&self, e: ExprId, t: impl Fn(ExprId) -> String) -> String {
        match *self.kind(e) {
            ExprKind::FpBin { op, lhs, rhs } => {
                let w = self.width(lhs);
                let (a, b) = (t(lhs), t(rhs));
                let name = match op {
                    FpBinOp::Add => "fp.add",
                    FpBinOp::Sub => "fp.sub",
                    FpBinOp::Mul => "fp.mul",
                    FpBinOp::Div => "fp.div",
                };
                let r = format!("({name} RNE {} {})", float(&a, w), float(&b, w));
                settled(&r, &[&a, &b], w)
            }
            ExprKind::FpCmp { op, lhs, rhs } => {
                let w = self.width(lhs);
                let (a, b) = (float(&t(lhs), w), float(&t(rhs), w));
                let holds = match op {
                    FpCmpOp::Eq => format!("(fp.eq {a} {b})"),
                    FpCmpOp::Lt => format!("(fp.lt {a} {b})"),
                    FpCmpOp::Le => format!("(fp.leq {a} {b})"),
                    FpCmpOp::Uno => format!("(or (fp.isNaN {a}) (fp.isNaN {b}))"),
                };
                format!("(ite {holds} #b1 #b0)")
            }
            ExprKind::FpSqrt(x) => {
                let w = self.width(x);
                let a = t(x);
                settled(&format!("(fp.sqrt RNE {})", float(&a, w)), &[&a], w)
            }
            ExprKind::FpConv { op, expr, width } => {
                self.smt_conv(op, &t(expr), self.width(expr), width)
            }
            _ => unreachable!("not a floating-point node"),
        }
    }

    /// The term of the conversion `op` of the `from`-bit term `a` to `to` bits.
    fn smt_conv(&self, op: FpConvOp, a: &str, from: u32, to: u32) -> String {
        let bv = |v: u128| format!("(_ bv{v} {to})");
        match op {
            FpConvOp::FromSInt => format!("(fp.to_ieee_bv ((_ to_fp {}) RNE {a}))", sort(to)),
            FpConvOp::FromUInt => {
                format!("(fp.to_ieee_bv ((_ to_fp_unsigned {}) RNE {a}))", sort(to))
            }
            FpConvOp::ToSInt | FpConvOp::ToUInt => {
                let x = float(a, from);
                let signed = op == FpConvOp::ToSInt;
                let bits = if signed { to - 1 } else { to };
                let hi = float_const(2f64.powi(bits as i32), from);
                let (lo, min, max) = if signed {
                    let min = 1u128 << (to - 1);
                    (float_const(-(2f64.powi(bits as i32)), from), min, min - 1)
                } else {
                    (float_const(0.0, from), 0, crate::bits::mask(to))
                };
                let name = if signed { "fp.to_sbv" } else { "fp.to_ubv" };
                format!(
                    "(ite (fp.isNaN {x}) {} (ite (fp.geq {x} {hi}) {} (ite (fp.leq {x} {lo}) {} ((_ {name} {to}) RTZ {x}))))",
                    bv(0),
                    bv(max),
                    bv(min)
                )
            }
            FpConvOp::Resize => {
                let x = float(a, from);
                let q = format!("((_ to_fp {}) RNE {x})", sort(to));
                let nan = self.smt_resized_nan(a, from, to);
                format!("(ite (fp.isNaN {x}) {nan} (fp.to_ieee_bv {q}))")
            }
        }
    }

    /// The bits of the NaN `a` (of `from` bits) in the other format: its sign and the top
    /// of its payload, quiet.
    fn smt_resized_nan(&self, a: &str, from: u32, to: u32) -> String {
        let (ff, ft) = (fraction_bits(from), fraction_bits(to));
        let frac = format!("((_ extract {} 0) {a})", ff - 1);
        let frac = if to > from {
            format!("(concat {frac} (_ bv0 {}))", ft - ff)
        } else {
            format!("((_ extract {} {}) {frac})", ff - 1, ff - ft)
        };
        let sign = format!("((_ extract {} {}) {a})", from - 1, from - 1);
        let exp = crate::bits::mask(to - 1 - ft);
        format!(
            "(bvor (concat {sign} (_ bv{exp} {}) {frac}) (_ bv{} {to}))",
            to - 1 - ft,
            quiet_bit(to)
        )
    }
}
