//! The source names of stack slots whose IR names LLVM made unique.
//!
//! clang names a local's `alloca` after the variable (`-fno-discard-value-names`), but a
//! function's value names must be unique: a second `p` declared in another block of the
//! function becomes `%p235`, a second `for (int i ...)` `%i5`. The variable's own name
//! is in the debug information, in the `DILocalVariable` that `llvm.dbg.declare` ties to
//! the slot; `llvm-ir` does not read metadata, so it is read here with the LLVM-C API.

use std::collections::HashMap;
use std::ffi::c_uint;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::{value_name, LoadedModule};

/// The source name of each stack slot whose IR name is not it, by function name, then by
/// the slot's IR name. A parameter's slot is named `NAME.addr`, as clang names it.
pub(crate) type VarNames = HashMap<String, HashMap<String, String>>;

/// Operand 1 of a `DILocalVariable` is its name (an `MDString`).
const DI_VARIABLE_NAME: c_uint = 1;

/// The [`VarNames`] of `module`, from its `llvm.dbg.declare` calls.
pub(super) fn var_names(module: &LoadedModule) -> VarNames {
    #[cfg(feature = "llvm19")]
    // SAFETY: a valid module. LLVM 19 holds debug declarations as records beside the
    // instructions; the intrinsic form shows them as calls, and converting is lossless.
    let records = unsafe {
        let records = LLVMIsNewDbgInfoFormat(module.module) != 0;
        if records {
            LLVMSetIsNewDbgInfoFormat(module.module, 0);
        }
        records
    };
    let mut out = VarNames::new();
    for f in module.functions() {
        let func = value_name(f);
        for bb in module.blocks(f) {
            for inst in module.instructions(bb) {
                let Some((slot, source)) = declared(inst) else {
                    continue;
                };
                let parameter = slot
                    .strip_prefix(source.as_str())
                    .is_some_and(|rest| rest.starts_with(".addr"));
                let source = if parameter { source + ".addr" } else { source };
                if slot != source {
                    out.entry(func.clone()).or_default().insert(slot, source);
                }
            }
        }
    }
    #[cfg(feature = "llvm19")]
    if records {
        // SAFETY: as above, back to the form the module was read in.
        unsafe { LLVMSetIsNewDbgInfoFormat(module.module, 1) };
    }
    out
}

/// If `inst` is `llvm.dbg.declare(slot, variable, ...)` on a named `alloca`: the slot's
/// IR name and the variable's source name.
fn declared(inst: LLVMValueRef) -> Option<(String, String)> {
    // SAFETY: `inst` is an instruction of the module. Operands are asked only of a call
    // with at least two; `LLVMGetOperand` of a metadata value gives the value a local
    // metadata wraps (operand 0) or an `MDNode`'s operand as a value.
    unsafe {
        if LLVMIsACallInst(inst).is_null() || LLVMGetNumArgOperands(inst) < 2 {
            return None;
        }
        let callee = LLVMGetCalledValue(inst);
        if LLVMIsAFunction(callee).is_null() || value_name(callee) != "llvm.dbg.declare" {
            return None;
        }
        let slot = LLVMGetOperand(LLVMGetOperand(inst, 0), 0);
        if slot.is_null() || LLVMIsAAllocaInst(slot).is_null() {
            return None;
        }
        let var = LLVMGetOperand(inst, 1);
        if LLVMIsAMDNode(var).is_null() || LLVMGetMDNodeNumOperands(var) <= DI_VARIABLE_NAME {
            return None;
        }
        let name = LLVMGetOperand(var, DI_VARIABLE_NAME);
        if name.is_null() {
            return None;
        }
        let mut len: c_uint = 0;
        let p = LLVMGetMDString(name, &mut len);
        if p.is_null() {
            return None;
        }
        let source = String::from_utf8_lossy(std::slice::from_raw_parts(p.cast(), len as usize));
        let slot = value_name(slot);
        (!slot.is_empty() && !source.is_empty()).then(|| (slot, source.into_owned()))
    }
}
