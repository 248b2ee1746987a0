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
