//! What every phase needs to run the program under analysis.

use crate::project::Built;
use augur_engine::Options;
use augur_ir::{FuncId, Program};
use std::path::PathBuf;
use std::sync::Arc;

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
    /// The built project, when the program is a source tree with its build (`sources`
    /// are then its C files in the `augur cc` copy).
    pub project: Option<Arc<Built>>,
}

impl Setup {
    /// The name of each source in reports: its path in the project's tree, else its file
    /// name.
    pub fn source_names(&self) -> Vec<String> {
        self.sources
            .iter()
            .map(|p| match &self.project {
                Some(b) => b.relative(p).display().to_string(),
                None => crate::embed::file_name(p),
            })
            .collect()
    }
}
