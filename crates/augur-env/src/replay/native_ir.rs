//! A program's input made textual IR for the native build (augur replay's, augur
//! record's): C through clang's front end only (its UBSan checks in, AddressSanitizer's
//! pass left to the final compile); bitcode disassembled and made ready for
//! AddressSanitizer, which instruments only the functions that carry the
//! `sanitize_address` attribute: its front end adds it when it compiles C with
//! `-fsanitize=address`, so bitcode built without it (a project's whole-program `.bc`
//! from wllvm, say) would run natively unchecked, and an out-of-bounds access augur
//! reports would not show natively; every function it defines gets the attribute
//! (through the attribute groups its definitions use). Either way, its stack is zeroed
//! as the analysis's is (`zeroed_stack.rs`).

use super::native::{native_clang, run_clang};
use std::collections::BTreeSet;
use std::path::Path;

/// An input of the native build as textual IR.
pub struct NativeIr {
    /// The IR, its stack zeroed.
    pub text: String,
    /// The libraries the IR says its program links (`!augur.libs`, from `augur
    /// extract-bc`).
    pub libs: Vec<String>,
}

/// The native build's textual IR of `input` (C with `cflags` and the headers of
/// `runtime_dir`, `.bc` or `.ll`).
pub fn native_ir(input: &Path, cflags: &[String], runtime_dir: &Path) -> Result<NativeIr, String> {
    let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("");
    let text = match ext {
        "bc" => with_sanitize_address(&augur_ir::llvm::disassemble(input)?),
        "ll" => with_sanitize_address(
            &std::fs::read_to_string(input)
                .map_err(|e| format!("{}: cannot be read: {e}", input.display()))?,
        ),
        _ => {
            let mut cmd = native_clang(cflags, runtime_dir);
            cmd.args(["-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes"])
                .arg(input)
                .args(["-o", "-"]);
            String::from_utf8_lossy(&run_clang(cmd, &input.display().to_string())?).into_owned()
        }
    };
    Ok(NativeIr {
        libs: crate::project::libs_of(&text),
        text: super::zeroed_stack::zeroed_stack(&text),
    })
}

/// The attribute group numbers the `define` lines of `ir` use (`#N` before the body).
fn definition_groups(ir: &str) -> BTreeSet<&str> {
    ir.lines()
        .filter(|l| l.starts_with("define "))
        .filter_map(|l| {
            // The function's attribute group is the last `#N` before the body's `{`
            // (metadata attachments `!dbg !N` may follow it).
            let head = &l[..l.rfind('{')?];
            let at = head.rfind(" #")?;
            let digits = head[at + 2..].split(|c: char| !c.is_ascii_digit()).next()?;
            (!digits.is_empty()).then_some(digits)
        })
        .collect()
}

/// `ir` with `sanitize_address` added to the attribute groups of its function definitions.
fn with_sanitize_address(ir: &str) -> String {
    let groups = definition_groups(ir);
    let mut out = String::with_capacity(ir.len() + 32 * groups.len());
    for line in ir.lines() {
        let group = line
            .strip_prefix("attributes #")
            .and_then(|rest| rest.split(' ').next());
        match group {
            Some(n) if groups.contains(n) && !line.contains("sanitize_address") => {
                out.push_str(&line.replacen("= { ", "= { sanitize_address ", 1));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const IR: &str = "define dso_local i32 @main(i32 %a) #0 !dbg !10 {\n\
        ret i32 0\n}\n\
        declare i8* @malloc(i64) #2\n\
        define internal void @f() #1 {\n  ret void\n}\n\
        attributes #0 = { noinline nounwind }\n\
        attributes #1 = { sanitize_address noinline }\n\
        attributes #2 = { nounwind }\n";

    #[test]
    fn definitions_get_the_attribute_once_and_declarations_do_not() {
        let out = with_sanitize_address(IR);
        assert!(out.contains("attributes #0 = { sanitize_address noinline nounwind }"));
        assert!(out.contains("attributes #1 = { sanitize_address noinline }\n"));
        assert!(out.contains("attributes #2 = { nounwind }"));
    }
}
