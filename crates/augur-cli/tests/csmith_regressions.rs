//! Regressions found by the Csmith differential harness (`bench/csmith.sh`): each program
//! runs concretely (one path), and its stdout and exit code must be those of the native
//! program (clang-14 -O0).

mod common;
use common::*;

/// Run a program with no symbolic input and check its single path against the native run.
fn assert_native(src: &str, stdout: &str, code: i64) {
    let r = run_c(src, &[]);
    assert_eq!(r.tests.len(), 1, "one path expected; stderr: {}", r.stderr);
    let t = &r.tests[0];
    assert_eq!(t["outcome"]["kind"], "exit", "{t}\nstderr: {}", r.stderr);
    assert_eq!(t["outcome"]["code"], code, "{t}");
    assert_eq!(t["stdout"], stdout, "{t}");
}

/// Csmith seed 7: clang leaves comparisons of addresses of globals that it cannot fold as
/// `icmp` constant expressions, e.g. `zext (icmp ne (gep @g, 0, 1), (gep @g, 0, 5)) to i32`;
/// lowering rejected them ("unsupported constant expression icmp ...").
#[test]
fn icmp_constant_expression_on_global_addresses() {
    let src = r#"
#include <stdio.h>
static long g[7];
static int h;
int main(void) {
    int a = (&g[1] != &g[5]);
    int b = (&g[1] == &g[5]);
    int c = (&g[2] == &g[2]);
    int d = ((void *)&g[1] == (void *)&h);
    int e = ((void *)&g[1] != (void *)0);
    int f = (&g[6] > &g[2]);
    printf("%d %d %d %d %d %d\n", a, b, c, d, e, f);
    return a + b + c + d + e + f;
}
"#;
    assert_native(src, "1 0 1 0 1 1\n", 4);
}

/// Csmith seeds 128, 161: integer operations on such folded comparisons stay constant
/// expressions too (`xor (zext (icmp eq ...) to i32), -1`, `or (zext (icmp ne (gep ..),
/// null) to i64), 17`, `mul`, `shl`, `ashr`, `udiv`, `srem`); lowering rejected them.
#[test]
fn integer_constant_expressions_on_address_comparisons() {
    let src = r#"
#include <stdio.h>
static long g[2][10];
static int *p[3];
int main(void) {
    int a = ~(&g[1][6] == &g[0][6]);
    long b = ((char *)p + 16 != (char *)0) | 16L;
    int c = (&g[1][2] != &g[0][2]) * 6;
    int d = (&g[1][2] != &g[0][2]) << 4;
    int e = (&g[1][2] != &g[0][2]) & 7;
    int f = (-8 - (&g[0][1] != &g[0][3])) >> 1;
    unsigned u = (unsigned)(-9 - (&g[0][1] != &g[0][3])) / 3u;
    int q = (-9 - (&g[0][1] != &g[0][3])) % 4;
    printf("%d %ld %d %d %d %d %u %d\n", a, b, c, d, e, f, u, q);
    return 0;
}
"#;
    assert_native(src, "-1 17 6 16 1 -5 1431655762 -2\n", 0);
}

/// Csmith seed 322 (checksum disagreement): a struct passed by value is a `byval` pointer
/// parameter, and clang-14 passes a global directly (`call @f(%struct.S* byval(..) @g)`);
/// the callee must work on a private copy, but augur wrote through to the global.
#[test]
fn byval_struct_argument_is_a_private_copy() {
    let src = r#"
#include <stdio.h>
#include <stdint.h>
struct S { int64_t f0; int16_t f1; uint64_t f2; int8_t f3; };
static struct S g = {1, 2, 3, 4};
static int64_t f(struct S p) {
    p.f0 = -251;
    p.f3 = 9;
    return p.f0 + p.f3;
}
int main(void) {
    int64_t r = f(g);
    printf("%lld %lld %d\n", (long long)r, (long long)g.f0, g.f3);
    return g.f0 == 1 ? 0 : 1;
}
"#;
    assert_native(src, "-242 1 4\n", 0);
}
