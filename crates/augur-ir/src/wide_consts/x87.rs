//! Does a module use the `x86_fp80` type (x87 `long double`s)? Found by walking the types
//! the module's values have: each global's and function's, and each instruction's result,
//! operands, allocated type and indexed type, through the types they are made of.

use std::collections::HashMap;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;

use super::LoadedModule;

/// Is `x86_fp80` among the types of `module`'s values?
pub(super) fn uses_x87(module: &LoadedModule) -> bool {
    let mut types = Types::default();
    // SAFETY (every block below): the values come from the module's own lists.
    for g in module.globals() {
        if types.has_fp80(unsafe { LLVMGlobalGetValueType(g) }) {
            return true;
        }
    }
    for f in module.functions() {
        if types.has_fp80(unsafe { LLVMGlobalGetValueType(f) }) {
            return true;
        }
        for bb in module.blocks(f) {
            for inst in module.instructions(bb) {
                if types.in_instruction(inst) {
                    return true;
                }
            }
        }
    }
    false
}

/// The answer for each type looked at (a type is unique in its context).
#[derive(Default)]
struct Types(HashMap<LLVMTypeRef, bool>);

impl Types {
    /// Does the instruction `inst` have, read, allocate or index an `x86_fp80`?
    fn in_instruction(&mut self, inst: LLVMValueRef) -> bool {
        // SAFETY: `inst` is an instruction of the module; operand indices are in range;
        // the allocated and indexed types are asked only of allocas and GEPs.
        unsafe {
            if self.has_fp80(LLVMTypeOf(inst)) {
                return true;
            }
            if !LLVMIsAAllocaInst(inst).is_null() && self.has_fp80(LLVMGetAllocatedType(inst)) {
                return true;
            }
            if !LLVMIsAGetElementPtrInst(inst).is_null()
                && self.has_fp80(LLVMGetGEPSourceElementType(inst))
            {
                return true;
            }
            let n = LLVMGetNumOperands(inst).max(0) as u32;
            (0..n).any(|i| self.has_fp80(LLVMTypeOf(LLVMGetOperand(inst, i))))
        }
    }

    /// Is `ty` `x86_fp80`, or made of one (element, field, parameter, result, pointee)?
    fn has_fp80(&mut self, ty: LLVMTypeRef) -> bool {
        if let Some(&known) = self.0.get(&ty) {
            return known;
        }
        // A recursive struct reaches itself: no x86_fp80 that way.
        self.0.insert(ty, false);
        let found = self.parts(ty).into_iter().any(|t| self.has_fp80(t))
            // SAFETY: a type of the module's context.
            || unsafe { LLVMGetTypeKind(ty) } == LLVMTypeKind::LLVMX86_FP80TypeKind;
        self.0.insert(ty, found);
        found
    }

    /// The types `ty` is made of.
    fn parts(&self, ty: LLVMTypeRef) -> Vec<LLVMTypeRef> {
        // SAFETY: a type of the module's context; each call is one its kind allows, and
        // the out-arrays have the length LLVM gives.
        unsafe {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let mut out =
                        vec![std::ptr::null_mut(); LLVMCountStructElementTypes(ty) as usize];
                    LLVMGetStructElementTypes(ty, out.as_mut_ptr());
                    out
                }
                LLVMTypeKind::LLVMFunctionTypeKind => {
                    let mut out = vec![std::ptr::null_mut(); LLVMCountParamTypes(ty) as usize];
                    LLVMGetParamTypes(ty, out.as_mut_ptr());
                    out.push(LLVMGetReturnType(ty));
                    out
                }
                LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                    vec![LLVMGetElementType(ty)]
                }
                // Typed pointers (LLVM 14) have a pointee; opaque ones (LLVM 19) none.
                #[cfg(not(feature = "llvm19"))]
                LLVMTypeKind::LLVMPointerTypeKind => vec![LLVMGetElementType(ty)],
                _ => Vec::new(),
            }
        }
    }
}
