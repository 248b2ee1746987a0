//! The end of a run: its summary read back and the KLEE-style closing lines.

use serde_json::Value as Json;
use std::path::Path;

/// A JSON file.
pub fn read_json(path: &Path) -> Result<Json, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// KLEE-style closing lines on stderr, from a run's summary.json.
pub fn print_done(s: &Json, out: &Path) {
    eprintln!("augur: output directory is {}", out.display());
    eprintln!("augur: done: total instructions = {}", s["instructions"]);
    eprintln!(
        "augur: done: completed paths = {}, partial paths = {}",
        s["paths_completed"], s["paths_partial"]
    );
    eprintln!("augur: done: generated tests = {}", s["tests"]);
    if s["tests_not_written"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: paths without a test (no new coverage) = {}",
            s["tests_not_written"]
        );
    }
    eprintln!(
        "augur: done: lines covered = {}/{}",
        s["coverage"]["lines_covered"], s["coverage"]["lines_total"]
    );
    eprintln!(
        "augur: done: solver queries = {}, solver calls = {}, cache hits = {}, solver time = {:.2}s",
        s["solver"]["queries"], s["solver"]["solver_calls"], s["solver"]["cache_hits"],
        s["solver"]["time_s"].as_f64().unwrap_or(0.0)
    );
    let (timeouts, sampled) = (&s["solver"]["timeouts"], &s["solver"]["sampled"]);
    if timeouts.as_u64().unwrap_or(0) + sampled.as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: solver timeouts = {timeouts} (paths ended or branch sides left \
             unexplored), models found by sampling = {sampled}"
        );
    }
    if s["solver"]["abandoned"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: Z3 checks abandoned past their time limit = {} (counted as \
             timeouts; Z3 heard neither its timeout nor interrupts)",
            s["solver"]["abandoned"]
        );
    }
    if s["solver"]["wrong_models"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: wrong models from Z3 = {} (each re-solved by a fresh solver)",
            s["solver"]["wrong_models"]
        );
    }
    if s["solver"]["cross_checks"].as_u64().unwrap_or(0) > 0 {
        eprintln!(
            "augur: done: solver cross-checks = {}, mismatches = {}",
            s["solver"]["cross_checks"], s["solver"]["cross_check_mismatches"]
        );
    }
    for e in s["errors"].as_array().into_iter().flatten() {
        eprintln!(
            "augur: error: {} at {}:{}: {} (test{:06})",
            e["kind"].as_str().unwrap_or_default(),
            e["file"].as_str().unwrap_or_default(),
            e["line"],
            e["message"].as_str().unwrap_or_default(),
            e["test"].as_u64().unwrap_or(0)
        );
    }
    eprintln!(
        "augur: done: time = {:.2}s",
        s["time_s"].as_f64().unwrap_or(0.0)
    );
}
