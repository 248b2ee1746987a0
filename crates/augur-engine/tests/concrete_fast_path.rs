//! The interpreter's concrete fast path (`executor/concrete.rs`) agrees with native
//! execution and with the general path: each program runs natively, then in the engine
//! without observers (loads and stores on the fast path) and with an observer watching
//! memory (loads and stores on the general path; arithmetic stays on the fast path, whose
//! results the general path then reads back).

mod common;

use augur_engine::{ErrorKind, Observer, Options, Outcome, State, Value};
use std::path::Path;
use std::process::Command;

/// Concrete arithmetic of every width (division and remainder of negative numbers, shifts,
/// comparisons, casts), GEPs with negative indices, and loads and stores of every size,
/// unaligned and across the 256-byte chunks of an object's bytes; the result is a 32-bit
/// hash of every value computed.
const CHECKSUM: &str = include_str!("programs/concrete_fast_path/checksum.c");

/// A program that writes `src` to a fresh directory, as `p.c`.
fn source(src: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("p.c");
    std::fs::write(&c, src).unwrap();
    (dir, c)
}

/// What the program prints when compiled natively (by the analysis build's clang).
fn native_output(dir: &Path, c: &Path) -> String {
    let exe = dir.join("native");
    let built = Command::new(augur_ir::llvm::clang())
        .args(["-O0", "-DNATIVE"])
        .arg(c)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(built.success());
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// An observer of loads and stores (its presence sends them down the general path).
struct WatchesMemory;

impl Observer for WatchesMemory {
    fn on_memory(&mut self, _: &State, _: &Value, _: u64, _: bool) {}
}

/// The outcomes of the paths of `main` in `c`, sorted by exit code, then the instructions
/// executed; with an observer of memory accesses when `watched`.
fn outcomes(c: &Path, watched: bool) -> (Vec<Outcome>, u64) {
    let (mut ex, main, tests) = common::executor(c, Options::default());
    if watched {
        ex.add_observer(Box::new(WatchesMemory));
    }
    let mut st = ex.initial_state(None);
    ex.start_call(&mut st, main, vec![]).unwrap();
    ex.enqueue(st);
    ex.run(&mut |_| {});
    let mut outs: Vec<Outcome> = tests.borrow().iter().map(|t| t.outcome.clone()).collect();
    outs.sort_by_key(|o| match o {
        Outcome::Exit(code) => *code,
        _ => i64::MAX,
    });
    (outs, ex.stats.instructions)
}

/// The outcomes of `src`, asserting that both paths give the same ones after the same
/// number of instructions.
fn both_paths(src: &str) -> Vec<Outcome> {
    let (_dir, c) = source(src);
    let fast = outcomes(&c, false);
    let general = outcomes(&c, true);
    assert_eq!(fast, general, "fast path and general path disagree");
    fast.0
}

#[test]
fn concrete_arithmetic_and_memory_agree_with_native_execution() {
    let (dir, c) = source(CHECKSUM);
    let native: i64 = native_output(dir.path(), &c).parse().unwrap();
    assert_eq!(both_paths(CHECKSUM), [Outcome::Exit(native)]);
}

#[test]
fn concrete_bytes_next_to_symbolic_ones_are_read_on_either_path() {
    let src = include_str!("programs/concrete_fast_path/concrete_bytes_next_to_symbolic_ones_are_read_on_either_path.c");
    assert_eq!(both_paths(src), [Outcome::Exit(11), Outcome::Exit(1011)]);
}

/// The kind of error the single path of `src` ends with.
fn error_kind(src: &str) -> ErrorKind {
    match &both_paths(src)[..] {
        [Outcome::Error(e)] => e.kind,
        other => panic!("expected one error, got {other:?}"),
    }
}

#[test]
fn concrete_errors_are_left_to_the_general_path() {
    let div = "int zero; int main(void) { int ten = 10; return ten / zero; }";
    assert_eq!(error_kind(div), ErrorKind::DivisionByZero);
    let rem = "long zero; int main(void) { long ten = 10; return ten % zero; }";
    assert_eq!(error_kind(rem), ErrorKind::DivisionByZero);
    let store = "char b[8]; int main(void) { char *p = b; p[8] = 1; return 0; }";
    assert_eq!(error_kind(store), ErrorKind::OutOfBounds);
    let load = "char b[8]; int main(void) { char *p = b; return p[-1]; }";
    assert_eq!(error_kind(load), ErrorKind::OutOfBounds);
    let null = "int main(void) { int *p = 0; return *p; }";
    assert_eq!(error_kind(null), ErrorKind::NullDereference);
    let read_only = r#"int main(void) { char *s = (char *)"abc"; s[0] = 'x'; return 0; }"#;
    assert_eq!(error_kind(read_only), ErrorKind::OutOfBounds);
}
