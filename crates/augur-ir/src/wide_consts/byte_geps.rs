//! LLVM 15 and later (opaque pointers): constant `getelementptr` expressions as byte
//! offsets, and the sizes of declared globals.
//!
//! `llvm-ir` gives a constant GEP (`getelementptr inbounds ([4 x i32], ptr @a, i64 0, i64 1)`)
//! no source element type, and with opaque pointers its address's type (`ptr`) does not
//! tell it either, so the lowering could not compute its offset. This pass replaces every
//! constant GEP whose indices are integer constants, in instruction operands and global
//! initializers, by `getelementptr (i8, ptr BASE, i64 OFFSET)`, the same address with the
//! offset computed from the module's data layout; the lowering reads every constant GEP
//! with one index as one over `i8`. Nested GEPs are rewritten innermost first, a round per
//! level: replacing a constant rebuilds the constants that use it.
//!
//! Likewise a global declared but not defined has no initializer whose type would tell
//! its size: [`declared_sizes`] reads them here.

use std::collections::{HashMap, HashSet};

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

use super::{LoadedModule, Rewriter};

/// What the byte-offset rewrite did: GEPs rewritten, and those left (an index that is not
/// an integer constant, a vector GEP).
#[derive(Default)]
pub(super) struct ByteGeps {
    pub rewritten: usize,
    pub left: usize,
}

impl Rewriter<'_> {
    /// Rewrite the module's constant GEPs to byte offsets (see the module's doc).
    pub(super) fn byte_geps(&mut self) -> ByteGeps {
        let mut done = ByteGeps::default();
        let mut left: HashSet<LLVMValueRef> = HashSet::new();
        loop {
            let innermost = self.innermost_geps(&left);
            if innermost.is_empty() {
                break;
            }
            for g in innermost {
                match self.byte_gep(g) {
                    Some(new) => {
                        // SAFETY: `g` is a constant of the module; no other collected GEP
                        // uses it (each one is innermost), so none is rebuilt.
                        unsafe { LLVMReplaceAllUsesWith(g, new) };
                        done.rewritten += 1;
                    }
                    None => {
                        left.insert(g);
                    }
                }
            }
        }
        done.left = left.len();
        done
    }

    /// The constant GEPs still over another type than `i8` (and not in `left`) that have
    /// no such GEP among their operands, anywhere in the module.
    fn innermost_geps(&self, left: &HashSet<LLVMValueRef>) -> Vec<LLVMValueRef> {
        let mut memo = HashMap::new();
        let mut out = Vec::new();
        for f in self.module.functions() {
            for bb in self.module.blocks(f) {
                for inst in self.module.instructions(bb) {
                    // SAFETY: `inst` is an instruction (a User) of the module.
                    let n = unsafe { LLVMGetNumOperands(inst).max(0) as u32 };
                    for i in 0..n {
                        // SAFETY: `i` is in range.
                        let op = unsafe { LLVMGetOperand(inst, i) };
                        self.collect(op, left, &mut memo, &mut out);
                    }
                }
            }
        }
        for g in self.module.globals() {
            // SAFETY: `g` is a global variable of the module.
            let init = unsafe { LLVMGetInitializer(g) };
            if !init.is_null() {
                self.collect(init, left, &mut memo, &mut out);
            }
        }
        out
    }

    /// Does constant `c` hold a GEP to rewrite? Collects the innermost ones into `out`.
    fn collect(
        &self,
        c: LLVMValueRef,
        left: &HashSet<LLVMValueRef>,
        memo: &mut HashMap<LLVMValueRef, bool>,
        out: &mut Vec<LLVMValueRef>,
    ) -> bool {
        if c.is_null() || !self.is_plain_constant(c) {
            return false;
        }
        if let Some(&has) = memo.get(&c) {
            return has;
        }
        // SAFETY: a non-global constant is a User; `i` is in range.
        let n = unsafe { LLVMGetNumOperands(c).max(0) as u32 };
        let mut below = false;
        for i in 0..n {
            let op = unsafe { LLVMGetOperand(c, i) };
            below |= self.collect(op, left, memo, out);
        }
        let to_rewrite = is_gep_expr(c) && !is_byte_gep(c) && !left.contains(&c);
        if to_rewrite && !below {
            out.push(c);
        }
        let has = below || to_rewrite;
        memo.insert(c, has);
        has
    }

    /// `getelementptr (i8, ptr BASE, i64 OFFSET)` for the constant GEP `g`, or None if an
    /// index is not an integer constant or the GEP is not over a scalar pointer.
    fn byte_gep(&self, g: LLVMValueRef) -> Option<LLVMValueRef> {
        // SAFETY: `g` is a constant GEP expression of the module (operand 0 the base, the
        // rest the indices); types and the data layout belong to the module.
        unsafe {
            let base = LLVMGetOperand(g, 0);
            if LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMTypeKind::LLVMPointerTypeKind {
                return None;
            }
            let td = LLVMGetModuleDataLayout(self.module.module);
            let mut cur = LLVMGetGEPSourceElementType(g);
            let n = LLVMGetNumOperands(g).max(0) as u32;
            let mut offset: i64 = 0;
            for k in 1..n {
                let idx = LLVMGetOperand(g, k);
                if LLVMIsAConstantInt(idx).is_null() {
                    return None;
                }
                let i = LLVMConstIntGetSExtValue(idx);
                if k == 1 {
                    offset = offset.wrapping_add(i.wrapping_mul(LLVMABISizeOfType(td, cur) as i64));
                    continue;
                }
                match LLVMGetTypeKind(cur) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        offset = offset.wrapping_add(LLVMOffsetOfElement(td, cur, i as u32) as i64);
                        cur = LLVMStructGetTypeAtIndex(cur, i as u32);
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        cur = LLVMGetElementType(cur);
                        offset =
                            offset.wrapping_add(i.wrapping_mul(LLVMABISizeOfType(td, cur) as i64));
                    }
                    _ => return None,
                }
            }
            let ctx = self.module.ctx.raw;
            let i8t = LLVMInt8TypeInContext(ctx);
            let mut index = [LLVMConstInt(LLVMInt64TypeInContext(ctx), offset as u64, 1)];
            let new = if LLVMIsInBounds(g) != 0 {
                LLVMConstInBoundsGEP2(i8t, base, index.as_mut_ptr(), 1)
            } else {
                LLVMConstGEP2(i8t, base, index.as_mut_ptr(), 1)
            };
            Some(new)
        }
    }
}

