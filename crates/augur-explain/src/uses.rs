//! The operands an instruction reads (phi nodes excepted: their incoming value depends
//! on the predecessor block, see `deps`).

use augur_ir::{Callee, Inst, Operand};

/// The operands `inst` reads, in field order. For a call: the function pointer (if
/// indirect) then the arguments.
pub fn operands(inst: &Inst) -> Vec<&Operand> {
    match inst {
        Inst::Bin { a, b, .. }
        | Inst::FBin { a, b, .. }
        | Inst::ICmp { a, b, .. }
        | Inst::FCmp { a, b, .. } => vec![a, b],
        Inst::FNeg { a, .. } | Inst::Cast { a, .. } | Inst::FpCast { a, .. } => vec![a],
        Inst::Select { cond, t, f, .. } => vec![cond, t, f],
        Inst::Alloca { count, .. } => vec![count],
        Inst::Load { addr, .. } => vec![addr],
        Inst::Store { addr, val, .. } => vec![addr, val],
        Inst::Gep { base, indices, .. } => std::iter::once(base)
            .chain(indices.iter().map(|i| &i.0))
            .collect(),
        Inst::ExtractValue { agg, .. } => vec![agg],
        Inst::InsertValue { agg, elem, .. } => vec![agg, elem],
        Inst::Call { callee, args, .. } => {
            let target = match callee {
                Callee::Indirect(op) => Some(op),
                Callee::Direct(_) | Callee::Asm => None,
            };
            target.into_iter().chain(args.iter()).collect()
        }
        Inst::Ret { val } => val.iter().collect(),
        Inst::CondBr { cond, .. } => vec![cond],
        Inst::Switch { val, .. } => vec![val],
        Inst::Phi { .. } | Inst::Br { .. } | Inst::Unreachable | Inst::Unsupported(_) => Vec::new(),
    }
}
