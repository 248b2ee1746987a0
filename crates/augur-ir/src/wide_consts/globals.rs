//! Global initializers holding constants that `llvm-ir` would lose (`x86_fp80` values,
//! integers wider than 64 bits).
//!
//! A global's initializer must have the global's type, and an initializer cannot compute,
//! so such a global is replaced by one with the same bytes under a type `llvm-ir` reads
//! exactly: each lost constant becomes an `[N x i8]` array of its little-endian bytes, and
//! a struct or array holding one becomes a packed struct (or an array) of its fields' images
//! with explicit zero padding, at the offsets the data layout gives. Every use of the old
//! global becomes a `bitcast` of the new one to the old pointer type, so instructions and
//! other initializers keep addressing it with the old type.

use std::ffi::c_char;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;

use super::Rewriter;

impl Rewriter<'_> {
    /// Replace global `g` (whose initializer `init` holds lost constants) by a global with
    /// the same bytes and no lost constants. False (nothing changed) when the initializer
    /// has a shape this does not handle (a lost constant in a vector or constant expression).
    pub(super) fn rewrite_global(&mut self, g: LLVMValueRef, init: LLVMValueRef) -> bool {
        let Some(image) = self.image(init) else {
            return false;
        };
        // SAFETY: `g` is a global variable of the module (invariant) and `image` a constant
        // of its context with the same allocation size as `init`; the new global copies the
        // old one's attributes, takes over its uses through a pointer bitcast (same address
        // space), then its name, and the old global (now unused) is deleted.
        unsafe {
            let td = LLVMGetModuleDataLayout(self.module.module);
            let old_ty = LLVMTypeOf(init);
            let align = LLVMGetAlignment(g).max(LLVMABIAlignmentOfType(td, old_ty));
            let new = LLVMAddGlobalInAddressSpace(
                self.module.module,
                LLVMTypeOf(image),
                c"".as_ptr(),
                LLVMGetPointerAddressSpace(LLVMTypeOf(g)),
            );
            LLVMSetInitializer(new, image);
            LLVMSetGlobalConstant(new, LLVMIsGlobalConstant(g));
            LLVMSetLinkage(new, LLVMGetLinkage(g));
            LLVMSetVisibility(new, LLVMGetVisibility(g));
            LLVMSetUnnamedAddress(new, LLVMGetUnnamedAddress(g));
            LLVMSetThreadLocal(new, LLVMIsThreadLocal(g));
            LLVMSetAlignment(new, align);
            let section = LLVMGetSection(g);
            if !section.is_null() {
                LLVMSetSection(new, section);
            }
            let mut n = 0usize;
            let entries = LLVMGlobalCopyAllMetadata(g, &mut n);
            for i in 0..n as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                LLVMGlobalSetMetadata(new, kind, LLVMValueMetadataEntriesGetMetadata(entries, i));
            }
            if !entries.is_null() {
                LLVMDisposeValueMetadataEntries(entries);
            }
            LLVMReplaceAllUsesWith(g, LLVMConstBitCast(new, LLVMTypeOf(g)));
            let mut len = 0usize;
            let name_ptr = LLVMGetValueName2(g, &mut len) as *const u8;
            let name = if name_ptr.is_null() {
                Vec::new()
            } else {
                std::slice::from_raw_parts(name_ptr, len).to_vec()
            };
            LLVMDeleteGlobal(g);
            LLVMSetValueName2(new, name.as_ptr() as *const c_char, name.len());
        }
        true
    }

    /// A constant with the bytes of constant `c`, occupying `c`'s allocation size, in
    /// which no constant is lost; None if `c`'s shape is not handled.
    fn image(&mut self, c: LLVMValueRef) -> Option<LLVMValueRef> {
        // SAFETY: `c` is a constant of the module (invariant); operands are only read from
        // constant structs and arrays, whose operands are their fields and elements.
        unsafe {
            let td = LLVMGetModuleDataLayout(self.module.module);
            let ty = LLVMTypeOf(c);
            let size = LLVMABISizeOfType(td, ty);
            if let Some(words) = self.lost_constant(c) {
                let store = LLVMStoreSizeOfType(td, ty) as usize;
                let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                bytes.resize(store, 0);
                bytes.resize(size as usize, 0);
                return Some(self.byte_array(&bytes));
            }
            if self.count_wide_in_constant(c) == 0 {
                return Some(c);
            }
            let n = LLVMGetNumOperands(c).max(0) as u32;
            if !LLVMIsAConstantStruct(c).is_null() {
                let mut fields = Vec::new();
                let mut at = 0u64;
                for i in 0..n {
                    let offset = LLVMOffsetOfElement(td, ty, i);
                    self.pad(&mut fields, offset - at);
                    let field = LLVMGetOperand(c, i);
                    fields.push(self.image(field)?);
                    at = offset + LLVMABISizeOfType(td, LLVMTypeOf(field));
                }
                self.pad(&mut fields, size - at);
                return Some(self.packed(&mut fields));
            }
            if !LLVMIsAConstantArray(c).is_null() {
                let mut elems = Vec::new();
                for i in 0..n {
                    elems.push(self.image(LLVMGetOperand(c, i))?);
                }
                let ety = LLVMTypeOf(elems[0]);
                if elems.iter().all(|e| LLVMTypeOf(*e) == ety) {
                    return Some(const_array(ety, &mut elems));
                }
                return Some(self.packed(&mut elems));
            }
            None
        }
    }

    /// Append `n` zero bytes (nothing if `n` is 0) to a packed struct's fields.
    fn pad(&self, fields: &mut Vec<LLVMValueRef>, n: u64) {
        if n > 0 {
            fields.push(self.byte_array(&vec![0; n as usize]));
        }
    }

    /// An `[N x i8]` constant holding `bytes`.
    fn byte_array(&self, bytes: &[u8]) -> LLVMValueRef {
        // SAFETY: valid context; the values are i8 constants of it.
        unsafe {
            let i8t = LLVMInt8TypeInContext(self.module.ctx.raw);
            let mut vals: Vec<LLVMValueRef> = bytes
                .iter()
                .map(|b| LLVMConstInt(i8t, *b as u64, 0))
                .collect();
            const_array(i8t, &mut vals)
        }
    }

    /// A packed struct constant of `fields`.
    fn packed(&self, fields: &mut [LLVMValueRef]) -> LLVMValueRef {
        // SAFETY: valid context; the fields are constants of it.
        unsafe {
            LLVMConstStructInContext(
                self.module.ctx.raw,
                fields.as_mut_ptr(),
                fields.len() as u32,
                1,
            )
        }
    }
}

/// An array constant of `elems` (of type `ety`): `LLVMConstArray`, which LLVM 19 replaced
/// by `LLVMConstArray2`.
///
/// # Safety
/// `ety` and every element are of one context, every element of type `ety`.
unsafe fn const_array(ety: LLVMTypeRef, elems: &mut [LLVMValueRef]) -> LLVMValueRef {
    // SAFETY: per the contract.
    #[cfg(not(feature = "llvm19"))]
    let array = unsafe { LLVMConstArray(ety, elems.as_mut_ptr(), elems.len() as u32) };
    // SAFETY: per the contract.
    #[cfg(feature = "llvm19")]
    let array = unsafe { LLVMConstArray2(ety, elems.as_mut_ptr(), elems.len() as u64) };
    array
}
