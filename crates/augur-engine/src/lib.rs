//! augur-engine: the symbolic executor. Execution states with copy-on-write memory, an
//! interpreter over augur-ir programs, forking at feasible branches, searchers, error
//! detection, limits, observer hooks for drivers, and finished paths as test cases.

pub mod bytes;
pub mod executor;
pub mod handlers;
pub mod hooks;
pub mod ktest;
pub mod memory;
pub mod options;
pub mod outcome;
pub mod output;
pub mod rng;
pub mod searcher;
pub mod state;
pub mod stats;
pub mod testcase;
pub mod testcomp;
pub mod value;
pub mod wide;

pub use executor::{Exec, Executor, Flow};
pub use handlers::{Call, Handler, HandlerTable};
pub use hooks::Observer;
pub use options::{ExternalPolicy, Options, SearchKind};
pub use outcome::{ErrorKind, Outcome, PathError, StackFrame};
pub use state::{NamedOutput, OutputKind, SeedInput, State};
pub use testcase::{MemorySink, TestCase, TestSink};
pub use value::Value;
