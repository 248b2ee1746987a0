//! `llvm.*` intrinsics: memory (memcpy/memmove/memset), varargs, stack save/restore,
//! overflow arithmetic, bit manipulation, min/max/abs, funnel shifts, pointer masks, float
//! classes, math on concrete floating point and the time-stamp counter. Integer intrinsics
//! are built as expressions, which fold to constants when their operands are concrete.

use super::{Exec, Executor, Flow};
use crate::memory::Byte;
use crate::outcome::ErrorKind;
use crate::state::State;
use crate::value::Value;
use augur_expr::{BinOp, ExprId, ExprPool};
use augur_ir::{FpKind, Reg, Ty, TyId};
use std::rc::Rc;

/// Execute a call of the intrinsic `name`.
pub(super) fn call(
    ex: &mut Executor,
    st: &mut State,
    name: &str,
    args: &[Value],
    dst: Option<Reg>,
    ret_ty: TyId,
) -> Exec<Flow> {
    let wide_result = matches!(ex.program.ty(ret_ty).ty, Ty::Int(w) if w > 128);
    if wide_result || args.iter().any(Value::is_wide) {
        return Err(ex.error(
            st,
            ErrorKind::Unsupported,
            format!("intrinsic `{name}` on an integer wider than 128 bits"),
        ));
    }
    let family = name
        .strip_prefix("llvm.")
        .unwrap_or(name)
        .split('.')
        .next()
        .unwrap_or("");
    let result: Option<Value> = match family {
        "memcpy" | "memmove" => return copy(ex, st, &args[0], &args[1], &args[2]),
        "memset" => return fill(ex, st, &args[0], &args[1], &args[2]),
        "va_start" => {
            va_start(ex, st, &args[0])?;
            None
        }
        "va_end" => None,
        "va_copy" => return copy(ex, st, &args[0], &args[1], &Value::con(24, 64)),
        "stacksave" => Some(Value::con(st.frame().allocas.len() as u128, 64)),
        "stackrestore" => {
            let keep = ex.concretize(st, &args[0])? as usize;
            let frame = st.frame_mut();
            let dropped: Vec<u64> = frame
                .allocas
                .drain(keep.min(frame.allocas.len())..)
                .collect();
            for a in dropped {
                st.mem.remove(a);
            }
            None
        }
        "trap" | "debugtrap" => {
            return Err(ex.error(st, ErrorKind::Abort, "llvm.trap executed".into()))
        }
        "expect" => Some(args[0].clone()),
        "objectsize" => {
            let min = args.get(1).and_then(Value::as_con).unwrap_or(0) != 0;
            let w = scalar_width(ex, ret_ty);
            Some(Value::con(if min { 0 } else { u128::MAX }, w))
        }
        // llvm.is.fpclass (LLVM 16 and later: clang's isnan/isinf/isfinite)
        "is" if name.starts_with("llvm.is.fpclass") => Some(fp_class(ex, st, args)?),
        "is" => Some(Value::con(0, 1)), // llvm.is.constant: never constant-folded here
        // llvm.ptrmask (clang 19's va_arg of an over-aligned type): the address's bits
        "ptrmask" => {
            let (x, m) = (args[0].expr(&mut ex.pool), args[1].expr(&mut ex.pool));
            let e = ex.pool.and(x, m);
            Some(Value::from_expr(&ex.pool, e))
        }
        "sadd" | "uadd" | "ssub" | "usub" | "smul" | "umul" => {
            Some(overflow(ex, family, &args[0], &args[1]))
        }
        "bswap" | "ctpop" | "ctlz" | "cttz" | "bitreverse" | "umin" | "umax" | "smin" | "smax"
        | "abs" | "fshl" | "fshr" => {
            let xs: Vec<ExprId> = args.iter().map(|a| a.expr(&mut ex.pool)).collect();
            let e = bits(&mut ex.pool, family, &xs);
            Some(Value::from_expr(&ex.pool, e))
        }
        // The time-stamp counter (`__rdtsc()`, `__rdtscp()`, inline `rdtsc` rewritten
        // before lowering): see `time_stamp`.
        "readcyclecounter" => Some(time_stamp(st)),
        "x86" if name == "llvm.x86.rdtsc" => Some(time_stamp(st)),
        // `rdtscp` also reads the processor's TSC_AUX: 0.
        "x86" if name == "llvm.x86.rdtscp" => {
            Some(Value::Agg(Rc::new(vec![time_stamp(st), Value::con(0, 32)])))
        }
        "fabs" | "floor" | "ceil" | "sqrt" | "trunc" | "round" | "rint" | "nearbyint"
        | "copysign" | "fma" | "fmuladd" | "minnum" | "maxnum" | "pow" | "exp" | "exp2" | "log"
        | "log2" | "log10" | "sin" | "cos" => Some(math(ex, st, family, args, ret_ty)?),
        _ => {
            return Err(ex.error(
                st,
                ErrorKind::Unsupported,
                format!("intrinsic {name} is not supported"),
            ));
        }
    };
    if let (Some(d), Some(v)) = (dst, result) {
        st.set(d, v);
    }
    Ok(Flow::Continue)
}

