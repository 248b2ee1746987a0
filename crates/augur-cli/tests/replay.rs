//! `augur replay`: every test of `augur run`, run natively (with sanitizers), ends as
//! predicted; tampered tests fail; KLEE's `.ktest` files replay.

mod common;
use common::*;
use std::path::Path;

/// What one `augur replay` printed.
struct Replay {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Run `augur replay` with `args`.
fn replay(args: &[&std::ffi::OsStr]) -> Replay {
    let o = augur().arg("replay").args(args).output().unwrap();
    Replay {
        status: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// `augur replay prog.c OUT` on the tests of `r`.
fn replay_run(r: &Run) -> Replay {
    replay(&[r.source.as_os_str(), r.out.as_os_str()])
}

/// Run `src`, replay every test, expect all of them to pass; returns the run.
fn all_pass(src: &str) -> Run {
    let r = run_c(src, &[]);
    assert_all_pass(&r);
    r
}

/// Replay every test of `r`, expect all of them to pass.
fn assert_all_pass(r: &Run) {
    assert!(!r.tests.is_empty(), "no tests: {}", r.stderr);
    let p = replay_run(r);
    let last = format!("{} passed, 0 failed", r.tests.len());
    assert_eq!(
        (p.status, p.stdout.lines().last()),
        (0, Some(last.as_str())),
        "stdout: {}\nstderr: {}",
        p.stdout,
        p.stderr
    );
    assert_eq!(p.stdout.lines().count(), r.tests.len() + 1);
}

const BRANCHES: &str = include_str!("programs/replay/branches.c");

#[test]
fn branches_and_exit_codes() {
    let r = all_pass(BRANCHES);
    assert_eq!(r.exit_codes(), vec![0, 0, 2, 7, 255, 255]);
}

#[test]
fn memory_errors_and_division_by_zero() {
    let r = all_pass(
        r#"
#include <augur.h>
#include <assert.h>
#include <stdlib.h>
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int a[4] = {0};
  if (x == 1) assert(x != 1);
  if (x == 2) { int *p = 0; return *p; }
  if (x > 10 && x < 20) a[x - 8] = 1;
  if (x == 5) return 100 / (x - 5);
  if (x == 6) { char *h = malloc(8); h[x + 2] = 1; free(h); }
  augur_assert(x != 7);
  return 0;
}
"#,
    );
    for kind in [
        "assertion",
        "null-dereference",
        "out-of-bounds",
        "division-by-zero",
    ] {
        assert!(!r.errors(kind).is_empty(), "no {kind}: {}", r.stderr);
    }
}

/// Bitcode built outside augur (no sanitizer in its build, as wllvm makes a project's) is
/// instrumented for the native run all the same: its memory errors show natively.
#[test]
fn memory_errors_in_bitcode_built_without_sanitizers_replay() {
    let (dir, bc) = x87_bitcode(
        r#"
#include <stdlib.h>
void augur_make_symbolic(void *p, unsigned long n, const char *name);
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int a[4] = {0};
  char *h = malloc(8);
  if (x > 10 && x < 20) a[x - 8] = 1;
  if (x == 6) h[x + 2] = 1;
  free(h);
  return a[0];
}
"#,
    );
    let r = run_file(dir, bc, &[]);
    assert_eq!(r.errors("out-of-bounds").len(), 2, "{}", r.stderr);
    assert_all_pass(&r);
}

#[test]
fn svcomp_reach_error_declared_only() {
    let r = all_pass(
        r#"
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned char c = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(x < 1000);
  if (x > 500 && c == 'a') reach_error();
  return x > 0;
}
"#,
    );
    assert_eq!(r.errors("reach-error").len(), 1, "{}", r.stderr);
}

#[test]
fn svcomp_reach_error_defined_by_the_program() {
    let r = all_pass(
        r#"
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "f.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 42) { reach_error(); }
  return 0;
}
"#,
    );
    assert_eq!(r.tests.len(), 2, "{}", r.stderr);
}

/// The test of `r` that exited with `code`, as its JSON path.
fn test_with_exit(r: &Run, code: i64) -> std::path::PathBuf {
    let i = r
        .tests
        .iter()
        .position(|t| t["outcome"]["kind"] == "exit" && t["outcome"]["code"] == code)
        .expect("a test with that exit code");
    r.out.join(format!("test{:06}.json", i + 1))
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut j: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    edit(&mut j);
    std::fs::write(path, serde_json::to_vec(&j).unwrap()).unwrap();
}

