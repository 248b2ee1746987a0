//! augur-ir: compile C to LLVM 14 (or, built so, 19) bitcode and lower it into augur's compact program
//! representation (dense ids, resolved operands, precomputed layout, source locations),
//! and the static analyses drivers build on (CFG, post-dominators, control dependence, dominators, natural loops).
//! The modules are private; what other crates use is re-exported here.

// The llvm-sys of the version chosen, under one name (with both features or neither,
// llvm-ir's build script stops the build: "Multiple LLVM versions selected", "Please
// select an LLVM version").
#[cfg(not(feature = "llvm19"))]
extern crate llvm_sys_140 as llvm_sys;
#[cfg(feature = "llvm19")]
extern crate llvm_sys_191 as llvm_sys;

mod cfg;
mod compile;
mod layout;
pub mod llvm;
mod lower;
mod map_ids;
mod program;
mod wide_consts;

pub use cfg::{
    block_containing, natural_loops, predecessors, successors, ControlDeps, Dominators, Loop,
    PostDominators,
};
pub use compile::{
    build_bitcode, compile_c, link_models, read_module, CompileOptions, IrError, ANALYSIS_CFLAGS,
};
pub use layout::Layout;
pub use llvm::LLVM_VERSION;
pub use lower::lower_module;
pub use map_ids::IdMap;
pub use program::*;
pub use wide_consts::{rewrite_file, split_wide_constants, uses_x87_long_double, WideStats};

/// Read and lower a bitcode (`.bc`) or textual (`.ll`) file.
///
/// Integer constants wider than 64 bits, which `llvm-ir` would truncate, and `long double`
/// (x86_fp80) constants, whose value it drops, are first rebuilt from 64-bit words by
/// [`rewrite_file`], which also replaces the inline assembly real C code uses (`cpuid`,
/// identity moves, barriers, `bswap`, `rdtsc`) by IR; the rewritten module is written next
/// to the input as `<stem>.wide.bc` (only when there was something to rewrite) and read
/// from there. Any other inline assembly is lowered with why it cannot run.
pub fn load_program(path: &std::path::Path) -> Result<Program, IrError> {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let wide = path.with_file_name(format!("{stem}.wide.bc"));
    let (stats, facts) = wide_consts::rewrite(path, &wide, false)?;
    if stats.unrewritten > 0 {
        tracing::warn!(
            "{}: {} integer constant(s) wider than 64 bits or long double constant(s) in \
             constant expressions or constant aggregates cannot be read exactly (wide \
             integers are truncated to 64 bits)",
            path.display(),
            stats.unrewritten
        );
    }
    if stats.geps_left > 0 {
        tracing::warn!(
            "{}: {} constant getelementptr expression(s) with an index that is not an \
             integer constant are read as byte offsets",
            path.display(),
            stats.geps_left
        );
    }
    let source = if stats.changed() {
        wide.as_path()
    } else {
        path
    };
    let module = read_module(source)?;
    lower::lower_module_with(&module, &facts)
        .map_err(|e| IrError(format!("{}: {e}", path.display())))
}
