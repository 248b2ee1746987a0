//! The program under analysis as every command builds it: the user's C (or bitcode)
//! inputs compiled with augur's runtime headers first, linked with the libc models
//! over musl (`runtime.rs`; the x87 copy when the program uses x87 long doubles: only
//! what the program needs, and the program's own definitions win), and lowered.

use augur_ir::{CompileOptions, FuncId, Program};
use std::path::{Path, PathBuf};

/// How C inputs are compiled for analysis (augur's runtime headers first).
pub fn compile_options(cflags: Vec<String>) -> Result<CompileOptions, String> {
    let runtime =
        crate::runtime_dir().map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
    Ok(CompileOptions {
        cflags,
        include_dirs: vec![runtime],
    })
}

/// Compile and link `inputs` with augur's libc models and musl into bitcode in `work`.
pub fn build_program(
    inputs: &[PathBuf],
    cflags: Vec<String>,
    work: &Path,
) -> Result<PathBuf, String> {
    let compile = compile_options(cflags)?;
    let user = augur_ir::build_bitcode(inputs, &[], &compile, work).map_err(|e| e.to_string())?;
    let x87 = augur_ir::uses_x87_long_double(&user).map_err(|e| e.to_string())?;
    let library = crate::library_bitcode(&compile.include_dirs[0], x87)?;
    augur_ir::link_models(&user, &[library], inputs, work).map_err(|e| e.to_string())
}

/// Compile and link `inputs` with augur's libc models (in `work`) and lower the result.
pub fn load_program(
    inputs: &[PathBuf],
    cflags: Vec<String>,
    work: &Path,
) -> Result<Program, String> {
    let bc = build_program(inputs, cflags, work)?;
    augur_ir::load_program(&bc).map_err(|e| e.to_string())
}

/// The program's name as argv[0]: the stem of its first input.
pub fn program_name(input: &Path) -> String {
    input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The defined function `name` of `program` (`what` names the program in the error).
pub fn entry_function(program: &Program, name: &str, what: &Path) -> Result<FuncId, String> {
    program
        .func_named(name)
        .filter(|f| program.func(*f).is_defined())
        .ok_or_else(|| format!("{}: no function `{name}` to start from", what.display()))
}