/// The time-stamp counter: the instructions the path has executed, so that the count is
/// the same in every run of the path and grows as a real one does. (A native run reads the
/// real counter: a test whose output depends on it does not replay exactly.)
fn time_stamp(st: &State) -> Value {
    Value::con(st.instructions as u128, 64)
}

fn scalar_width(ex: &Executor, ty: TyId) -> u32 {
    crate::bytes::scalar_width(&ex.program, ty)
}

/// memcpy/memmove: read all source bytes first, then write (so overlap is handled).
pub(super) fn copy(
    ex: &mut Executor,
    st: &mut State,
    dst: &Value,
    src: &Value,
    len: &Value,
) -> Exec<Flow> {
    let n = ex.concretize(st, len)? as u64;
    if n == 0 {
        return Ok(Flow::Continue);
    }
    let rs = ex.resolve(st, src, n, false)?;
    let bytes = ex.read_bytes(st, &rs, n);
    let rd = ex.resolve(st, dst, n, true)?;
    ex.write_bytes(st, &rd, &bytes);
    Ok(Flow::Continue)
}

/// memset.
fn fill(ex: &mut Executor, st: &mut State, dst: &Value, val: &Value, len: &Value) -> Exec<Flow> {
    let n = ex.concretize(st, len)? as u64;
    if n == 0 {
        return Ok(Flow::Continue);
    }
    let b = match val {
        Value::Con { bits, .. } => Byte::C(*bits as u8),
        v => {
            let e = v.expr(&mut ex.pool);
            Byte::S(ex.pool.extract(e, 0, 8))
        }
    };
    let r = ex.resolve(st, dst, n, true)?;
    ex.write_bytes(st, &r, &vec![b; n as usize]);
    Ok(Flow::Continue)
}

/// va_start: point the va_list at this frame's overflow area with every register slot
/// marked used (gp_offset 48, fp_offset 304), so clang's va_arg code reads the overflow area.
fn va_start(ex: &mut Executor, st: &mut State, list: &Value) -> Exec<()> {
    let Some(area) = st.frame().varargs else {
        return Err(ex.error(
            st,
            ErrorKind::Unsupported,
            "va_start in a function without varargs".into(),
        ));
    };
    let mut bytes = Vec::with_capacity(24);
    for (v, n) in [(48u128, 4), (304, 4), (area as u128, 8), (0, 8)] {
        crate::bytes::scalar_to_bytes(&mut ex.pool, &Value::con(v, 64), n, &mut bytes);
    }
    let r = ex.resolve(st, list, 24, true)?;
    ex.write_bytes(st, &r, &bytes);
    Ok(())
}

