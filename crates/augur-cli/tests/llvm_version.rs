//! The LLVM a build reads: `--version` names it, bitcode from a newer LLVM is one clear
//! error line, bitcode from an older one is read.

mod common;
use augur_ir::LLVM_VERSION;
use common::*;
use std::process::Command;

#[test]
fn version_names_the_llvm() {
    let o = augur().arg("--version").output().unwrap();
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("(LLVM {LLVM_VERSION}, Z3 ")), "{out}");
}

/// The binary solves with the Z3 scripts/z3.sh installs, not Debian's older one (which
/// the linker finds too where libz3-dev is installed), and the build is pointed at the
/// version and directory the script installs (.cargo/config.toml says them again).
#[test]
fn version_names_the_z3_the_scripts_install() {
    let script = include_str!("../../../scripts/z3.sh");
    let set = |name: &str| {
        script
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("scripts/z3.sh sets {name}"))
            .to_string()
    };
    let (pinned, dir) = (set("AUGUR_Z3_VERSION"), set("AUGUR_Z3_DIR"));
    let config = include_str!("../../../.cargo/config.toml");
    assert!(
        config.contains(&format!("Z3_SYS_Z3_VERSION = \"{pinned}\"")),
        "{config}"
    );
    assert!(
        config.contains(&format!("Z3_LIBRARY_PATH_OVERRIDE = \"{dir}\"")),
        "{config}"
    );
    let o = augur().arg("--version").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!(", Z3 {pinned}.")), "{out}");
}

/// Compile `src` to bitcode with `clang-VERSION` into `out`; false if that clang is not
/// installed.
fn bitcode_by(version: u32, src: &std::path::Path, out: &std::path::Path) -> bool {
    let Ok(o) = Command::new(format!("clang-{version}"))
        .args(augur_ir::ANALYSIS_CFLAGS)
        .arg(src)
        .arg("-o")
        .arg(out)
        .output()
    else {
        eprintln!("clang-{version} is not installed: skipped");
        return false;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    true
}

const PROGRAM: &str = "int main(void) { int x = 7; return x == 7 ? 0 : 1; }\n";

/// `augur run` on PROGRAM compiled by `clang-VERSION` to `NAME.bc`: None if that clang is
/// not installed, else augur's exit code and stderr.
fn run_built_by(version: u32, name: &str) -> Option<(Option<i32>, String)> {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("prog.c");
    std::fs::write(&src, PROGRAM).unwrap();
    let bc = dir.path().join(format!("{name}.bc"));
    if !bitcode_by(version, &src, &bc) {
        return None;
    }
    let o = augur()
        .arg("run")
        .arg(&bc)
        .arg("-o")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    Some((
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    ))
}

#[test]
fn bitcode_from_a_newer_llvm_is_one_error_line() {
    if LLVM_VERSION >= 19 {
        return;
    }
    let Some((code, err)) = run_built_by(19, "newer") else {
        return;
    };
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].contains("newer.bc: bitcode from LLVM 19.")
            && lines[0].contains(&format!("newer than the LLVM {LLVM_VERSION}")),
        "{err}"
    );
}

#[test]
fn bitcode_from_an_older_llvm_is_read() {
    if LLVM_VERSION <= 14 {
        return;
    }
    let Some((code, err)) = run_built_by(14, "older") else {
        return;
    };
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("completed paths = 1"), "{err}");
}
