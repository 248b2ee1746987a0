//! Translation of the floating-point nodes into Z3's floating-point theory. Values stay
//! bit patterns: an operand is read as a float with `fp` from its bits, and a result is
//! turned back into bits with `fp.to_ieee_bv`, which Z3 leaves unspecified for NaN; the
//! NaN bits are pinned by `ite`s to the ones the evaluator gives (`augur_expr::float`),
//! so every model agrees with the evaluator. Rounding is to nearest, ties to even.

use augur_expr::float::{default_nan, fraction_bits, quiet_bit};
use augur_expr::{bits::mask, ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp};
use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::Sort;

use crate::z3_translate::bv_const;

/// The Z3 sort of the format of `width` bits.
fn sort(width: u32) -> Sort {
    Sort::float(width - 1 - fraction_bits(width), fraction_bits(width) + 1)
}

/// The bit-vector `bits` read as a float of its width.
fn float(bits: &BV) -> Float {
    let s = sort(bits.get_size());
    let ctx = bits.get_ctx();
    // SAFETY: a valid context, bit-vector and sort of one context; Z3 checks the sizes.
    unsafe {
        let ast =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), s.get_z3_sort())
                .expect("Z3 reads bits as a float");
        Float::wrap(ctx, ast)
    }
}

/// The integer `int` (signed or not) as the float of `width` bits nearest it.
fn from_int(int: &BV, signed: bool, width: u32) -> Float {
    let s = sort(width);
    let rm = RoundingMode::round_nearest_ties_to_even();
    let ctx = int.get_ctx();
    let make = if signed {
        z3_sys::Z3_mk_fpa_to_fp_signed
    } else {
        z3_sys::Z3_mk_fpa_to_fp_unsigned
    };
    // SAFETY: as in `float`.
    unsafe {
        let ast = make(
            ctx.get_z3_context(),
            rm.get_z3_ast(),
            int.get_z3_ast(),
            s.get_z3_sort(),
        )
        .expect("Z3 converts an integer to a float");
        Float::wrap(ctx, ast)
    }
}

/// The bits `bits` with the quiet bit of a NaN set.
fn quieted(bits: &BV) -> BV {
    let w = bits.get_size();
    bits.bvor(bv_const(quiet_bit(w), w))
}

/// The bits of the float `result` of an operation on `operands` (bits): the first NaN
/// operand made quiet, else the default NaN for a NaN result, else its bits.
fn settled(result: &Float, operands: &[&BV], width: u32) -> BV {
    let base = result
        .is_nan()
        .ite(&bv_const(default_nan(width), width), &result.to_ieee_bv());
    operands
        .iter()
        .rev()
        .fold(base, |acc, op| float(op).is_nan().ite(&quieted(op), &acc))
}

/// The float of `width` bits nearest `v` (infinite past the format's range).
fn float_const(v: f64, width: u32) -> Float {
    let bits = if width == 32 {
        u128::from((v as f32).to_bits())
    } else {
        u128::from(v.to_bits())
    };
    float(&bv_const(bits, width))
}

/// The term of the floating-point node `n`, its operands' bits given by `bv`.
pub(crate) fn term(pool: &ExprPool, n: ExprId, bv: impl Fn(ExprId) -> BV) -> z3::ast::Dynamic {
    match *pool.kind(n) {
        ExprKind::FpBin { op, lhs, rhs } => {
            let (a, b) = (bv(lhs), bv(rhs));
            let (x, y) = (float(&a), float(&b));
            let rm = RoundingMode::round_nearest_ties_to_even();
            let r = match op {
                FpBinOp::Add => x.add_with_rounding_mode(&y, &rm),
                FpBinOp::Sub => x.sub_with_rounding_mode(&y, &rm),
                FpBinOp::Mul => x.mul_with_rounding_mode(&y, &rm),
                FpBinOp::Div => x.div_with_rounding_mode(&y, &rm),
            };
            settled(&r, &[&a, &b], a.get_size()).into()
        }
        ExprKind::FpCmp { op, lhs, rhs } => {
            let (x, y) = (float(&bv(lhs)), float(&bv(rhs)));
            let holds: Bool = match op {
                FpCmpOp::Eq => x.eq_fpa(&y),
                FpCmpOp::Lt => x.lt(&y),
                FpCmpOp::Le => x.le(&y),
                FpCmpOp::Uno => Bool::or(&[x.is_nan(), y.is_nan()]),
            };
            holds.into()
        }
        ExprKind::FpSqrt(e) => {
            let a = bv(e);
            settled(&float(&a).sqrt(), &[&a], a.get_size()).into()
        }
        ExprKind::FpConv { op, expr, width } => conv(op, &bv(expr), width).into(),
        _ => unreachable!("not a floating-point node"),
    }
}