/// `{result, overflowed}` of an `*.with.overflow` intrinsic.
fn overflow(ex: &mut Executor, family: &str, a: &Value, b: &Value) -> Value {
    let p = &mut ex.pool;
    let (x, y) = (a.expr(p), b.expr(p));
    let w = p.width(x);
    let signed = family.starts_with('s');
    let (res, flag) = match &family[1..] {
        "add" | "sub" => {
            let op = if family.ends_with("add") {
                BinOp::Add
            } else {
                BinOp::Sub
            };
            let r = p.bin(op, x, y);
            let flag = if signed {
                // Overflow iff the exact result's sign disagrees: compare in w+1 bits.
                let (xx, yy) = (p.sext(x, w + 1), p.sext(y, w + 1));
                let wide = p.bin(op, xx, yy);
                let back = p.sext(r, w + 1);
                p.ne(wide, back)
            } else if op == BinOp::Add {
                p.ult(r, x)
            } else {
                p.ult(x, y)
            };
            (r, flag)
        }
        _ => {
            let r = p.mul(x, y);
            let flag = if w <= 64 {
                let (xx, yy) = if signed {
                    (p.sext(x, 2 * w), p.sext(y, 2 * w))
                } else {
                    (p.zext(x, 2 * w), p.zext(y, 2 * w))
                };
                let wide = p.mul(xx, yy);
                let back = if signed {
                    p.sext(r, 2 * w)
                } else {
                    p.zext(r, 2 * w)
                };
                p.ne(wide, back)
            } else {
                // Too wide to double: overflow iff x != 0 and r / x != y (plus MIN * -1).
                let zero = p.constant(0, w);
                let nonzero = p.ne(x, zero);
                let q = p.bin(if signed { BinOp::SDiv } else { BinOp::UDiv }, r, x);
                let differs = p.ne(q, y);
                let mut flag = p.bool_and(nonzero, differs);
                if signed {
                    let minus1 = p.constant(u128::MAX >> (128 - w), w);
                    let min = p.constant(1u128 << (w - 1), w);
                    let a_m1 = p.eq(x, minus1);
                    let b_min = p.eq(y, min);
                    let both = p.bool_and(a_m1, b_min);
                    flag = p.bool_or(flag, both);
                }
                flag
            };
            (r, flag)
        }
    };
    Value::Agg(Rc::new(vec![
        Value::from_expr(p, res),
        Value::from_expr(p, flag),
    ]))
}

/// Bit-manipulation and min/max intrinsics as expressions.
fn bits(p: &mut ExprPool, family: &str, xs: &[ExprId]) -> ExprId {
    let x = xs[0];
    let w = p.width(x);
    let bit = |p: &mut ExprPool, i: u32| {
        let b = p.extract(x, i, 1);
        let one = p.constant(1, 1);
        p.eq(b, one)
    };
    match family {
        "bswap" | "bitreverse" => {
            let (unit, n) = if family == "bswap" {
                (8, w / 8)
            } else {
                (1, w)
            };
            let mut acc = p.extract(x, 0, unit);
            for i in 1..n {
                let part = p.extract(x, i * unit, unit);
                acc = p.concat(acc, part);
            }
            acc
        }
        "ctpop" => {
            let mut acc = p.constant(0, w);
            for i in 0..w {
                let b = p.extract(x, i, 1);
                let b = p.zext(b, w);
                acc = p.add(acc, b);
            }
            acc
        }
        "ctlz" | "cttz" => {
            let mut acc = p.constant(w as u128, w);
            let order: Vec<u32> = if family == "ctlz" {
                (0..w).collect()
            } else {
                (0..w).rev().collect()
            };
            for i in order {
                let count = if family == "ctlz" { w - 1 - i } else { i };
                let c = p.constant(count as u128, w);
                let set = bit(p, i);
                acc = p.ite(set, c, acc);
            }
            acc
        }
        "umin" | "umax" | "smin" | "smax" => {
            let y = xs[1];
            let less = if family.starts_with('u') {
                p.ult(x, y)
            } else {
                p.slt(x, y)
            };
            if family.ends_with("min") {
                p.ite(less, x, y)
            } else {
                p.ite(less, y, x)
            }
        }
        "abs" => {
            let zero = p.constant(0, w);
            let neg = p.slt(x, zero);
            let minus = p.sub(zero, x);
            p.ite(neg, minus, x)
        }
        _ => {
            // fshl / fshr
            let (a, b, c) = (xs[0], xs[1], xs[2]);
            let width = p.constant(w as u128, w);
            let sh = p.bin(BinOp::URem, c, width);
            let zero = p.constant(0, w);
            let no_shift = p.eq(sh, zero);
            let inv = p.sub(width, sh);
            let (l, r, keep) = if family == "fshl" {
                (sh, inv, a)
            } else {
                (inv, sh, b)
            };
            let hi = p.bin(BinOp::Shl, a, l);
            let lo = p.bin(BinOp::LShr, b, r);
            let both = p.bin(BinOp::Or, hi, lo);
            p.ite(no_shift, keep, both)
        }
    }
}

