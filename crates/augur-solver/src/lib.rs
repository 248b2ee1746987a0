//! The augur solver chain, KLEE style: every optimisation is one [`Solver`] layer in front
//! of the next, assembled in one place ([`SolverChain`]):
//! fast path -> constraint independence -> query cache -> order reasoning ->
//! counterexample cache -> Z3.
//! A [`SolverConfig`] switches layers off, logs the queries reaching Z3 as SMT-LIB2 files
//! and adds a cross-check of every answer against a fresh Z3 solver.

mod cex_cache;
mod chain;
#[cfg(test)]
mod chain_tests;
mod config;
mod cross_check;
mod error;
mod exhaustive;
mod fast_path;
mod independence;
mod model_search;
mod order;
mod query_cache;
mod query_log;
mod race;
mod solver;
mod stats;
#[cfg(test)]
mod test_util;
mod watchdog;
mod z3_backend;
mod z3_core;
mod z3_float;
mod z3_solver;
mod z3_translate;
mod z3_worker;

pub use chain::SolverChain;
pub use config::{Layer, Layers, SolverConfig};
pub use error::SolverError;
pub use solver::{SatResult, Solver};
pub use stats::SolverStats;

/// The version of the Z3 library this process solves with (`5.4.1.0`): the one linked,
/// as the library itself reports it.
pub fn z3_version() -> &'static str {
    z3::full_version()
}
