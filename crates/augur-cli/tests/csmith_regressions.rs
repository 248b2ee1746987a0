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

/// Csmith seeds 30, 56, 87, ... (rejected in lowering): consecutive bit-fields of a
/// `#pragma pack(1)` struct totalling more than 128 bits are one storage unit, which clang-14
/// loads, masks, shifts and stores as a single wide integer (`i152`, `i248`); augur rejected
/// the type ("integer type i152 is wider than 128 bits").
#[test]
fn packed_bitfields_wider_than_128_bits() {
    let src = r#"
#include <stdio.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
#pragma pack(pop)
struct S g = {1, 2, 3, 4, 5, 6};
int main(void) { g.f2 = -7; g.f4 += g.f1; printf("%d %u %d\n", g.f2, g.f1, g.f4); return 0; }
"#;
    assert_native(src, "-7 2 7\n", 0);
    let src = r#"
#include <stdio.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
struct T { unsigned a : 31; signed b : 31; unsigned c : 31; signed d : 31; unsigned e : 31; signed f : 31; unsigned g : 31; signed h : 31; char tail; };
#pragma pack(pop)
struct S s1 = {-1, 2147483647u, -67108864, 536870911u, -524288, 32767u};
struct T t1 = {1, -2, 3, -4, 5, -6, 7, -8, 'x'};
static void show_s(const struct S *p) {
    printf("S %d %u %d %u %d %u\n", p->f0, p->f1, p->f2, p->f3, p->f4, p->f5);
}
static void show_t(struct T t) {
    printf("T %u %d %u %d %u %d %u %d %c\n", t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h, t.tail);
}
int main(void) {
    struct S l = s1;
    int i;
    show_s(&s1);
    show_t(t1);
    l.f0 = -536870912; l.f1 = 12345; l.f2 = 67108863; l.f3 = 7; l.f4 = 524287; l.f5 = 1;
    show_s(&l);
    for (i = 0; i < 5; i++) {
        l.f0 -= 3; l.f1 *= 3; l.f2 ^= i; l.f3 += l.f1; l.f4 = -l.f4 + i; l.f5 -= 2;
        show_s(&l);
    }
    t1.a = 0x7fffffff; t1.b = -1073741824; t1.c ^= t1.a; t1.d = t1.b >> 3; t1.e = t1.c + 9;
    t1.f = -t1.f; t1.g = t1.g << 20; t1.h = t1.h * 1000;
    show_t(t1);
    s1 = l;
    show_s(&s1);
    return (s1.f4 < 0) + 2 * (t1.h > 0) + 4 * (l.f0 == s1.f0);
}
"#;
    assert_native(
        src,
        concat!(
            "S -1 2147483647 -67108864 536870911 -524288 32767\n",
            "T 1 -2 3 -4 5 -6 7 -8 x\n",
            "S -536870912 12345 67108863 7 524287 1\n",
            "S 536870909 37035 67108863 37042 -524287 32767\n",
            "S 536870906 111105 67108862 148147 -524288 32765\n",
            "S 536870903 333315 67108860 481462 -524286 32763\n",
            "S 536870900 999945 67108863 1481407 -524287 32761\n",
            "S 536870897 2999835 67108859 4481242 -524285 32759\n",
            "T 2147483647 -1073741824 2147483644 -134217728 5 6 7340032 -8000 x\n",
            "S 536870897 2999835 67108859 4481242 -524285 32759\n",
        ),
        5,
    );
}
