//! A project's own build to one bitcode: `augur cc` as the C compiler of a plain Makefile
//! and of CMake, `augur extract-bc`, then `augur run` and `augur replay` of that bitcode
//! (which links the libraries the build linked, from the bitcode itself: without libcrypt
//! the native run of the test calling crypt would fail).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// A copy of the project in `tests/programs/project`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/project");
    let copied = Command::new("cp")
        .arg("-r")
        .arg(from.join("."))
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(copied.success());
    dir
}

/// The compiler a build is given: this augur's `cc`.
fn cc() -> String {
    format!("{} cc", env!("CARGO_BIN_EXE_augur"))
}

/// Run `cmd` (a build step) in `dir`; it must succeed.
fn build(cmd: &mut Command, dir: &Path) {
    let o = cmd.current_dir(dir).output().unwrap();
    assert!(
        o.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `augur extract-bc` of the built `prog` in `dir`, then the checks a user makes: the
/// native program runs, the bitcode explores to the exact paths with the out-of-bounds
/// write found, and every test replays natively with libm linked as the build linked it.
fn extract_run_and_replay(dir: &Path) {
    let native = Command::new(dir.join("prog")).arg("12").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&native.stdout), "class 1 -\n");
    let o = augur()
        .arg("extract-bc")
        .arg(dir.join("prog"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "{}: 2 bitcode file(s) linked; links -lm -lcrypt natively\n",
            dir.join("prog.bc").display()
        ),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let scratch = tempfile::tempdir().unwrap();
    let r = run_file(scratch, dir.join("prog.bc"), &["--sym-args", "1", "1", "2"]);
    assert_eq!(r.paths(), 58, "{}", r.stderr);
    let oob = r.errors("out-of-bounds");
    assert_eq!(oob.len(), 1, "{}", r.stderr);
    assert!(oob[0]["outcome"]["file"]
        .as_str()
        .unwrap()
        .ends_with("src/main.c"));
    assert_eq!(oob[0]["outcome"]["line"], 23);
    r.assert_native_replay_passes();
}

#[test]
fn a_makefile_project_builds_to_bitcode_that_runs_and_replays() {
    let dir = project();
    build(Command::new("make").arg(format!("CC={}", cc())), dir.path());
    extract_run_and_replay(dir.path());
}

#[test]
fn a_cmake_project_builds_to_bitcode_that_runs_and_replays() {
    let dir = project();
    let b = dir.path().join("build");
    std::fs::create_dir(&b).unwrap();
    build(Command::new("cmake").arg("..").env("CC", cc()), &b);
    build(&mut Command::new("make"), &b);
    extract_run_and_replay(&b);
}

#[test]
fn extract_bc_of_a_program_built_otherwise_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("plain.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let exe = dir.path().join("plain");
    build(
        Command::new(augur_ir::llvm::clang())
            .arg(&src)
            .arg("-o")
            .arg(&exe),
        dir.path(),
    );
    let o = augur().arg("extract-bc").arg(&exe).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "augur: error: {}: no bitcode is recorded in it: build it with CC='augur cc' (docs/projects.md)\n",
            exe.display()
        )
    );
}

#[test]
fn native_only_builds_record_no_bitcode() {
    // configure's test programs, compiled with AUGUR_CC_NATIVE_ONLY=1: built natively,
    // once, with nothing recorded.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("conftest.c"),
        "int main(void) { return 3; }\n",
    )
    .unwrap();
    let compiles = |native_only: &str| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_augur"));
        cmd.args(["cc", "conftest.c", "-o", "conftest"])
            .env("AUGUR_CC_NATIVE_ONLY", native_only);
        build(&mut cmd, dir.path());
        let ran = Command::new(dir.path().join("conftest")).status().unwrap();
        assert_eq!(ran.code(), Some(3));
        let extracted = augur()
            .arg("extract-bc")
            .arg(dir.path().join("conftest"))
            .output()
            .unwrap();
        extracted.status.code()
    };
    assert_eq!(compiles("1"), Some(2), "no bitcode recorded");
    assert_eq!(compiles("0"), Some(0), "\"0\" leaves the bitcode on");
}
