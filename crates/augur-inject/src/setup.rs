//! What every phase needs to run the program under analysis.

use augur_engine::Options;
use augur_ir::{FuncId, Program};
use std::path::PathBuf;

/// The program and how to start it (as `augur run` would).
#[derive(Clone)]
pub struct Setup {
    /// The lowered program (the user's sources linked with augur's libc models).
    pub program: Program,
    /// The function to start from.
    pub entry: FuncId,
    /// The symbolic environment.
    pub spec: augur_env::EnvSpec,
    /// argv[0] and the concrete arguments.
    pub argv: Vec<String>,
    /// Engine options (limits, searchers, seed).
    pub opts: Options,
    /// The user's C sources.
    pub sources: Vec<PathBuf>,
    /// Extra clang flags.
    pub cflags: Vec<String>,
}
