//! Bitcode made ready for AddressSanitizer. clang instruments only the functions that carry
//! the `sanitize_address` attribute, which its front end adds when it compiles C with
//! `-fsanitize=address`; bitcode built without it (a project's whole-program `.bc` from
//! wllvm, say) would run natively unchecked, and an out-of-bounds access augur reports
//! would not show natively. So a `.bc` or `.ll` input is disassembled and every function
//! it defines gets the attribute (through the attribute groups its definitions use).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// An input of the native build made ready for it.
pub struct Sanitizable {
    /// The file to compile.
    pub file: PathBuf,
    /// The libraries the IR says its program links (`!augur.libs`, from `augur
    /// extract-bc`).
    pub libs: Vec<String>,
}

/// The textual IR of `input` with `sanitize_address` on every defined function, written
/// to `out` (a `.ll` file); `input` itself when it is C source.
pub fn sanitizable(input: &Path, out: &Path) -> Result<Sanitizable, String> {
    let ext = input.extension().and_then(|e| e.to_str()).unwrap_or("");
    let text = match ext {
        "bc" => {
            let tool = augur_ir::llvm::llvm_tool("llvm-dis");
            let o = std::process::Command::new(&tool)
                .arg(input)
                .arg("-o")
                .arg("-")
                .output()
                .map_err(|e| augur_ir::llvm::cannot_run(&tool, &e))?;
            if !o.status.success() {
                return Err(format!(
                    "{}: cannot be disassembled: {}",
                    input.display(),
                    String::from_utf8_lossy(&o.stderr).trim()
                ));
            }
            String::from_utf8_lossy(&o.stdout).into_owned()
        }
        "ll" => std::fs::read_to_string(input)
            .map_err(|e| format!("{}: cannot be read: {e}", input.display()))?,
        _ => {
            return Ok(Sanitizable {
                file: input.to_path_buf(),
                libs: Vec::new(),
            })
        }
    };
    std::fs::write(out, with_sanitize_address(&text))
        .map_err(|e| format!("{}: cannot be written: {e}", out.display()))?;
    Ok(Sanitizable {
        file: out.to_path_buf(),
        libs: crate::project::libs_of(&text),
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
