//! augur-ir: compile C to LLVM 14 bitcode and lower it into augur's compact program
//! representation (dense ids, resolved operands, precomputed layout, source locations).

pub mod compile;
pub mod layout;
pub mod lower;
pub mod program;

pub use compile::{
    build_bitcode, compile_c, read_module, CompileOptions, IrError, ANALYSIS_CFLAGS,
};
pub use lower::lower_module;
pub use program::*;

/// Read and lower a bitcode (`.bc`) or textual (`.ll`) file.
pub fn load_program(path: &std::path::Path) -> Result<Program, IrError> {
    let module = read_module(path)?;
    lower_module(&module).map_err(|e| IrError(format!("{}: {e}", path.display())))
}
