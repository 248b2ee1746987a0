//! The shape every driver (diff, explain, inject, repro) has: one entry,
//! `driver(&Config, &dyn Progress) -> Result<Outcome, String>`, and `Outcome::write(dir)`
//! for the files that record the result (files found during the run, such as tests, are
//! written as they are found). The command line parses options into the driver's
//! `Config`, calls it, writes the outcome and prints; a driver tells what it is doing
//! through [`Progress`].

use crate::executor::Executor;
use crate::options::Options;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// What a driver tells about its work while it runs. Both methods default to nothing.
pub trait Progress {
    /// A line about the current phase (e.g. "pairing halted paths 3/10").
    fn message(&self, _msg: &str) {}

    /// Called as an executor explores, for a live display of its counters.
    fn exploring(&self, _ex: &Executor) {}
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {}

/// What the `Config` of every driver that builds its program holds (as `common`): how to
/// build and start the program, the engine's options, where the results go.
pub struct DriverCommon {
    /// Extra clang flags.
    pub cflags: Vec<String>,
    /// The function runs start from.
    pub entry: String,
    /// The engine's options.
    pub opts: Options,
    /// The output directory asked for (None: a new `augur-out-N`), created once the
    /// driver's inputs are checked.
    pub output_dir: Option<PathBuf>,
    /// A scratch directory (compiled programs, builds).
    pub work: PathBuf,
    /// Set (by Ctrl-C) to stop, keeping what was found.
    pub interrupt: Arc<AtomicBool>,
}
