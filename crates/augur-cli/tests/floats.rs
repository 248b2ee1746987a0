//! Symbolic floating point: arithmetic, comparisons and conversions on input are solved
//! with Z3's floating-point theory (binary32 and binary64, rounding to nearest even), and
//! every test replays natively to the outcome augur predicted.

mod common;
use common::*;

/// The little-endian bytes of object `name` of `test` as a double.
fn double_of(test: &serde_json::Value, name: &str) -> f64 {
    let bytes: [u8; 8] = object_bytes(test, name).try_into().expect("8 bytes");
    f64::from_le_bytes(bytes)
}

/// The one test that exited with `code`.
fn exited_with(r: &Run, code: i64) -> &serde_json::Value {
    let mut found = r
        .tests
        .iter()
        .filter(|t| t["outcome"]["kind"] == "exit" && t["outcome"]["code"] == code);
    let t = found
        .next()
        .unwrap_or_else(|| panic!("no exit {code}: {}", r.stderr));
    assert!(found.next().is_none(), "more than one exit {code}");
    t
}

/// The one crash of a run of `paths` paths: an abort at the line of `src` marked CRASH.
fn the_crash<'a>(r: &'a Run, src: &str, paths: u64) -> &'a serde_json::Value {
    assert_eq!(r.paths(), paths, "{}", r.stderr);
    let crashes = r.errors("abort");
    assert_eq!(crashes.len(), 1, "{}", r.stderr);
    assert_eq!(crashes[0]["outcome"]["line"], line_of(src, "CRASH"));
    crashes[0]
}

/// `float a = x / 70.0; if (a - 0.1f == 0)` (issue 25's example): the division is in
/// double precision, rounded to single; only x = 7 gives 0.1f. Double division keeps Z3
/// busy for seconds, hence the long solver timeout.
#[test]
fn float_division_comparison_is_solved() {
    let src = &program("floats/float_division_comparison_is_solved.c");
    let r = run_c(src, &["--solver-timeout", "300"]);
    assert_eq!(Run::int_of(the_crash(&r, src, 2), "x"), 7);
    assert_eq!(r.summary["float_concretizations"], 0);
    r.assert_native_replay_passes();
}

/// `(float)x == 16777216.0f` holds for x = 2^24 and, rounding to even, for 2^24 + 1 only.
#[test]
fn int_to_float_rounds_to_even() {
    let src = &program("floats/int_to_float_rounds_to_even.c");
    let r = run_c(src, &[]);
    assert_eq!(Run::int_of(the_crash(&r, src, 3), "x"), 16_777_217);
    assert_eq!(Run::int_of(exited_with(&r, 1), "x"), 16_777_216);
    r.assert_native_replay_passes();
}

/// Float to integer conversions truncate toward zero: `(int)d == 3` with `d > 3.9`, and
/// `(unsigned char)(float)d == 200` with `d < 200.5`, each reached (d may be just below
/// 200: it rounds to 200.0 as a float).
#[test]
fn float_to_int_truncates() {
    let src = &program("floats/float_to_int_truncates.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 5, "{}", r.stderr);
    let d = double_of(exited_with(&r, 1), "d");
    assert!(d > 3.9 && d < 4.0, "d = {d}");
    let d = double_of(exited_with(&r, 2), "d");
    let f = d as f32;
    assert!((200.0..201.0).contains(&f) && d < 200.5, "d = {d}");
    r.assert_native_replay_passes();
}

/// `d != d` is NaN, `d == 1.0 / 0.0` is +infinity, and nothing is below -infinity.
#[test]
fn nan_and_infinity_comparisons() {
    let src = &program("floats/nan_and_infinity_comparisons.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![0, 1, 2], "{}", r.stderr);
    assert!(double_of(exited_with(&r, 1), "d").is_nan());
    assert_eq!(double_of(exited_with(&r, 2), "d"), f64::INFINITY);
    r.assert_native_replay_passes();
}

/// `(float)x * 0.1f == 0.3f` holds for x = 3 in single precision, while `3 * 0.1` is
/// not 0.3 in double precision: the inner branch is infeasible.
#[test]
fn single_and_double_precision_round_differently() {
    let src = &program("floats/single_and_double_precision_round_differently.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![0, 1], "{}", r.stderr);
    assert_eq!(Run::int_of(exited_with(&r, 1), "x"), 3);
    r.assert_native_replay_passes();
}

/// `fabs` and `sqrt` (as LLVM's intrinsics, `-fno-math-errno`) of a symbolic double:
/// `fabs(d) == 2.0 && d < 0` gives -2, `sqrt(d) == 3.0` gives 9, and with `fabs(d) == 2.0`
/// and `d >= 0` no square root is 3. The square root keeps Z3 busy for seconds.
#[test]
fn sqrt_and_fabs_are_solved() {
    let src = &program("floats/sqrt_and_fabs_are_solved.c");
    let r = run_c(
        src,
        &["--cflags", "-fno-math-errno", "--solver-timeout", "300"],
    );
    assert_eq!(r.exit_codes(), vec![0, 0, 1, 2], "{}", r.stderr);
    assert_eq!(double_of(exited_with(&r, 1), "d"), -2.0);
    assert_eq!(double_of(exited_with(&r, 2), "d"), 9.0);
    assert_eq!(r.summary["float_concretizations"], 0);
    r.assert_native_replay_passes();
}

/// `--float concrete` goes back to making symbolic operands concrete: one path, one
/// concretization, the crash missed.
#[test]
fn concrete_floats_on_request() {
    let src = &program("floats/int_to_float_rounds_to_even.c");
    let r = run_c(src, &["--float", "concrete"]);
    assert_eq!(r.paths(), 1, "{}", r.stderr);
    assert!(r.errors("abort").is_empty());
    assert_eq!(r.summary["float_concretizations"], 1);
    r.assert_native_replay_passes();
}