/// The conversion `op` of the bits `a` to `to` bits.
fn conv(op: FpConvOp, a: &BV, to: u32) -> BV {
    match op {
        FpConvOp::FromSInt => from_int(a, true, to).to_ieee_bv(),
        FpConvOp::FromUInt => from_int(a, false, to).to_ieee_bv(),
        FpConvOp::ToSInt | FpConvOp::ToUInt => to_int(a, op == FpConvOp::ToSInt, to),
        FpConvOp::Resize => {
            let x = float(a);
            let rm = RoundingMode::round_nearest_ties_to_even();
            let r = x.to_fp_with_rounding_mode(&rm, &sort(to)).to_ieee_bv();
            x.is_nan().ite(&resized_nan(a, to), &r)
        }
    }
}

/// The float bits `a` as a `to`-bit integer, truncated toward zero, saturating at the
/// integer's bounds, NaN giving 0 (Z3 leaves those cases unspecified).
fn to_int(a: &BV, signed: bool, to: u32) -> BV {
    let from = a.get_size();
    let x = float(a);
    let magnitude = 2f64.powi(if signed { to as i32 - 1 } else { to as i32 });
    let (low, min, max) = if signed {
        let min = 1u128 << (to - 1);
        (-magnitude, min, min - 1)
    } else {
        (0.0, 0, mask(to))
    };
    let rtz = RoundingMode::round_towards_zero();
    let inside = if signed {
        x.to_sbv_with_rounding_mode(&rtz, to)
    } else {
        x.to_ubv_with_rounding_mode(&rtz, to)
    };
    let below = x
        .le(float_const(low, from))
        .ite(&bv_const(min, to), &inside);
    let above = x
        .ge(float_const(magnitude, from))
        .ite(&bv_const(max, to), &below);
    x.is_nan().ite(&bv_const(0, to), &above)
}

/// The bits of the NaN `a` in the `to`-bit format: its sign and the top of its payload,
/// quiet.
fn resized_nan(a: &BV, to: u32) -> BV {
    let from = a.get_size();
    let (ff, ft) = (fraction_bits(from), fraction_bits(to));
    let frac = a.extract(ff - 1, 0);
    let frac = if ft > ff {
        frac.concat(BV::from_u64(0, ft - ff))
    } else {
        frac.extract(ff - 1, ff - ft)
    };
    let sign = a.extract(from - 1, from - 1);
    let exp = bv_const(mask(to - 1 - ft), to - 1 - ft);
    quieted(&sign.concat(exp).concat(frac))
}

#[cfg(test)]
mod tests {
    use crate::stats::SharedStats;
    use crate::test_util::var;
    use crate::z3_backend::Z3Backend;
    use crate::{SatResult, Solver};
    use augur_expr::float::{fold_fp_bin, fold_fp_cmp, fold_fp_conv, fold_fp_sqrt};
    use augur_expr::{ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp};

