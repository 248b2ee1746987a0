//! augur-repro: `augur record` and `augur repro` (SymCrash / SymCon, seeds/001). A static
//! analysis chooses the hard-to-resolve functions ([`hard`]); the native build logs their
//! results in the field; a crash report's stack plus that log direct a symbolic
//! re-execution in which hard calls return the logged values.

pub mod build;
pub mod hard;
pub mod log;
pub mod reexec;
pub mod report;
pub mod signature;
pub mod symcon;
pub mod taint;
pub mod verify;
