//! Arithmetic a solver cannot be expected to invert, found in a function's own code:
//! loops that mix input bits (hashes, ciphers, CRCs: xor, shifts, rotations and
//! multiplications of input-derived values, whatever their trip count), and floating
//! point computed from input.

use crate::hard::line_of;
use crate::loop_calls::loop_insts;
use crate::taint::Flow;
use augur_ir::{Callee, Function, Inst, IntOp, Loop, Operand, Program, Ty};
use rustc_hash::FxHashSet;

/// A loop mixes bits when it has at least this many mixing operations on input-derived
/// values, of at least two kinds, one of them xor or a rotation.
pub const MIXING_MIN: usize = 3;

/// The kind of bit-mixing operation `inst` is, if it is one on an input-derived value.
fn mixing_kind(prog: &Program, flow: &Flow, inst: &Inst) -> Option<&'static str> {
    let tainted = |ops: &[&Operand]| ops.iter().any(|o| flow.op_tainted(o));
    match inst {
        Inst::Bin { op, a, b, .. } if tainted(&[a, b]) => match op {
            IntOp::Xor => Some("xor"),
            IntOp::Shl | IntOp::LShr | IntOp::AShr => Some("shift"),
            IntOp::Mul => Some("multiply"),
            _ => None,
        },
        Inst::Call {
            callee: Callee::Direct(g),
            args,
            ..
        } if tainted(&args.iter().collect::<Vec<_>>()) => {
            let name = prog.func(*g).name.as_str();
            ["llvm.fshl.", "llvm.fshr.", "llvm.bswap."]
                .iter()
                .any(|p| name.starts_with(p))
                .then_some("rotate")
        }
        _ => None,
    }
}

/// Why a loop of `f` mixes input bits, if one does.
pub fn mixing_loop(prog: &Program, f: &Function, flow: &Flow, loops: &[Loop]) -> Option<String> {
    loops.iter().find_map(|l| {
        let ops: Vec<(u32, &str)> = loop_insts(f, l)
            .filter_map(|(pc, i)| Some((pc, mixing_kind(prog, flow, i)?)))
            .collect();
        let kinds: FxHashSet<&str> = ops.iter().map(|(_, k)| *k).collect();
        let mixes = ops.len() >= MIXING_MIN
            && kinds.len() >= 2
            && (kinds.contains("xor") || kinds.contains("rotate"));
        mixes.then(|| {
            let mut names: Vec<&str> = kinds.into_iter().collect();
            names.sort();
            format!(
                "loop at line {} mixes input bits: {} {} operation(s) on input-derived values (from line {})",
                line_of(prog, f, f.blocks[l.header.0 as usize].start),
                ops.len(),
                names.join("/"),
                line_of(prog, f, ops[0].0)
            )
        })
    })
}

/// Is `inst` floating-point arithmetic or a conversion to floating point on an
/// input-derived value?
fn float_on_input(flow: &Flow, inst: &Inst) -> bool {
    matches!(
        inst,
        Inst::FBin { .. } | Inst::FNeg { .. } | Inst::FpCast { .. }
    ) && inst.operands().iter().any(|o| flow.op_tainted(o))
}

/// Why `f`'s result is hard, if it returns a floating-point value it computes from input.
pub fn float_result(prog: &Program, f: &Function, flow: &Flow) -> Option<String> {
    if !matches!(prog.ty(f.ret_ty).ty, Ty::Float(_)) {
        return None;
    }
    let pc = f.insts.iter().position(|i| float_on_input(flow, i))?;
    Some(format!(
        "returns a floating-point value computed from input (line {})",
        line_of(prog, f, pc as u32)
    ))
}

/// The line of a floating-point comparison of an input-derived value in `f`, if any.
pub fn float_branch(prog: &Program, f: &Function, flow: &Flow) -> Option<u32> {
    let pc = f.insts.iter().position(
        |i| matches!(i, Inst::FCmp { a, b, .. } if flow.op_tainted(a) || flow.op_tainted(b)),
    )?;
    Some(line_of(prog, f, pc as u32))
}
