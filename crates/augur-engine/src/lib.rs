//! augur-engine: the symbolic executor. Execution states with copy-on-write memory, an
//! interpreter over augur-ir programs, forking at feasible branches, searchers, error
//! detection, limits, observer hooks and extensions for drivers, and finished paths as
//! test cases.
//!
//! The modules are private: what drivers use is re-exported here. A driver creates an
//! [`Executor`] with a [`HandlerTable`] of special functions and a [`TestSink`], watches it
//! through [`Observer`]s, acts on it through an [`Extension`] (intercepting calls, keeping
//! per-path data in [`State::ext`]), forks with [`Executor::fork`] / [`Executor::split`],
//! and reads results through [`TestCase`], [`RunStats`] and the output helpers.

mod bytes;
mod complete_file;
mod cow;
mod directed;
mod driver;
mod executor;
mod extension;
mod file_sink;
mod forkpath;
mod handlers;
mod hooks;
mod ktest;
mod memory;
mod object_bytes;
mod options;
mod outcome;
mod output;
mod output_dir;
mod output_stream;
mod registers;
mod searcher;
mod state;
mod stats;
mod testcase;
mod testcomp;
mod value;
mod wide;

pub use augur_expr::Rng;
pub use bytes::{
    byte_expr, bytes_to_scalar, bytes_to_value, scalar_to_bytes, scalar_width, signed_le,
    value_to_bytes, zero_value,
};
pub use complete_file::write_file;
pub use directed::{same_file, Goal, SearchPenalty};
pub use driver::{DriverCommon, Progress, Quiet};
pub use executor::{Exec, Executor, Flow, Forked, Offset, Resolved, Split};
pub use extension::{Extension, Extensions, Intercepted};
pub use file_sink::{FileSink, TestsOnDisk};
pub use forkpath::{ForkPath, Trail};
pub use handlers::{Call, Handler, HandlerTable, Param, Signature};
pub use hooks::Observer;
pub use ktest::KTest;
pub use memory::{Byte, MemObject, Memory, ObjKind, MAX_OBJECT_SIZE};
pub use options::{ExternalPolicy, Options, SearchKind, TestPolicy};
pub use outcome::{ErrorKind, Outcome, PathError, StackFrame};
pub use output::{escape_bytes, lcov_text, summary_json, write_summary};
pub use output_dir::prepare_output_dir;
pub use output_stream::{OutputStream, MAX_KEPT_OUTPUT};
pub use registers::Registers;
pub use state::{Frame, SeedInput, State, StateId, Symbolic};
pub use stats::{is_user_file, peak_rss_mib, Coverage, ErrorSummary, RunStats};
pub use testcase::{MemorySink, PrefixOnly, TestCase, TestSink};
pub use testcomp::{metadata_xml, TestCompSink};
pub use value::Value;
