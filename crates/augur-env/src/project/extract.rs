//! `augur extract-bc`: one program's bitcode from what `augur cc` recorded in it: the
//! bitcode files its section lists, linked into one module, with the libraries it was
//! linked with kept as the named metadata `!augur.libs` (which `augur replay` links
//! natively; see `replay/native_ir.rs`).

use super::sections::{self, BITCODE_SECTION, LIBS_SECTION};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The named metadata listing the libraries a program links natively.
pub const LIBS_METADATA: &str = "!augur.libs";

/// What an extraction made.
#[derive(Clone, Debug)]
pub struct Extracted {
    /// How many bitcode files were linked.
    pub files: usize,
    /// The libraries the program links (`-lm`).
    pub libs: Vec<String>,
}

/// Link the bitcode recorded in `program` (an executable or object built by `augur cc`)
/// into `out`.
pub fn extract(program: &Path, out: &Path) -> Result<Extracted, String> {
    if !program.is_file() {
        return Err(format!("{}: no such file", program.display()));
    }
    let Some(listed) = sections::read(program, BITCODE_SECTION)? else {
        return Err(format!(
            "{}: no bitcode is recorded in it: build it with CC='augur cc' (docs/projects.md)",
            program.display()
        ));
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for f in listed.into_iter().map(PathBuf::from) {
        if !f.is_file() {
            return Err(format!(
                "{}: its bitcode {} is gone: rebuild it",
                program.display(),
                f.display()
            ));
        }
        if !files.contains(&f) {
            files.push(f);
        }
    }
    let mut libs: Vec<String> = Vec::new();
    for l in sections::read(program, LIBS_SECTION)?.unwrap_or_default() {
        if !libs.contains(&l) {
            libs.push(l);
        }
    }
    let scratch =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let mut inputs = files.clone();
    if !libs.is_empty() {
        let meta = scratch.path().join("libs.ll");
        std::fs::write(&meta, libs_module(&files[0], &libs)?)
            .map_err(|e| format!("{}: {e}", meta.display()))?;
        inputs.push(meta);
    }
    let link = augur_ir::llvm::llvm_link();
    let o = Command::new(&link)
        .args(&inputs)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&link, &e))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        return Err(format!(
            "{}: its bitcode does not link: {}",
            program.display(),
            err.lines().next().unwrap_or("failed").trim()
        ));
    }
    Ok(Extracted {
        files: files.len(),
        libs,
    })
}

/// A module holding only `!augur.libs` for `libs`, with the target of bitcode `like` (so
/// that linking it draws no warning).
fn libs_module(like: &Path, libs: &[String]) -> Result<String, String> {
    let text = augur_ir::llvm::disassemble(like)?;
    let mut module: String = text
        .lines()
        .filter(|l| l.starts_with("target datalayout") || l.starts_with("target triple"))
        .map(|l| format!("{l}\n"))
        .collect();
    let refs: Vec<String> = (0..libs.len()).map(|i| format!("!{i}")).collect();
    module.push_str(&format!("{LIBS_METADATA} = !{{{}}}\n", refs.join(", ")));
    for (i, l) in libs.iter().enumerate() {
        module.push_str(&format!("!{i} = !{{!\"{l}\"}}\n"));
    }
    Ok(module)
}

/// The libraries `!augur.libs` lists in the textual IR `ir`.
pub fn libs_of(ir: &str) -> Vec<String> {
    let prefix = format!("{LIBS_METADATA} = !{{");
    let Some(list) = ir.lines().find_map(|l| l.strip_prefix(prefix.as_str())) else {
        return Vec::new();
    };
    list.trim_end_matches('}')
        .split(',')
        .filter_map(|r| {
            let node = format!("{} = !{{!\"", r.trim());
            ir.lines()
                .find_map(|l| l.strip_prefix(node.as_str()))
                .map(|v| v.trim_end_matches("\"}").to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_libraries_are_read_back_from_the_metadata() {
        let ir = "define i32 @main() {\n  ret i32 0\n}\n!augur.libs = !{!7, !9}\n\
                  !7 = !{!\"-lm\"}\n!8 = !{i32 1}\n!9 = !{!\"-lresolv\"}\n";
        assert_eq!(libs_of(ir), ["-lm", "-lresolv"]);
        assert!(libs_of("define void @f() {\n}\n").is_empty());
    }
}