fn is_gep_expr(c: LLVMValueRef) -> bool {
    // SAFETY: `c` is a constant of the module.
    unsafe {
        !LLVMIsAConstantExpr(c).is_null() && LLVMGetConstOpcode(c) == LLVMOpcode::LLVMGetElementPtr
    }
}

/// Is constant GEP `g` already `getelementptr (i8, ptr, iN OFFSET)`?
fn is_byte_gep(g: LLVMValueRef) -> bool {
    // SAFETY: `g` is a constant GEP expression of the module.
    unsafe {
        let src = LLVMGetGEPSourceElementType(g);
        LLVMGetNumOperands(g) == 2
            && LLVMGetTypeKind(src) == LLVMTypeKind::LLVMIntegerTypeKind
            && LLVMGetIntTypeWidth(src) == 8
    }
}

/// The size in bytes (allocation size) of each global the module declares without
/// defining it, by name.
pub(super) fn declared_sizes(module: &LoadedModule) -> HashMap<String, u64> {
    let mut out = HashMap::new();
    // SAFETY: valid module; its own globals, whose value types and names belong to it;
    // the data layout is the module's.
    unsafe {
        let td = LLVMGetModuleDataLayout(module.module);
        for g in module.globals() {
            if LLVMGetInitializer(g).is_null() {
                let mut len = 0;
                let name = LLVMGetValueName2(g, &mut len);
                let bytes = std::slice::from_raw_parts(name as *const u8, len);
                let size = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
                out.insert(String::from_utf8_lossy(bytes).into_owned(), size);
            }
        }
    }
    out
}
