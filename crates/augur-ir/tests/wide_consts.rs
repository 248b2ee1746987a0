//! Integer constants wider than 64 bits survive loading (llvm-ir alone truncates them).

use augur_ir::split_wide_constants;
use augur_ir::*;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

const ONE_100: u128 = 1 << 100;
const ALL_BY_5: u128 = u128::MAX / 5;
const NEG: i128 = -(3 << 90);

/// Evaluate an operand made of immediates and the freeze/zext/shl/or instructions the
/// rewrite emits.
fn eval(f: &Function, op: &Operand) -> Option<u128> {
    let defs: HashMap<Reg, &Inst> = f.insts.iter().filter_map(|i| Some((i.dst()?, i))).collect();
    eval_in(&defs, op)
}

fn eval_in(defs: &HashMap<Reg, &Inst>, op: &Operand) -> Option<u128> {
    let mask = |w: u32, v: u128| if w >= 128 { v } else { v & ((1u128 << w) - 1) };
    match op {
        Operand::Imm { width, value } => Some(mask(*width, *value)),
        Operand::Reg(r) => match defs.get(r)? {
            Inst::Cast {
                op: CastOp::Same | CastOp::ZExt,
                a,
                width,
                ..
            } => Some(mask(*width, eval_in(defs, a)?)),
            Inst::Bin {
                op, a, b, width, ..
            } => {
                let (a, b) = (eval_in(defs, a)?, eval_in(defs, b)?);
                Some(mask(
                    *width,
                    match op {
                        IntOp::Shl => a.checked_shl(b as u32)?,
                        IntOp::Or => a | b,
                        _ => return None,
                    },
                ))
            }
            _ => None,
        },
        Operand::Const(_) => None,
    }
}

fn func<'p>(p: &'p Program, name: &str) -> &'p Function {
    p.func(p.func_named(name).unwrap())
}

/// The right operand of the only `op` instruction of `f` whose width is 128.
fn bin_rhs(f: &Function, op: IntOp) -> &Operand {
    let found: Vec<&Operand> = f
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Bin {
                op: o,
                b,
                width: 128,
                ..
            } if *o == op => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "{op:?} in {}: {:?}", f.name, f.insts);
    found[0]
}

/// The 64-bit immediates frozen by `f` (the words of its wide constants).
fn frozen_words(f: &Function) -> Vec<u64> {
    f.insts
        .iter()
        .filter_map(|i| match i {
            Inst::Cast {
                op: CastOp::Same,
                a: Operand::Imm { width: 64, value },
                width: 64,
                ..
            } => Some(*value as u64),
            _ => None,
        })
        .collect()
}

/// The values of all 128-bit immediates of `f`.
fn imm128(f: &Function) -> Vec<u128> {
    let text = format!("{:?}", f.insts);
    text.split("Imm { width: 128, value: ")
        .skip(1)
        .map(|rest| rest[..rest.find(' ').unwrap()].parse().unwrap())
        .collect()
}