    /// Interesting bit patterns of each format: zeros, ones, fractions, extremes,
    /// subnormals, infinities and NaNs (quiet, signalling, with payloads).
    fn values(width: u32) -> Vec<u128> {
        if width == 32 {
            let v = [
                0.0f32,
                -0.0,
                1.0,
                -1.5,
                0.1,
                3.75,
                1e30,
                -2.5e9,
                16_777_217.0,
                f32::MAX,
                f32::MIN_POSITIVE / 4.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
            ];
            let mut out: Vec<u128> = v.iter().map(|x| u128::from(x.to_bits())).collect();
            out.extend([0x7fc0_0000, 0xff80_0001, 0x7fa0_1234]);
            out
        } else {
            let v = [
                0.0f64,
                -0.0,
                1.0,
                -1.5,
                0.1,
                3.75,
                1e300,
                -2.5e9,
                9.3e18,
                -9.3e18,
                4.0e9,
                f64::MIN_POSITIVE / 8.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ];
            let mut out: Vec<u128> = v.iter().map(|x| u128::from(x.to_bits())).collect();
            out.extend([
                0x7ff8_0000_0000_0000,
                0xfff0_0000_0000_0001,
                0x7ff4_0000_dead_beef,
            ]);
            out
        }
    }

    /// `raw == value` with `raw` interned unfolded, so Z3 computes it.
    fn claim(p: &mut ExprPool, raw: ExprKind, value: u128) -> ExprId {
        let raw = p.raw(raw);
        let c = p.constant(value, p.width(raw));
        p.raw(ExprKind::Cmp {
            op: augur_expr::CmpOp::Eq,
            lhs: raw,
            rhs: c,
        })
    }

    /// Z3 computes every operation on constants exactly as the evaluator does, NaN bits
    /// included.
    #[test]
    fn z3_agrees_with_the_evaluator_on_constants() {
        let mut p = ExprPool::new();
        let claims = evaluator_claims(&mut p);
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        if matches!(z3.check(&p, &claims), Ok(SatResult::Sat(_))) {
            return;
        }
        for c in claims {
            let answer = z3.check(&p, &[c]);
            assert!(
                matches!(answer, Ok(SatResult::Sat(_))),
                "Z3 disagrees: {}",
                p.display(c)
            );
        }
        panic!("the claims are jointly but not individually unsatisfiable");
    }

    /// The SMT-LIB2 script of the same claims replays in Z3 as satisfiable, and with one
    /// false claim more as unsatisfiable.
    #[test]
    fn smtlib_scripts_of_floating_point_replay_in_z3() {
        let mut p = ExprPool::new();
        let mut claims = evaluator_claims(&mut p);
        let z3_answer = |p: &ExprPool, cs: &[ExprId]| {
            let solver = z3::Solver::new();
            solver.from_string(p.to_smtlib2(cs));
            solver.check()
        };
        assert_eq!(z3_answer(&p, &claims), z3::SatResult::Sat);
        let one = p.constant(u128::from(1.0f64.to_bits()), 64);
        let three = u128::from(3.0f64.to_bits());
        let add = ExprKind::FpBin {
            op: FpBinOp::Add,
            lhs: one,
            rhs: one,
        };
        claims.push(claim(&mut p, add, three));
        assert_eq!(z3_answer(&p, &claims), z3::SatResult::Unsat);
    }

