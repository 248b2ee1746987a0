//! Lowering real clang-14 output: layout, constants, locations.

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