fn assert_one_failure(r: &Run, reason: &str) {
    let p = replay_run(r);
    assert_eq!(p.status, 1, "stdout: {}\nstderr: {}", p.stdout, p.stderr);
    let failed: Vec<&str> = p
        .stdout
        .lines()
        .filter(|l| l.contains(": FAILED: "))
        .collect();
    assert_eq!(failed.len(), 1, "{}", p.stdout);
    assert!(failed[0].contains(reason), "{}", p.stdout);
    let last = format!("{} passed, 1 failed", r.tests.len() - 1);
    assert_eq!(p.stdout.lines().last(), Some(last.as_str()));
}

#[test]
fn a_tampered_exit_code_fails() {
    let r = run_c(BRANCHES, &[]);
    edit_json(&test_with_exit(&r, 7), |j| j["outcome"]["code"] = 3.into());
    assert_one_failure(&r, "expected exit 3, got exit 7");
}

#[test]
fn a_tampered_input_fails() {
    let r = run_c(BRANCHES, &[]);
    let json = test_with_exit(&r, 7);
    // x is 3 on that path: make it 4 in the JSON and in the .ktest next to it (x's four
    // bytes come before c's name length, name, data length and one byte).
    edit_json(&json, |j| {
        assert_eq!(j["objects"][0]["name"], "x");
        j["objects"][0]["bytes"][0] = 4.into();
    });
    let ktest = json.with_extension("ktest");
    let mut k = std::fs::read(&ktest).unwrap();
    let x0 = k.len() - 1 - 4 - 1 - 4 - 4;
    assert_eq!(k[x0], 3);
    k[x0] = 4;
    std::fs::write(&ktest, k).unwrap();
    assert_one_failure(&r, "expected exit 7, got exit ");
}

#[test]
fn a_json_disagreeing_with_its_ktest_fails() {
    let r = run_c(BRANCHES, &[]);
    edit_json(&test_with_exit(&r, 7), |j| {
        j["objects"][0]["bytes"][0] = 4.into()
    });
    assert_one_failure(&r, "differ");
}

/// A `.ktest` as KLEE writes it (version 3).
fn klee_ktest(args: &[&str], objects: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = b"KTEST".to_vec();
    let put = |out: &mut Vec<u8>, b: &[u8]| {
        out.extend_from_slice(&(b.len() as u32).to_be_bytes());
        out.extend_from_slice(b);
    };
    out.extend_from_slice(&3u32.to_be_bytes());
    out.extend_from_slice(&(args.len() as u32).to_be_bytes());
    for a in args {
        put(&mut out, a.as_bytes());
    }
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&(objects.len() as u32).to_be_bytes());
    for (name, bytes) in objects {
        put(&mut out, name.as_bytes());
        put(&mut out, bytes);
    }
    out
}

#[test]
fn klee_ktest_files_replay() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("prog.c");
    std::fs::write(&src, BRANCHES).unwrap();
    let klee_out = dir.path().join("klee-out-0");
    std::fs::create_dir(&klee_out).unwrap();
    let tests: [(&[u8], &[u8]); 3] = [
        (&[3, 0, 0, 0], b"a"),
        (&[101, 0, 0, 0], b"z"),
        (&[0; 4], b"q"),
    ];
    for (i, (x, c)) in tests.iter().enumerate() {
        let k = klee_ktest(&["prog.bc"], &[("x", x), ("c", c)]);
        std::fs::write(klee_out.join(format!("test{:06}.ktest", i + 1)), k).unwrap();
    }
    let p = replay(&[src.as_os_str(), klee_out.as_os_str()]);
    assert_eq!(p.status, 0, "{}{}", p.stdout, p.stderr);
    assert_eq!(
        p.stdout,
        "test000001.ktest: ran (exit 7)\ntest000002.ktest: ran (exit 2)\n\
         test000003.ktest: ran (exit 255)\n3 passed, 0 failed\n"
    );
}

