//! Which programs use x87 `long double`s (`x86_fp80`), which decides the C library they
//! are linked with: a use anywhere counts, a name that only looks like the type does not.

use augur_ir::uses_x87_long_double;

/// `src` compiled by clang at -O0 with the target's own `long double` (x87), or with
/// augur's `-mlong-double-64` when `double_64`, then asked whether it uses `x86_fp80`.
fn uses_x87(src: &str, double_64: bool) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("prog.c");
    let bc = dir.path().join("prog.bc");
    std::fs::write(&c, src).unwrap();
    let mut cmd = augur_ir::llvm::clang_command();
    cmd.args(["-c", "-emit-llvm", "-O0", "-g"]);
    if double_64 {
        cmd.arg("-mlong-double-64");
    }
    let out = cmd.arg(&c).arg("-o").arg(&bc).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    uses_x87_long_double(&bc).unwrap()
}

#[test]
fn any_use_of_a_long_double_counts() {
    let programs = [
        // a local, its arithmetic and a call of a variadic function with it
        "#include <stdio.h>\nint main(int c, char **v) { long double x = c; \
         printf(\"%Lf\\n\", x * 3); return 0; }\n",
        // a field of a global structure, never read as such
        "struct s { int n; long double x; } g;\nint main(void) { return g.n; }\n",
        // the parameter of a function only declared, behind a pointer
        "long double f(long double);\nlong double (*p)(long double) = f;\n\
         int main(void) { return p != 0; }\n",
        // a constant in a global initializer
        "long double table[2] = {1.5L, 2.5L};\nint main(void) { return 0; }\n",
    ];
    for src in programs {
        assert!(uses_x87(src, false), "{src}");
        assert!(!uses_x87(src, true), "as double: {src}");
    }
}

#[test]
fn names_and_doubles_alone_do_not_count() {
    let src = "int x86_fp80_max = 3;\nstruct x86_fp80 { double d; } y;\n\
               int main(void) { double d = x86_fp80_max; return (int)(d + y.d); }\n";
    assert!(!uses_x87(src, false));
}
