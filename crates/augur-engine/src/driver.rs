//! The shape every driver (diff, explain, inject, repro) has: one entry,
//! `driver(&Config, &dyn Progress) -> Result<Outcome, String>`, and `Outcome::write(dir)`
//! for the files that record the result (files found during the run, such as tests, are
//! written as they are found). The command line parses options into the driver's
//! `Config`, calls it, writes the outcome and prints; a driver tells what it is doing
//! through [`Progress`].

use crate::executor::Executor;

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
