//! C language features: recursion, function pointers, varargs, 128-bit integers, structs,
//! switch, floating point, globals.

mod common;
use common::*;

#[test]
fn recursion() {
    let src = &program("language/recursion.c");
    let r = run_c(src, &[]);
    let wins: Vec<i64> = r
        .tests
        .iter()
        .filter(|t| t["outcome"]["code"] == 1)
        .map(|t| Run::int_of(t, "n"))
        .collect();
    assert_eq!(wins, vec![5], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

#[test]
fn function_pointers_with_a_symbolic_choice() {
    let src = &program("language/function_pointers_with_a_symbolic_choice.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1, 2, 3], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

#[test]
fn varargs() {
    let src = &program("language/varargs.c");
    let r = run_c(src, &[]);
    let wins: Vec<i64> = r
        .tests
        .iter()
        .filter(|t| t["outcome"]["code"] == 1)
        .map(|t| Run::int_of(t, "x"))
        .collect();
    assert_eq!(wins, vec![10], "{}", r.stderr);
}

#[test]
fn int128_arithmetic() {
    let src = &program("language/int128_arithmetic.c");
    let r = run_c(src, &[]);
    let win = r
        .tests
        .iter()
        .find(|t| t["outcome"]["code"] == 1)
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert_eq!(Run::int_of(win, "a"), 12345);
    r.assert_seeded_replay_agrees();
}

#[test]
fn structs_by_value_and_switch() {
    let src = &program("language/structs_by_value_and_switch.c");
    let r = run_c(src, &[]);
    // 'c' and 'd' share a target: one path; tag 'b' also comes from k = 257, where v != 100.
    assert_eq!(r.exit_codes(), vec![-1, 10, 20, 30, 40], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

#[test]
fn concrete_floating_point_is_exact() {
    let src = &program("language/concrete_floating_point_is_exact.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1], "{}", r.stderr);
}

#[test]
fn globals_with_nested_initializers() {
    let src = &program("language/globals_with_nested_initializers.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1], "{}", r.stderr);
}

#[test]
fn entry_function_with_symbolic_arguments() {
    let src = r#"
int check(int a, const char *s) {
  if (a == 7 && s[0] == 'Q') return 1;
  return 0;
}
"#;
    let r = run_c(src, &["--entry", "check"]);
    assert_eq!(r.paths(), 3, "{}", r.stderr);
}

#[test]
fn setjmp_and_longjmp() {
    let src = &program("language/setjmp_and_longjmp.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![0, 1, 100, 101], "{}", r.stderr);
    for t in &r.tests {
        let x = Run::int_of(t, "x");
        let want = if x > 7 {
            101
        } else if x > 5 {
            100
        } else {
            (x == 3) as i64
        };
        assert_eq!(t["outcome"]["code"].as_i64().unwrap(), want, "x = {x}");
    }
    r.assert_seeded_replay_agrees();
    r.assert_native_replay_passes();
}

#[test]
fn bitcode_with_long_double_constants_loads() {
    // Bitcode built outside augur (wllvm, plain clang) keeps x86_fp80 long doubles, whose
    // constants llvm-ir reads without their value; augur rebuilds them from their bits.
    let src = &program("language/bitcode_with_long_double_constants_loads.c");
    let (dir, bc) = x87_bitcode(src);
    let r = run_file(dir, bc, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![5], "{}", r.stderr);
    assert_eq!(r.tests[0]["stdout"], "25 1\n");
}

#[test]
fn cpuid_reports_no_optional_features() {
    // coreutils' wc asks cpuid for AVX2 (gcc's <cpuid.h>, inline assembly): the analysed
    // machine has no optional features, so the portable code runs; the output does not
    // depend on the answer, so native replay (on a real CPU) agrees.
    let src = &program("language/cpuid_reports_no_optional_features.c");
    let r = run_c(src, &["--sym-stdin", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut codes = r.exit_codes();
    codes.sort();
    assert_eq!(codes, vec![0, 1, 1, 2], "{}", r.stderr);
    // The AVX2 path's line is never reached.
    let lcov = std::fs::read_to_string(r.out.join("coverage.lcov")).unwrap();
    let fast = format!("DA:{},", line_of(src, "FAST"));
    let hits: Vec<&str> = lcov.lines().filter(|l| l.starts_with(&fast)).collect();
    assert_eq!(hits, [format!("{fast}0")], "{lcov}");
    r.assert_native_replay_passes();
}