/// `llvm.is.fpclass(x, test)`: does `x` (concretized) belong to one of the classes set in
/// `test` (bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0,
/// 7 +subnormal, 8 +normal, 9 +inf)?
fn fp_class(ex: &mut Executor, st: &mut State, args: &[Value]) -> Exec<Value> {
    let width = args[0].width(&ex.pool);
    if matches!(args[0], Value::Sym(_)) {
        ex.stats.float_concretizations += 1;
    }
    let bits = ex.concretize(st, &args[0])?;
    let test = ex.concretize(st, &args[1])?;
    // Widths of the exponent and of the fraction (x86_fp80's with its explicit integer bit).
    let (exp_bits, frac_bits) = match width {
        32 => (8, 23),
        80 => (15, 64),
        _ => (11, 52),
    };
    let neg = (bits >> (width - 1)) & 1 == 1;
    let exp = (bits >> frac_bits) & ((1 << exp_bits) - 1);
    let mut frac = bits & ((1u128 << frac_bits) - 1);
    if width == 80 {
        frac &= (1u128 << 63) - 1; // the explicit integer bit
    }
    let quiet = (frac >> (if width == 80 { 62 } else { frac_bits - 1 })) & 1 == 1;
    let class = if exp == (1 << exp_bits) - 1 {
        match (frac == 0, quiet) {
            (true, _) => {
                if neg {
                    2
                } else {
                    9
                }
            }
            (false, true) => 1,
            (false, false) => 0,
        }
    } else if exp == 0 {
        match (frac == 0, neg) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if neg {
        3
    } else {
        8
    };
    Ok(Value::con((test >> class) & 1, 1))
}

/// Math intrinsics: symbolic where `floats::symbolic_math` can, else on concrete floating
/// point.
fn math(
    ex: &mut Executor,
    st: &mut State,
    family: &str,
    args: &[Value],
    ret_ty: TyId,
) -> Exec<Value> {
    let Ty::Float(kind) = ex.program.ty(ret_ty).ty else {
        return Err(ex.error(st, ErrorKind::Unsupported, format!("vector llvm.{family}")));
    };
    if let Some(v) = super::floats::symbolic_math(ex, family, args, kind) {
        return Ok(v);
    }
    let mut xs = Vec::with_capacity(args.len());
    for a in args {
        if matches!(a, Value::Sym(_)) {
            ex.stats.float_concretizations += 1;
        }
        let bits = ex.concretize(st, a)?;
        xs.push(match kind {
            FpKind::F32 => f32::from_bits(bits as u32) as f64,
            FpKind::F64 => f64::from_bits(bits as u64),
            FpKind::F80 => super::floats::f80_to_f64(bits),
        });
    }
    let x = xs[0];
    let y = || xs[1];
    let r = match family {
        "fabs" => x.abs(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "sqrt" => x.sqrt(),
        "trunc" => x.trunc(),
        "round" => x.round(),
        "rint" | "nearbyint" => x.round_ties_even(),
        "copysign" => x.copysign(y()),
        "fma" | "fmuladd" => x.mul_add(y(), xs[2]),
        "minnum" => x.min(y()),
        "maxnum" => x.max(y()),
        "pow" => x.powf(y()),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "log" => x.ln(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        "sin" => x.sin(),
        _ => x.cos(),
    };
    Ok(match kind {
        FpKind::F32 => Value::con((r as f32).to_bits() as u128, 32),
        FpKind::F64 => Value::con(r.to_bits() as u128, 64),
        FpKind::F80 => Value::con(super::floats::f64_to_f80(r), 80),
    })
}
