//! Lowering real clang output (the build's LLVM): layout, constants, locations.

use augur_ir::*;
use std::io::Write;

fn lower_c(src: &str) -> Program {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("p.c");
    std::fs::File::create(&c)
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    let bc = build_bitcode(&[c], &[], &CompileOptions::default(), dir.path()).unwrap();
    load_program(&bc).unwrap()
}

#[test]
fn struct_layout_and_global_relocations() {
    let p = lower_c(
        "struct S { char c; int x; long l; };\n\
         struct S s = { 1, 2, 3 };\n\
         int arr[4] = {1,2,3,4};\n\
         int *p = &arr[2];\n\
         int main(void) { return s.x + *p; }\n",
    );
    let s = &p.globals[p.global_by_name["s"].0 as usize];
    assert_eq!(s.size, 16);
    let ptr = &p.globals[p.global_by_name["p"].0 as usize];
    let arr = p.global_by_name["arr"];
    assert_eq!(
        ptr.init,
        Some(Const::Addr {
            base: AddrBase::Global(arr),
            offset: 8
        })
    );
    let main = p.func(p.func_named("main").unwrap());
    assert!(main.is_defined());
    // Every instruction of main has a location on a source line 5.
    let lines: Vec<u32> = main
        .locs
        .iter()
        .filter_map(|l| p.loc(*l))
        .map(|l| l.line)
        .collect();
    assert!(lines.contains(&5));
    assert!(p.files.iter().any(|f| f.ends_with("p.c")));
}

/// Constant GEPs in instruction operands, nested (clang 19 writes
/// `getelementptr inbounds (%struct.S, ptr getelementptr inbounds ([3 x %struct.S], ptr
/// @arr, i64 0, i64 2), i32 0, i32 1)`, with opaque pointers), and declared globals.
#[test]
fn constant_geps_in_operands_and_declared_globals() {
    let p = lower_c(
        "struct S { int x; int y; char name[6]; };\n\
         struct S arr[3];\n\
         extern long ext[10];\n\
         int main(void) { arr[2].y = 5; arr[1].name[4] = 'a'; return (int)ext[3]; }\n",
    );
    let arr = p.global_by_name["arr"];
    let ext = p.global_by_name["ext"];
    assert_eq!(p.globals[ext.0 as usize].size, 80);
    let main = p.func(p.func_named("main").unwrap());
    let at = |global, offset| {
        Operand::Const(Box::new(Const::Addr {
            base: AddrBase::Global(global),
            offset,
        }))
    };
    let addrs: Vec<&Operand> = main
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Store { addr, .. } | Inst::Load { addr, .. } => Some(addr),
            _ => None,
        })
        .collect();
    for want in [at(arr, 2 * 16 + 4), at(arr, 16 + 8 + 4), at(ext, 24)] {
        assert!(addrs.contains(&&want), "{want:?} not in {addrs:?}");
    }
}

#[test]
fn missing_file_and_compile_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let err = build_bitcode(
        &[dir.path().join("nope.c")],
        &[],
        &CompileOptions::default(),
        dir.path(),
    )
    .unwrap_err();
    assert!(err.0.contains("nope.c: no such file"), "{}", err.0);
    let c = dir.path().join("bad.c");
    std::fs::write(&c, "int main( { return 0; }\n").unwrap();
    let err = build_bitcode(&[c], &[], &CompileOptions::default(), dir.path()).unwrap_err();
    assert!(err.0.contains("bad.c: does not compile"), "{}", err.0);
    assert!(!err.0.contains('\n'));
}

#[test]
fn a_stack_slot_is_named_after_its_variable_where_llvm_renames_it() {
    // Two `p` and two `i` in one function: LLVM names the second slots `%p1`, `%i3`...
    let p = lower_c(
        "int f(int x, int n) {\n\
           int s = 0;\n\
           if (x) { const char *p = \"ab\"; for (int i = 0; i < n; i++) s += p[i & 1]; }\n\
           else { const char *p = \"cd\"; for (int i = 0; i < n; i++) s -= p[i & 1]; }\n\
           return s;\n\
         }\n",
    );
    let f = p
        .functions
        .iter()
        .find(|f| f.name == "f")
        .expect("f is lowered");
    let mut vars: Vec<&str> = f
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Alloca { var: Some(v), .. } => Some(&**v),
            _ => None,
        })
        .collect();
    vars.sort_unstable();
    assert_eq!(vars, ["i", "i", "n.addr", "p", "p", "s", "x.addr"]);
}
