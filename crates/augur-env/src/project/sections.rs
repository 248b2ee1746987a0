//! The ELF sections `augur cc` records in objects and executables (through LLVM's
//! `llvm-objcopy`): one line per entry, so that a linker concatenating the sections of its
//! inputs concatenates the lists.

use std::path::Path;
use std::process::Command;

/// The section listing the bitcode files of an object's (or executable's) C sources.
pub const BITCODE_SECTION: &str = ".augur_bitcode";
/// The section listing the libraries an executable was linked with (`-lm`).
pub const LIBS_SECTION: &str = ".augur_libs";

/// Run this build's `llvm-objcopy` with `args`: whether it succeeded, with its standard
/// error.
fn objcopy(args: &[&std::ffi::OsStr]) -> Result<(bool, String), String> {
    let tool = augur_ir::llvm::llvm_tool("llvm-objcopy");
    let o = Command::new(&tool)
        .args(args)
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&tool, &e))?;
    Ok((
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).trim().to_string(),
    ))
}

/// The lines of section `name` of `file`, or None when it has no such section.
pub fn read(file: &Path, name: &str) -> Result<Option<Vec<String>>, String> {
    let dir =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let dump = dir.path().join("section");
    let spec = format!("{name}={}", dump.display());
    let (ok, _) = objcopy(&["--dump-section".as_ref(), spec.as_ref(), file.as_os_str()])?;
    if !ok || !dump.exists() {
        return Ok(None);
    }
    let bytes = std::fs::read(&dump).map_err(|e| format!("{}: {e}", dump.display()))?;
    Ok(Some(
        String::from_utf8_lossy(&bytes)
            .split(['\n', '\0'])
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect(),
    ))
}

/// Add `lines` to section `name` of `file` (made if missing; nothing when `lines` is empty).
pub fn append(file: &Path, name: &str, lines: &[String]) -> Result<(), String> {
    if lines.is_empty() {
        return Ok(());
    }
    let old = read(file, name)?;
    let mut text = String::new();
    for l in old.iter().flatten().chain(lines) {
        text.push_str(l);
        text.push('\n');
    }
    let dir =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let contents = dir.path().join("section");
    std::fs::write(&contents, text).map_err(|e| format!("{}: {e}", contents.display()))?;
    let how = if old.is_some() {
        "--update-section"
    } else {
        "--add-section"
    };
    let spec = format!("{name}={}", contents.display());
    match objcopy(&[how.as_ref(), spec.as_ref(), file.as_os_str()])? {
        (true, _) => Ok(()),
        (false, err) => Err(format!("{}: cannot record {name}: {err}", file.display())),
    }
}
