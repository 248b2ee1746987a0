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
    let src = &program("csmith_regressions/icmp_constant_expression_on_global_addresses.c");
    assert_native(src, "1 0 1 0 1 1\n", 4);
}

/// Csmith seeds 128, 161: integer operations on such folded comparisons stay constant
/// expressions too (`xor (zext (icmp eq ...) to i32), -1`, `or (zext (icmp ne (gep ..),
/// null) to i64), 17`, `mul`, `shl`, `ashr`, `udiv`, `srem`); lowering rejected them.
#[test]
fn integer_constant_expressions_on_address_comparisons() {
    let src = &program("csmith_regressions/integer_constant_expressions_on_address_comparisons.c");
    assert_native(src, "-1 17 6 16 1 -5 1431655762 -2\n", 0);
}

/// Csmith seed 322 (checksum disagreement): a struct passed by value is a `byval` pointer
/// parameter, and clang-14 passes a global directly (`call @f(%struct.S* byval(..) @g)`);
/// the callee must work on a private copy, but augur wrote through to the global.
#[test]
fn byval_struct_argument_is_a_private_copy() {
    let src = &program("csmith_regressions/byval_struct_argument_is_a_private_copy.c");
    assert_native(src, "-242 1 4\n", 0);
}

/// Csmith seeds 30, 56, 87, ... (rejected in lowering): consecutive bit-fields of a
/// `#pragma pack(1)` struct totalling more than 128 bits are one storage unit, which clang-14
/// loads, masks, shifts and stores as a single wide integer (`i152`, `i248`); augur rejected
/// the type ("integer type i152 is wider than 128 bits").
#[test]
fn packed_bitfields_wider_than_128_bits() {
    let src = &program("csmith_regressions/packed_bitfields_wider_than_128_bits.c");
    assert_native(src, "-7 2 7\n", 0);
    let src = &program("csmith_regressions/packed_bitfields_wider_than_128_bits_2.c");
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
