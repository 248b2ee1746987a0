//! augur-env: the program's world. The runtime headers (`augur.h`, `klee/klee.h`) and the
//! table of special functions: augur's, KLEE's and SV-COMP's intrinsics, allocation and
//! process control, each family in its own module; the entry call with symbolic argv,
//! stdin and files; native replay. The modules are private; what drivers use is
//! re-exported here.

mod alloc;
mod entry;
mod failures;
mod intrinsics;
mod jumps;
mod meta;
mod modes;
mod names;
mod namespace;
mod os_state;
mod paths;
mod pipes;
mod posix;
mod process;
mod program;
pub mod project;
mod replay;
mod runtime;
mod runtime_objects;
mod svcomp;
mod symlinks;

pub use entry::{start, EnvSpec};
pub use failures::{KINDS as FAILURE_KINDS, OBJECT_PREFIX as FAILURE_PREFIX};
pub use intrinsics::{fresh_bytes, fresh_scalar};
pub use namespace::WORK_DIR;
pub use os_state::{env, Contents, Descriptor, EnvData, JumpTarget, Pipe};
pub use program::{build_program, compile_options, entry_function, load_program, program_name};
pub use replay::environment::{environment, is_arg_name, is_count_name, Environment};
pub use replay::judge::{describe, judge, sanitizer_report, Expect, Verdict};
pub use replay::native::{
    run as run_native, run_clang, NativeRun, RunSpec, Status, NATIVE_CFLAGS, NATIVE_LINK_FLAGS,
};
pub use replay::parallel::map_in_order;
pub use replay::{
    collect_tests, load_test, native_ir, replay, split_inputs, NativeIr, NativeProgram,
    ReplayOptions, ReplaySummary, TestInput,
};
pub use runtime::{libc_bitcode, library_bitcode, musl_dir, runtime_dir};
pub use runtime_objects::runtime_object;

use augur_engine::HandlerTable;

/// Every special function augur models, by name.
pub fn handlers() -> HandlerTable {
    let mut t = HandlerTable::default();
    intrinsics::register(&mut t);
    alloc::register(&mut t);
    process::register(&mut t);
    svcomp::register(&mut t);
    posix::register(&mut t);
    failures::register(&mut t);
    names::register(&mut t);
    paths::register(&mut t);
    modes::register(&mut t);
    jumps::register(&mut t);
    meta::register(&mut t);
    t
}