fn lli(path: &Path) -> (i32, String) {
    let out = Command::new(augur_ir::llvm::llvm_tool("lli"))
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn llvm_dis(path: &Path) -> String {
    let out = Command::new(augur_ir::llvm::llvm_tool("llvm-dis"))
        .arg(path)
        .arg("-o")
        .arg("-")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

const C_SRC: &str = include_str!("programs/wide_consts/c_src.c");

/// `src` built to bitcode with `opts` and rewritten by `split_wide_constants` (nothing left
/// unsupported); both modules exit 0 under lli with the same output, which is returned
/// with the temporary directory, the bitcode and the rewritten bitcode.
fn rewritten_runs_alike(
    src: &str,
    opts: &CompileOptions,
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    String,
) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("prog.c");
    std::fs::write(&c, src).unwrap();
    let bc = build_bitcode(&[c], &[], opts, dir.path()).unwrap();
    let out = dir.path().join("out.bc");
    assert_eq!(split_wide_constants(&bc, &out).unwrap(), 0);
    let (code0, before) = lli(&bc);
    let (code1, after) = lli(&out);
    assert_eq!((code0, code1), (0, 0));
    assert_eq!(before, after);
    (dir, bc, out, before)
}

#[test]
fn wide_constants_from_clang_are_rebuilt_from_halves() {
    // The rewritten module computes the same results, and the global's initializer is a
    // byte image (checked below).
    let (_dir, bc, out, before) = rewritten_runs_alike(C_SRC, &CompileOptions::default());
    assert_eq!(
        before.lines().take(7).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "4", "5", "4"]
    );
    let ir = llvm_dis(&out);
    for line in ir.lines() {
        for big in [
            "1267650600228229401496703205376",
            &ALL_BY_5.to_string(),
            &NEG.to_string(),
        ] {
            assert!(!line.contains(big), "{line}");
        }
    }
    assert!(ir.contains("freeze i64"));

    // Loading rewrites too, and the lowered program carries the full values.
    let p = load_program(&bc).unwrap();
    assert!(bc.with_extension("wide.bc").exists());

    let f = func(&p, "f");
    assert_eq!(eval(f, bin_rhs(f, IntOp::Add)), Some(ONE_100));
    assert!(f.insts.iter().any(|i| matches!(
        i,
        Inst::Bin {
            op: IntOp::Shl,
            width: 128,
            ..
        }
    )));
    assert_eq!(frozen_words(f), [0, 1 << 36]);
    // No truncated immediate is left: the only 128-bit one is the shift amount.
    assert_eq!(imm128(f), [64]);

    let g = func(&p, "g");
    assert_eq!(eval(g, bin_rhs(g, IntOp::Mul)), Some(ALL_BY_5));
    assert_eq!(frozen_words(g), [ALL_BY_5 as u64, (ALL_BY_5 >> 64) as u64]);

    let h = func(&p, "h");
    assert_eq!(eval(h, bin_rhs(h, IntOp::Sub)), Some(NEG as u128));
    assert_eq!(
        frozen_words(h),
        [NEG as u128 as u64, ((NEG as u128) >> 64) as u64]
    );

    let sel = func(&p, "sel");
    let t = sel
        .insts
        .iter()
        .find_map(|i| match i {
            Inst::Select { t, .. } => Some(t),
            _ => None,
        })
        .unwrap();
    assert_eq!(eval(sel, t), Some(ONE_100));

    // The switch's case values all fit in 64 bits now.
    let s = func(&p, "s");
    let cases = s
        .insts
        .iter()
        .find_map(|i| match i {
            Inst::Switch { cases, .. } => Some(cases.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(cases.len(), 4);
    assert!(
        cases.iter().all(|(v, _)| *v <= u64::MAX as u128),
        "{cases:?}"
    );
}

const PHI_LL: &str = r#"
define i128 @ph(i1 %c) {
entry:
  br i1 %c, label %a, label %j
a:
  br i1 %c, label %j, label %j
j:
  %v = phi i128 [ -5, %entry ], [ 1267650600228229401496703205376, %a ], [ 1267650600228229401496703205376, %a ]
  ret i128 %v
}

define i32 @main() {
entry:
  %x = call i128 @ph(i1 true)
  %y = call i128 @ph(i1 false)
  %okx = icmp eq i128 %x, 1267650600228229401496703205376
  %oky = icmp eq i128 %y, -5
  %ok = and i1 %okx, %oky
  %r = select i1 %ok, i32 0, i32 1
  ret i32 %r
}
"#;

#[test]
fn phi_incoming_wide_constants_are_built_in_the_predecessor() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("phi.ll");
    std::fs::write(&ll, PHI_LL).unwrap();
    let out = dir.path().join("phi.out.bc");
    assert_eq!(split_wide_constants(&ll, &out).unwrap(), 0);
    assert_eq!(lli(&ll).0, 0);
    assert_eq!(lli(&out).0, 0);

    let p = load_program(&ll).unwrap();
    let ph = func(&p, "ph");
    let incoming = ph
        .insts
        .iter()
        .find_map(|i| match i {
            Inst::Phi { incoming, .. } => Some(incoming.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(incoming.len(), 3);
    // Both edges from `a` share one computed value.
    assert_eq!(incoming[1].1, incoming[2].1);
    assert!(matches!(incoming[1].1, Operand::Reg(_)));
    assert_eq!(eval(ph, &incoming[0].1), Some((-5i128) as u128));
    assert_eq!(eval(ph, &incoming[1].1), Some(ONE_100));
}

#[test]
fn wide_constants_in_constant_expressions_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("ce.ll");
    std::fs::write(
        &ll,
        r#"
@x = global i8 0
@big = global [2 x i128] [i128 1, i128 -1]
@small = global i128 7
define i128 @ce() {
  ret i128 add (i128 ptrtoint (i8* @x to i128), i128 1267650600228229401496703205376)
}
define i128 @fine(i128 %a) {
  %r = add i128 %a, 18446744073709551615
  ret i128 %r
}
"#,
    )
    .unwrap();
    let out = dir.path().join("ce.bc");
    // The constant expression's; @big's initializer becomes bytes, @small's fits.
    assert_eq!(split_wide_constants(&ll, &out).unwrap(), 1);
    let ir = llvm_dis(&out);
    assert!(ir.contains("add i128 %a, 18446744073709551615"), "{ir}");
    assert!(ir.contains("@small = global i128 7"), "{ir}");
    assert!(!ir.contains("i128 -1"), "{ir}");
    assert!(!ir.contains("freeze"), "{ir}");
}

/// Long doubles (x86_fp80, as a build without `-mlong-double-64` has them) and a wide
/// integer in global initializers: a struct with padding, an array, a nested mix.
const GLOBALS_SRC: &str = include_str!("programs/wide_consts/globals_src.c");

#[test]
fn globals_holding_long_doubles_become_byte_images() {
    let opts = CompileOptions {
        cflags: vec!["-mlong-double-80".into()],
        ..Default::default()
    };
    let (_dir, bc, out, before) = rewritten_runs_alike(GLOBALS_SRC, &opts);
    assert!(before.starts_with("1 7 -2\n0xap-2\n"), "{before}");
    let ir = llvm_dis(&out);
    for line in ir.lines().filter(|l| l.starts_with('@')) {
        assert!(!line.contains("0xK"), "{line}");
    }
    // The lowered initializer holds the bytes: 2.5L is 0x4000_A000000000000000.
    let p = load_program(&bc).unwrap();
    let table = p.globals.iter().find(|g| g.name == "table").unwrap();
    assert_eq!(table.size, 48);
    let Some(Const::Agg(elems)) = &table.init else {
        panic!("{:?}", table.init)
    };
    let Const::Agg(first) = &elems[0] else {
        panic!("{:?}", elems[0])
    };
    let bytes: Vec<u128> = first
        .iter()
        .map(|b| match b {
            Const::Int { width: 8, value } => *value,
            other => panic!("{other:?}"),
        })
        .collect();
    let mut want = vec![0, 0, 0, 0, 0, 0, 0, 0xa0, 0, 0x40];
    want.resize(16, 0);
    assert_eq!(bytes, want);
}

#[test]
fn invalid_input_is_an_error_not_an_exit() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.bc");
    std::fs::write(&bad, b"not bitcode").unwrap();
    let err = split_wide_constants(&bad, &dir.path().join("o.bc")).unwrap_err();
    let not_valid = format!("not valid LLVM {} IR", augur_ir::LLVM_VERSION);
    assert!(err.0.contains(&not_valid), "{}", err.0);
    let bad = dir.path().join("bad.ll");
    std::fs::write(&bad, "define i32 @f( {").unwrap();
    let err = split_wide_constants(&bad, &dir.path().join("o.bc")).unwrap_err();
    assert!(err.0.contains(&format!("bad.ll: {not_valid}")), "{}", err.0);
    let err =
        split_wide_constants(&dir.path().join("missing.bc"), &dir.path().join("o.bc")).unwrap_err();
    assert!(err.0.contains("missing.bc"), "{}", err.0);
}
