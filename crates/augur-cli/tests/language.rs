//! C language features: recursion, function pointers, varargs, 128-bit integers, structs,
//! switch, floating point, globals.

mod common;
use common::*;

#[test]
fn recursion() {
    let src = r#"
#include <augur.h>
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
  int n; augur_make_symbolic(&n, sizeof n, "n");
  augur_assume(n >= 0 && n <= 5);
  if (fact(n) == 120) return 1;
  return 0;
}
"#;
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
    let src = r#"
#include <augur.h>
static int one(void) { return 1; }
static int two(void) { return 2; }
static int three(void) { return 3; }
int (*table[3])(void) = {one, two, three};
int main(void) {
  unsigned k; augur_make_symbolic(&k, sizeof k, "k");
  augur_assume(k < 3);
  return table[k]();
}
"#;
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1, 2, 3], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

#[test]
fn varargs() {
    let src = r#"
#include <stdarg.h>
#include <augur.h>
long sum(int n, ...) {
  va_list ap; va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  double d = va_arg(ap, double);
  long big = va_arg(ap, long);
  va_end(ap);
  return s + (long)d + big;
}
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  augur_assume(x > 0 && x < 100);
  if (sum(3, 1, 2, x, 2.5, 10L) == 25) return 1;
  return 0;
}
"#;
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
    let src = r#"
#include <augur.h>
int main(void) {
  unsigned long long a; augur_make_symbolic(&a, sizeof a, "a");
  unsigned __int128 w = (unsigned __int128)a * 0x100000000ULL * 0x100000000ULL;
  __int128 s = -(__int128)w;
  /* Concrete 128-bit division and remainder, signed and unsigned. */
  __int128 big = (__int128)1 << 100;
  int concrete_ok = big / -3 == -(((__int128)1 << 100) / 3) && big % 7 == 2
    && (unsigned __int128)-1 / 5 == ((unsigned __int128)-1) / 5 && ((unsigned __int128)-1 >> 127) == 1;
  if (concrete_ok && (w >> 64) == 12345 && s < 0) return 1;
  return 0;
}
"#;
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
    let src = r#"
#include <augur.h>
struct P { char tag; long v; short w; };
static struct P make(int k) { struct P p = { 'a' + k, k * 100L, (short)k }; return p; }
int main(void) {
  int k; augur_make_symbolic(&k, sizeof k, "k");
  struct P p = make(k);
  struct P q = p;
  switch (q.tag) {
    case 'a': return 10;
    case 'b': if (q.v == 100) return 20; return -1;
    case 'c': case 'd': return 30;
    default: return 40;
  }
}
"#;
    let r = run_c(src, &[]);
    // 'c' and 'd' share a target: one path; tag 'b' also comes from k = 257, where v != 100.
    assert_eq!(r.exit_codes(), vec![-1, 10, 20, 30, 40], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

#[test]
fn concrete_floating_point_is_exact() {
    let src = r#"
int main(void) {
  double x = 0.1 + 0.2;
  float f = 1.0f / 3.0f;
  long double ld = 2.5L;
  int ok = (x != 0.3) && (x == 0.30000000000000004) && (f == 1.0f / 3.0f)
    && ((int)(ld * 2) == 5) && ((unsigned)(-1.0 * -4294967295.0) == 4294967295u);
  return ok;
}
"#;
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1], "{}", r.stderr);
}

#[test]
fn globals_with_nested_initializers() {
    let src = r#"
struct S { const char *name; int vals[3]; struct S *next; };
struct S second = { "two", {4, 5, 6}, 0 };
struct S first = { "one", {1, 2, 3}, &second };
const char *names[] = { "x", "yy", "zzz" };
int main(void) {
  int ok = first.next->vals[2] == 6 && first.name[1] == 'n' && names[2][2] == 'z' && second.next == 0;
  return ok;
}
"#;
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
    let src = r#"
#include <setjmp.h>
#include <augur.h>
static jmp_buf env;
static void fail(int code) { longjmp(env, code); }
static int work(int x) { if (x > 5) fail(x); return x; }
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  augur_assume(x >= 0);
  augur_assume(x < 10);
  volatile int r = setjmp(env);
  if (r != 0) {
    if (r > 7) return 101;
    return 100;
  }
  if (work(x) == 3) return 1;
  return 0;
}
"#;
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
    let src = r#"
#include <stdio.h>
int main(void) {
  long double ld = 2.5L;
  long double y = ld * 10.0L + 0.25L;
  long double big = 1e4000L;
  printf("%d %d\n", (int)y, big > 1e300L);
  return (int)(y / 5.0L);
}
"#;
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
    let src = r#"
#include <cpuid.h>
#include <stdio.h>
#include <unistd.h>
static int avx2(void) {
  unsigned int a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & bit_AVX2) != 0;
}
static int lines_fast(const char *s, int n) {
  int k = 0; /* FAST */
  while (n--) k += *s++ == '\n';
  return k;
}
static int lines_portable(const char *s, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) if (s[i] == '\n') k++;
  return k;
}
int main(void) {
  char buf[2];
  int n = read(0, buf, 2);
  int k = avx2() ? lines_fast(buf, n) : lines_portable(buf, n);
  printf("%d\n", k);
  return k;
}
"#;
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
