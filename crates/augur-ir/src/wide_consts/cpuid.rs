//! `cpuid` inline assembly (gcc's `<cpuid.h>`, as coreutils' `wc` uses it to look for
//! AVX2): `llvm-ir` does not show an assembly string, so the engine cannot tell it from any
//! other inline assembly. The analysed machine has no optional CPU features: every such
//! call's registers read 0 (the highest basic leaf is 0, so `__get_cpuid` fails and every
//! feature bit is clear), and programs take their portable code.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::{take_message, Rewriter};

impl Rewriter<'_> {
    /// Replace `inst` by zeros if it is a call of inline assembly running `cpuid`; true if
    /// it was (and is now deleted).
    pub(super) fn fold_cpuid(&mut self, inst: LLVMValueRef) -> bool {
        // SAFETY: `inst` is an instruction of the module (invariant); the called value is
        // only asked of calls; a deleted call had its uses replaced first.
        unsafe {
            if LLVMIsACallInst(inst).is_null()
                || LLVMIsAInlineAsm(LLVMGetCalledValue(inst)).is_null()
            {
                return false;
            }
            let text = take_message(LLVMPrintValueToString(inst));
            if !asm_parts(&text).is_some_and(runs_cpuid) {
                return false;
            }
            let ty = LLVMTypeOf(inst);
            if LLVMGetTypeKind(ty) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
                LLVMReplaceAllUsesWith(inst, LLVMConstNull(ty));
            }
            LLVMInstructionEraseFromParent(inst);
        }
        true
    }
}

/// The assembly string and the constraints of a printed inline-assembly call
/// (`... asm "STRING", "CONSTRAINTS"(...)`).
fn asm_parts(call: &str) -> Option<(&str, &str)> {
    let start = call.find(" asm ")? + " asm ".len();
    let mut rest = &call[start..];
    for keyword in ["sideeffect ", "alignstack ", "inteldialect "] {
        rest = rest.strip_prefix(keyword).unwrap_or(rest);
    }
    let rest = rest.strip_prefix('"')?;
    let (asm, rest) = rest.split_at(rest.find('"')?);
    let rest = rest.strip_prefix("\", \"")?;
    Some((asm, &rest[..rest.find('"')?]))
}

/// Does the assembly run the `cpuid` instruction, with registers only (no memory operand
/// or clobber)?
fn runs_cpuid((asm, constraints): (&str, &str)) -> bool {
    asm.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "cpuid")
        && !constraints.contains('*')
        && !constraints.contains("~{memory}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cpuid_in_printed_calls() {
        let gcc = r#"  %9 = call { i32, i32, i32, i32 } asm "  xchgq  %rbx,${1:q}\0A  cpuid\0A  xchgq  %rbx,${1:q}", "={ax},=r,={cx},={dx},0,~{dirflag}"(i32 %8) #19"#;
        let parts = asm_parts(gcc).unwrap();
        assert_eq!(
            parts.0,
            r"  xchgq  %rbx,${1:q}\0A  cpuid\0A  xchgq  %rbx,${1:q}"
        );
        assert_eq!(parts.1, "={ax},=r,={cx},={dx},0,~{dirflag}");
        assert!(runs_cpuid(parts));
        let other = r#"  call void asm sideeffect "rdtsc", "~{dirflag}"()"#;
        assert_eq!(asm_parts(other), Some(("rdtsc", "~{dirflag}")));
        assert!(!runs_cpuid(("rdtsc", "")));
        assert!(!runs_cpuid(("cpuid; movl %eax, $0", "=*m")));
        assert!(!runs_cpuid(("cpuid", "~{memory}")));
        assert!(!runs_cpuid(("cpuidx", "")));
    }
}