#[test]
fn bad_input_is_one_error_line() {
    let r = run_c(BRANCHES, &[]);
    let missing = r.out.join("test999999.json");
    let bad_c = r.out.join("bad.c");
    std::fs::write(&bad_c, "int main(void) { return undeclared; }\n").unwrap();
    for (args, want) in [
        (
            vec![r.source.as_os_str(), missing.as_os_str()],
            "no such file",
        ),
        (
            vec![bad_c.as_os_str(), r.out.as_os_str()],
            "does not compile",
        ),
        (vec![r.source.as_os_str(), r.source.as_os_str()], "no tests"),
        (
            vec![
                r.source.as_os_str(),
                "--tests".as_ref(),
                r.source.as_os_str(),
            ],
            "not a test",
        ),
    ] {
        let p = replay(&args);
        assert_eq!(p.status, 2, "{}", p.stderr);
        assert_eq!(p.stderr.lines().count(), 1, "{}", p.stderr);
        assert!(
            p.stderr.starts_with("augur: error: ") && p.stderr.contains(want),
            "{}",
            p.stderr
        );
    }
}

/// A test whose native runs differ from each other (the program prints the host's
/// randomness) is reported as nondeterministic natively, apart from the failures, and
/// does not fail the replay; a deterministic disagreement stays a failure (the tampered
/// tests above).
#[test]
fn a_program_nondeterministic_natively_is_reported_as_such() {
    let r = run_c(include_str!("programs/replay/urandom.c"), &[]);
    assert_eq!(r.exits_with_stdout(), vec![(0, "no randomness\n".into())]);
    let p = replay_run(&r);
    let lines: Vec<&str> = p.stdout.lines().collect();
    assert_eq!(p.status, 0, "{}", p.stdout);
    assert_eq!(lines.len(), 2, "{}", p.stdout);
    assert!(
        lines[0].starts_with("test000001.json: nondeterministic natively: expected stdout")
            && lines[0].ends_with("; a second native run differed"),
        "{}",
        p.stdout
    );
    assert_eq!(lines[1], "0 passed, 0 failed, 1 nondeterministic");
}

/// A native run has a root of its own, as the analysis's world is: `/` can be neither
/// listed nor written, `/tmp` is empty and writable, the working directory is
/// /augur/work, standard output is the program's to touch, there is no /proc nor /sys
/// (to the program's fopen, open and opendir) and no /etc; whatever the machine's `/` and `/tmp` hold, and whoever runs augur (CI
/// runs it as root: the program then runs as nobody, so a test of `rm -rf /` cannot
/// remove the machine's files).
#[test]
fn native_runs_have_a_root_of_their_own() {
    let r = run_c(include_str!("programs/replay/outside.c"), &[]);
    let world = "create in /: Permission denied\nrmdir /tmp: Permission denied\n\
                 list /: Permission denied\nentries of /tmp: 2\ncreate in /tmp: created\n\
                 cwd: /augur/work\ntimes of stdout: set\nmount table: No such file or directory\n\
                 setmntent: No such file or directory\n\
                 /proc/uptime: No such file or directory\n\
                 /etc/passwd: No such file or directory\n\
                 open /proc: No such file or directory\n\
                 openat /proc: No such file or directory\n\
                 list /proc: No such file or directory\n\
                 list /sys: No such file or directory\n\
                 open /sys: No such file or directory\n";
    assert_eq!(r.exits_with_stdout(), vec![(1, world.into())]);
    assert_all_pass(&r);
    assert!(!Path::new("/augur-replay-probe").exists());
    assert!(!Path::new("/tmp/mine").exists());
}

/// Stack memory read before it is written is zero in the analysis and natively alike, once
/// per execution of its alloca (a variable of a loop body keeps its value).
#[test]
fn fresh_stack_memory_reads_as_zero_natively_too() {
    let r = run_c(include_str!("programs/replay/fresh_stack.c"), &[]);
    assert_eq!(
        r.exits_with_stdout(),
        vec![
            (0, "0\n0\n7\n7\n".into()),
            (1, String::new()),
            (1, String::new())
        ]
    );
    assert_all_pass(&r);
}

/// Heap memory read before it is written is zero in the analysis and natively alike.
#[test]
fn fresh_heap_memory_reads_as_zero_natively_too() {
    let r = run_c(include_str!("programs/replay/fresh_heap.c"), &[]);
    assert_eq!(r.exits_with_stdout(), vec![(0, "0 0 0 0\n0\n".into())]);
    assert_all_pass(&r);
}