    /// For every operation on the values of [`values`], `raw == the evaluator's value`.
    fn evaluator_claims(p: &mut ExprPool) -> Vec<ExprId> {
        let mut claims = Vec::new();
        for w in [32, 64] {
            let vals = values(w);
            for &a in &vals {
                let ca = p.constant(a, w);
                let sqrt = fold_fp_sqrt(a, w);
                claims.push(claim(p, ExprKind::FpSqrt(ca), sqrt));
                let other = 96 - w;
                let resized = fold_fp_conv(FpConvOp::Resize, a, w, other);
                claims.push(claim(
                    p,
                    ExprKind::FpConv {
                        op: FpConvOp::Resize,
                        expr: ca,
                        width: other,
                    },
                    resized,
                ));
                for (op, to) in [
                    (FpConvOp::ToSInt, 32),
                    (FpConvOp::ToUInt, 64),
                    (FpConvOp::ToSInt, 64),
                    (FpConvOp::ToUInt, 8),
                ] {
                    let v = fold_fp_conv(op, a, w, to);
                    claims.push(claim(
                        p,
                        ExprKind::FpConv {
                            op,
                            expr: ca,
                            width: to,
                        },
                        v,
                    ));
                }
                for &b in &vals {
                    let cb = p.constant(b, w);
                    for op in FpBinOp::ALL {
                        let v = fold_fp_bin(op, a, b, w);
                        claims.push(claim(
                            p,
                            ExprKind::FpBin {
                                op,
                                lhs: ca,
                                rhs: cb,
                            },
                            v,
                        ));
                    }
                    for op in FpCmpOp::ALL {
                        let v = u128::from(fold_fp_cmp(op, a, b, w));
                        claims.push(claim(
                            p,
                            ExprKind::FpCmp {
                                op,
                                lhs: ca,
                                rhs: cb,
                            },
                            v,
                        ));
                    }
                }
            }
            for int in [0u128, 7, 0xffff_fff9, (1 << 24) + 1, u128::from(u32::MAX)] {
                let ci = p.constant(int, 32);
                for op in [FpConvOp::FromSInt, FpConvOp::FromUInt] {
                    let v = fold_fp_conv(op, int, 32, w);
                    claims.push(claim(
                        p,
                        ExprKind::FpConv {
                            op,
                            expr: ci,
                            width: w,
                        },
                        v,
                    ));
                }
            }
        }
        claims
    }

    /// A float computed from an input byte: Z3 finds one in a range, the model's value
    /// holds under the evaluator, and a NaN it cannot be is unsat.
    #[test]
    fn solves_a_range_of_a_computed_float() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let f = |p: &mut ExprPool, v: f32| p.constant(u128::from(v.to_bits()), 32);
        let int = p.fp_conv(FpConvOp::FromUInt, x, 32);
        let seventy = f(&mut p, 70.0);
        let q = p.fp_bin(FpBinOp::Div, int, seventy);
        let (lo, hi) = (f(&mut p, 3.5), f(&mut p, 3.6));
        let above = p.fp_cmp(FpCmpOp::Lt, lo, q);
        let below = p.fp_cmp(FpCmpOp::Lt, q, hi);
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        let SatResult::Sat(m) = z3.check(&p, &[above, below]).unwrap() else {
            panic!("expected sat")
        };
        // 3.5 < x / 70 < 3.6: x in 246..=251.
        let v = p.eval(x, &m);
        assert!((246..=251).contains(&v), "x = {v}");
        let nan = p.fp_cmp(FpCmpOp::Uno, q, q);
        assert!(matches!(z3.check(&p, &[nan]).unwrap(), SatResult::Unsat));
    }

    /// A floating-point query Z3 needs far longer for (no NaN comes of dividing a 32-bit
    /// integer by 70.0, a proof through a double division) stops at the deadline like any
    /// other, counted as a timeout.
    #[test]
    fn a_slow_float_query_keeps_to_the_deadline() {
        use crate::z3_backend::SharedDeadline;
        use crate::SolverError;
        use std::time::{Duration, Instant};
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 4);
        let int = p.fp_conv(FpConvOp::FromSInt, x, 64);
        let seventy = p.constant(u128::from(70.0f64.to_bits()), 64);
        let q = p.fp_bin(FpBinOp::Div, int, seventy);
        let nan = p.fp_cmp(FpCmpOp::Uno, q, q);
        let stats = SharedStats::default();
        let deadline = SharedDeadline::default();
        let mut z3 = Z3Backend::new(Some(Duration::from_secs(600)), stats.clone())
            .keeping_to(deadline.clone());
        let start = Instant::now();
        // Bit-blasting the division alone takes Z3 longer than this.
        deadline.set(Some(start + Duration::from_millis(100)));
        assert_eq!(z3.check(&p, &[nan]), Err(SolverError::Timeout));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(stats.borrow().timeouts, 1);
    }
}
