//! Inline assembly that real C code uses, replaced by the LLVM IR it amounts to before
//! lowering (the interpreter runs no assembly; `recognise.rs` reads what a call does):
//!
//! - `cpuid` (gcc's `<cpuid.h>`, as coreutils' `wc` uses it to look for AVX2): every
//!   output reads 0. The analysed machine has no optional CPU features (the highest basic
//!   leaf is 0, so `__get_cpuid` fails and every feature bit is clear), and programs take
//!   their portable code.
//! - identity moves, barriers, fences, `pause`, `nop` (an assembly string of nothing else
//!   or comments, e.g. BusyBox's `asm volatile("" : "=r"(pp) : "0"(p))`): each output is
//!   the input tied to it; with no output the call is deleted.
//! - `bswap %0` of a tied operand: `llvm.bswap`.
//! - `rdtsc`/`rdtscp`: `llvm.readcyclecounter`, split into the `eax`/`edx` halves the
//!   outputs name (`ecx`, `rdtscp`'s `TSC_AUX`, reads 0).
//!
//! Any other call is left, and why it cannot run (naming its assembly) is recorded for the
//! lowering ([`AsmLeft`]), which hands it to the interpreter to end the path with.

mod recognise;

use std::collections::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;

use self::recognise::{AsmCall, AsmKind, CounterPart};
use super::{take_message, Rewriter};

/// Why each inline-assembly call left in a function cannot run, by function name, in the
/// order of the calls in the function.
pub(crate) type AsmLeft = HashMap<String, Vec<String>>;

