//! Inline assembly that real C code uses runs (rewritten to LLVM IR before lowering);
//! any other ends its path as unsupported, naming the assembly. (`cpuid`: language.rs.)

mod common;
use common::*;

#[test]
fn identity_moves_and_barriers_run() {
    // BusyBox's `asm volatile("" : "=r"(pp) : "0"(p))`, an empty barrier, fences, `pause`,
    // `rep; nop`, `nop`, two outputs tied crosswise (a swap) and a memory operand.
    let src = &program("inline_asm/identity_moves_and_barriers_run.c");
    let r = run_c(src, &["--sym-stdin", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(0, "7 other\n".to_string()), (1, "7 x\n".to_string())],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

#[test]
fn bswap_and_rdtsc_run() {
    // `bswap` of a tied operand is llvm.bswap; `rdtsc`/`rdtscp` (inline, and the
    // `__rdtsc`/`__rdtscp` builtins) read a counter of the path's instructions, which grows
    // from one read to the next as a real one does.
    let src = &program("inline_asm/bswap_and_rdtsc_run.c");
    let r = run_c(src, &["--sym-stdin", "4"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.exits_with_stdout(),
        vec![
            (0, "0807060504030201 1\nother\n".to_string()),
            (1, "0807060504030201 1\nmatch\n".to_string())
        ],
        "{}",
        r.stderr
    );
    let matching = r.tests.iter().find(|t| t["outcome"]["code"] == 1).unwrap();
    assert_eq!(object_bytes(matching, "stdin"), [0x11, 0x22, 0x33, 0x44]);
    r.assert_native_replay_passes();
}

#[test]
fn bit_scans_run() {
    // `bsf`, `rep; bsf` and `bsr` of an operand into the output are llvm.cttz and
    // llvm.ctlz: every path agrees with the compiler's own counts (exit 0), and the one
    // input whose lowest and highest set bit are both 9, 0x200, is found (exit 1).
    let src = &program("inline_asm/bit_scans_run.c");
    let r = run_c(src, &["--sym-stdin", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.errors("unsupported").is_empty(), "{}", r.stderr);
    let mut codes = r.exit_codes();
    codes.dedup();
    assert_eq!(codes, vec![0, 1, 3], "{}", r.stderr);
    let found = r.tests.iter().find(|t| t["outcome"]["code"] == 1).unwrap();
    assert_eq!(object_bytes(found, "stdin"), [0x00, 0x02]);
    r.assert_native_replay_passes();
}

#[test]
fn other_assembly_is_unsupported() {
    let src = &program("inline_asm/other_assembly_is_unsupported.c");
    let r = run_c(src, &["--sym-stdin", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0], "{}", r.stderr);
    let errors = r.errors("unsupported");
    assert_eq!(errors.len(), 1, "{}", r.stderr);
    assert_eq!(
        errors[0]["outcome"]["message"],
        "inline assembly `xchg %0, %1` is not supported"
    );
    assert_eq!(
        errors[0]["outcome"]["line"].as_u64(),
        Some(line_of(src, "XCHG"))
    );
    assert_eq!(object_bytes(errors[0], "stdin"), b"x");
}
