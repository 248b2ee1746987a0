//! augur-env: the program's world. The runtime headers (`augur.h`, `klee/klee.h`) and the
//! table of special functions: augur's, KLEE's and SV-COMP's intrinsics, allocation and
//! process control, each family in its own module.

pub mod alloc;
pub mod entry;
pub mod intrinsics;
pub mod jumps;
pub mod meta;
pub mod posix;
pub mod process;
pub mod replay;
pub mod runtime;
pub mod svcomp;

use augur_engine::HandlerTable;

/// Every special function augur models, by name.
pub fn handlers() -> HandlerTable {
    let mut t = HandlerTable::default();
    intrinsics::register(&mut t);
    alloc::register(&mut t);
    process::register(&mut t);
    svcomp::register(&mut t);
    posix::register(&mut t);
    jumps::register(&mut t);
    meta::register(&mut t);
    t
}