impl Rewriter<'_> {
    /// If `inst` calls inline assembly: replace it by IR if it is of a kind that runs
    /// (true), or record why it cannot run under `func`'s name (false; so is a call of
    /// anything else).
    pub(super) fn rewrite_inline_asm(&mut self, func: &str, inst: LLVMValueRef) -> bool {
        // SAFETY: `inst` is an instruction of the module (invariant); the called value is
        // only asked of calls.
        let call = unsafe {
            if LLVMIsACallInst(inst).is_null() {
                return false;
            }
            let asm = LLVMGetCalledValue(inst);
            if LLVMIsAInlineAsm(asm).is_null() {
                return false;
            }
            // The assembly alone (`void ()* asm "..", ".."`), not the call: printing an
            // instruction numbers the whole module's values and debug metadata first
            // (BusyBox: seconds for its hundreds of calls).
            AsmCall::parse(&take_message(LLVMPrintValueToString(asm)))
        };
        let Some(call) = call else {
            self.leave(func, "inline assembly is not supported".into());
            return false;
        };
        let why = match call.kind() {
            AsmKind::Unsupported(why) => why,
            kind => match self.replacement(inst, kind) {
                Some(outputs) => {
                    self.replace_call(inst, &outputs);
                    return true;
                }
                None => format!(
                    "inline assembly `{}` is not supported with these operand types",
                    call.c_form()
                ),
            },
        };
        self.leave(func, why);
        false
    }

    /// Record why a call of inline assembly left in `func` cannot run.
    fn leave(&mut self, func: &str, why: String) {
        self.asm_left.entry(func.to_string()).or_default().push(why);
    }

    /// Replace the uses of call `inst` by `outputs` (its direct outputs' values, built
    /// before it; one struct of them if several), and delete it.
    fn replace_call(&mut self, inst: LLVMValueRef, outputs: &[LLVMValueRef]) {
        // SAFETY: `inst` is an instruction of the module (invariant); the outputs have the
        // call's result types and are built before it, so the call's uses can take them.
        unsafe {
            let ty = LLVMTypeOf(inst);
            let result = match outputs {
                _ if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMVoidTypeKind => None,
                [one] if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMStructTypeKind => Some(*one),
                many => Some(
                    many.iter()
                        .enumerate()
                        .fold(LLVMGetUndef(ty), |agg, (i, v)| {
                            LLVMBuildInsertValue(self.builder.0, agg, *v, i as u32, c"".as_ptr())
                        }),
                ),
            };
            if let Some(v) = result {
                LLVMReplaceAllUsesWith(inst, v);
            }
            LLVMInstructionEraseFromParent(inst);
        }
        self.stats.rewritten_asm += 1;
    }

    /// The values of the direct outputs of `inst`, a call of inline assembly of `kind`,
    /// built right before it; None if the operands' types are not those the rewrite knows
    /// (a tied input of another type than its output, a counter half that is not `i32` or
    /// `i64`).
    fn replacement(&mut self, inst: LLVMValueRef, kind: AsmKind) -> Option<Vec<LLVMValueRef>> {
        self.position_before(inst, inst);
        let output_types = self.output_types(inst);
        // SAFETY: `inst` is a call (checked by the caller) whose arguments the constraints
        // describe; built values go before it.
        unsafe {
            let arg = |i: usize| LLVMGetOperand(inst, i as u32);
            match kind {
                AsmKind::Cpuid => Some(output_types.iter().map(|t| LLVMConstNull(*t)).collect()),
                AsmKind::Identity(ties) => {
                    let values: Vec<LLVMValueRef> = ties.into_iter().map(arg).collect();
                    values
                        .iter()
                        .zip(&output_types)
                        .all(|(v, t)| LLVMTypeOf(*v) == *t)
                        .then_some(values)
                }
                AsmKind::Bswap(tied) => {
                    let x = arg(tied);
                    let ty = LLVMTypeOf(x);
                    (output_types == [ty])
                        .then(|| vec![self.call_intrinsic("llvm.bswap", &[ty], &[x])])
                }
                AsmKind::BitScan { forward, input } => {
                    let x = arg(input);
                    let ty = LLVMTypeOf(x);
                    let [out] = output_types[..] else {
                        return None;
                    };
                    let ints = [ty, out]
                        .iter()
                        .all(|t| LLVMGetTypeKind(*t) == LLVMTypeKind::LLVMIntegerTypeKind);
                    if !ints {
                        return None;
                    }
                    let b = self.builder.0;
                    let i1 = LLVMInt1TypeInContext(self.module.ctx.raw);
                    let defined_at_zero = LLVMConstInt(i1, 0, 0);
                    let index = if forward {
                        self.call_intrinsic("llvm.cttz", &[ty], &[x, defined_at_zero])
                    } else {
                        let zeros = self.call_intrinsic("llvm.ctlz", &[ty], &[x, defined_at_zero]);
                        let top = LLVMConstInt(ty, u64::from(LLVMGetIntTypeWidth(ty)) - 1, 0);
                        LLVMBuildSub(b, top, zeros, c"".as_ptr())
                    };
                    Some(vec![LLVMBuildIntCast2(b, index, out, 0, c"".as_ptr())])
                }
                AsmKind::Cycles(parts) => {
                    let ints = output_types.iter().all(|t| {
                        LLVMGetTypeKind(*t) == LLVMTypeKind::LLVMIntegerTypeKind
                            && matches!(LLVMGetIntTypeWidth(*t), 32 | 64)
                    });
                    if !ints {
                        return None;
                    }
                    let count = self.call_intrinsic("llvm.readcyclecounter", &[], &[]);
                    let b = self.builder.0;
                    let i32t = LLVMInt32TypeInContext(self.module.ctx.raw);
                    let shift = LLVMConstInt(LLVMTypeOf(count), 32, 0);
                    let high = LLVMBuildLShr(b, count, shift, c"".as_ptr());
                    let half = |p: &CounterPart| match p {
                        CounterPart::Low => LLVMBuildTrunc(b, count, i32t, c"".as_ptr()),
                        CounterPart::High => LLVMBuildTrunc(b, high, i32t, c"".as_ptr()),
                        CounterPart::Aux => LLVMConstInt(i32t, 0, 0),
                    };
                    Some(
                        parts
                            .iter()
                            .zip(&output_types)
                            .map(|(p, t)| LLVMBuildZExtOrBitCast(b, half(p), *t, c"".as_ptr()))
                            .collect(),
                    )
                }
                AsmKind::Unsupported(_) => unreachable!("left by the caller"),
            }
        }
    }

    /// The types of the direct outputs of call `inst`: none for `void`, the fields of a
    /// struct, else its one result type.
    fn output_types(&self, inst: LLVMValueRef) -> Vec<LLVMTypeRef> {
        // SAFETY: `inst` is an instruction of the module (invariant).
        unsafe {
            let ty = LLVMTypeOf(inst);
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMVoidTypeKind => Vec::new(),
                LLVMTypeKind::LLVMStructTypeKind => {
                    let n = LLVMCountStructElementTypes(ty);
                    (0..n).map(|i| LLVMStructGetTypeAtIndex(ty, i)).collect()
                }
                _ => vec![ty],
            }
        }
    }

    /// A call, at the builder's position, of intrinsic `name` overloaded on `types`.
    fn call_intrinsic(
        &self,
        name: &str,
        types: &[LLVMTypeRef],
        args: &[LLVMValueRef],
    ) -> LLVMValueRef {
        let mut types = types.to_vec();
        let mut args = args.to_vec();
        // SAFETY: `name` is an intrinsic of every LLVM augur builds with, overloaded on
        // exactly `types` and taking `args`; the builder is positioned in the module.
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr().cast(), name.len());
            let m = self.module.module;
            let f = LLVMGetIntrinsicDeclaration(m, id, types.as_mut_ptr(), types.len());
            let fty =
                LLVMIntrinsicGetType(self.module.ctx.raw, id, types.as_mut_ptr(), types.len());
            LLVMBuildCall2(
                self.builder.0,
                fty,
                f,
                args.as_mut_ptr(),
                args.len() as u32,
                c"".as_ptr(),
            )
        }
    }
}
