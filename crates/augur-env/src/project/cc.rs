//! `augur cc`: a C compiler for a project's own build (`./configure CC='augur cc'`, `make
//! CC='augur cc'`, `CC='augur cc' cmake`) that builds the project natively, unchanged, and
//! beside each object the bitcode augur analyses: every C source is compiled a second time
//! with augur's analysis flags (`-O0 -g`, no optnone, value names) and the build's own
//! preprocessor and language flags, and the bitcode file's path is recorded in the object
//! (an ELF section, which linkers carry into archives' members and executables). A link
//! also records the libraries it links. `augur extract-bc` then gathers one program's
//! bitcode (see extract.rs).

use super::args::{Invocation, Mode};
use super::sections::{self, BITCODE_SECTION, LIBS_SECTION};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable that makes `augur cc` compile natively only, for a build's
/// steps whose programs are not analysed (`AUGUR_CC_NATIVE_ONLY=1 ./configure CC='augur
/// cc'`: configure's thousand test programs, each compiled once instead of twice; the
/// `make` that follows, without the variable, records the bitcode).
const NATIVE_ONLY_VAR: &str = "AUGUR_CC_NATIVE_ONLY";

/// Run one compiler command line of a build: natively first (its exit status is the
/// command's), then, when that succeeded and `NATIVE_ONLY_VAR` is not set (to anything
/// but "" or "0"), the bitcode of its C sources; a bitcode compile that fails is reported
/// on standard error and leaves the native result alone.
pub fn run(args: &[String]) -> i32 {
    let status = match Command::new(augur_ir::llvm::clang()).args(args).status() {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!(
                "augur cc: {}",
                augur_ir::llvm::cannot_run(&augur_ir::llvm::clang(), &e)
            );
            return 2;
        }
    };
    let native_only = std::env::var(NATIVE_ONLY_VAR).is_ok_and(|v| !v.is_empty() && v != "0");
    if status != 0 || native_only {
        return status;
    }
    let inv = Invocation::parse(args);
    if let Err(e) = with_bitcode(&inv) {
        eprintln!("augur cc: {e}");
    }
    0
}

/// Compile the bitcode of `inv`'s C sources and record it in what `inv` made.
fn with_bitcode(inv: &Invocation) -> Result<(), String> {
    match inv.mode {
        Mode::Other => Ok(()),
        Mode::Compile => {
            for src in inv.c_sources() {
                let object = match &inv.output {
                    Some(o) => o.clone(),
                    None => PathBuf::from(src.file_stem().unwrap_or_default()).with_extension("o"),
                };
                let bc = bitcode_path(&object, None);
                compile(inv, src, &bc)?;
                sections::append(&object, BITCODE_SECTION, &[absolute(&bc)])?;
            }
            Ok(())
        }
        Mode::Link => {
            let out = inv.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
            let mut made = Vec::new();
            for (i, src) in inv.c_sources().enumerate() {
                let bc = bitcode_path(&out, Some((i, src)));
                compile(inv, src, &bc)?;
                made.push(absolute(&bc));
            }
            sections::append(&out, BITCODE_SECTION, &made)?;
            sections::append(&out, LIBS_SECTION, &inv.libs)
        }
    }
}

/// Where the bitcode of what becomes `object` goes: `.NAME.bc` beside it, or for the
/// `i`th source `src` compiled straight into a linked `object`, `.NAME.i.STEM.bc`.
fn bitcode_path(object: &Path, source: Option<(usize, &PathBuf)>) -> PathBuf {
    let name = object.file_name().unwrap_or_default().to_string_lossy();
    let file = match source {
        None => format!(".{name}.bc"),
        Some((i, src)) => format!(
            ".{name}.{i}.{}.bc",
            src.file_stem().unwrap_or_default().to_string_lossy()
        ),
    };
    object.with_file_name(file)
}

/// `path` made absolute from the current directory (the build's, which a later
/// `augur extract-bc` need not share).
fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Compile `src` to bitcode at `bc` with the build's kept flags and augur's.
fn compile(inv: &Invocation, src: &Path, bc: &Path) -> Result<(), String> {
    let clang = augur_ir::llvm::clang();
    let o = augur_ir::llvm::clang_command()
        .args(inv.bitcode_flags())
        .args(
            augur_ir::ANALYSIS_CFLAGS
                .iter()
                .filter(|f| **f != "-mlong-double-64"),
        )
        .arg(src)
        .arg("-o")
        .arg(bc)
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&clang, &e))?;
    if o.status.success() {
        return Ok(());
    }
    Err(format!(
        "{}: no bitcode: {}",
        src.display(),
        crate::replay::native::first_error_line(&o.stderr)
    ))
}
