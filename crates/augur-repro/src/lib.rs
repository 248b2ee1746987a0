//! augur-repro: `augur record` and `augur repro` (SymCrash / SymCon, seeds/001). A static
//! analysis chooses the hard-to-resolve functions ([`hard`]); the native build logs their
//! results in the field; a crash report's stack plus that log direct a symbolic
//! re-execution in which hard calls return the logged values. The modules are private;
//! what the command line uses is re-exported here.

mod arith;
mod build;
mod deadline;
mod driver;
mod hard;
mod log;
mod loop_calls;
mod prototype;
mod reads_input;
mod reexec;
mod report;
mod signature;
mod symcon;
mod taint;
mod unrecorded;
mod verify;

pub use build::{build as build_recorder, build_id, BuildSpec};
pub use driver::{driver, Config, Outcome};
pub use hard::{
    analyse as analyse_hard_functions, listing as hard_listing, Models, Verdict, NOTHING_HARD,
};
pub use log::{hex, Log};
pub use reexec::{
    command_line, goals, run as reexecute, CandidateSink, Findings, Found, GoalObserver,
};
pub use report::{match_frames, parse as parse_report, Matched, Report};
pub use symcon::SymCon;
pub use verify::Native;
