//! The output directory's contents: a test as JSON (written with its `.ktest` by
//! `file_sink.rs`), `summary.json` and `coverage.lcov` at the end of the run.

use crate::complete_file::write_file;
use crate::executor::Executor;
use crate::outcome::Outcome;
use crate::testcase::TestCase;
use serde_json::{json, Value as Json};
use std::path::Path;

/// Bytes as text: UTF-8 where valid, other bytes as `\xNN`.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The JSON form of an outcome.
pub fn outcome_json(o: &Outcome) -> Json {
    match o {
        Outcome::Exit(code) => json!({"kind": "exit", "code": code}),
        Outcome::Signal(sig) => json!({"kind": "signal", "signal": sig}),
        Outcome::Error(e) => json!({
            "kind": "error", "error": e.kind.name(), "file": e.file, "line": e.line,
            "message": e.message, "stack": e.stack,
        }),
        Outcome::Partial(reason) => json!({"kind": "partial", "reason": reason}),
        Outcome::Dropped => json!({"kind": "dropped"}),
    }
}

/// The JSON form of a test.
pub fn test_json(t: &TestCase) -> Json {
    let mut j = json!({
        "objects": t.objects.iter().map(|(n, b)| json!({"name": n, "bytes": b})).collect::<Vec<_>>(),
        "outcome": outcome_json(&t.outcome),
        "stdout": escape_bytes(&t.stdout),
        "stderr": escape_bytes(&t.stderr),
        "instructions": t.instructions,
    });
    if t.dropped.0 > 0 {
        j["stdout_dropped"] = json!(t.dropped.0);
    }
    if t.dropped.1 > 0 {
        j["stderr_dropped"] = json!(t.dropped.1);
    }
    if !t.havocked.is_empty() {
        j["havocked"] = json!(t.havocked);
    }
    if let Some(p) = &t.prefix {
        j["prefix_only"] = json!({"satisfied": p.satisfied, "constraints": p.constraints});
    }
    j
}

/// The run summary as JSON.
pub fn summary_json(ex: &Executor) -> Json {
    let s = &ex.stats;
    let solver = ex.solver.stats();
    let (covered, total) = ex.coverage.line_counts();
    json!({
        "paths_completed": s.paths_completed,
        "paths_partial": s.paths_partial,
        "partial_without_test": s.partial_without_test,
        "tests": s.tests,
        "tests_not_written": s.tests_not_written,
        "errors": s.errors,
        "instructions": s.instructions,
        "forks": s.forks,
        "concretizations": s.concretizations,
        "float_concretizations": s.float_concretizations,
        "time_s": s.time_s,
        "peak_memory_mib": crate::stats::peak_rss_mib(),
        "solver": {
            "layers": ex.solver.config().layers.to_string(),
            "queries": solver.queries,
            "solver_calls": solver.solver_calls,
            "cache_hits": solver.cache_hits,
            "fast_path": solver.fast_path,
            "order_unsat": solver.order_unsat,
            "exhaustive": solver.exhaustive,
            "timeouts": solver.timeouts,
            "abandoned": solver.abandoned,
            "sampled": solver.sampled,
            "wrong_models": solver.wrong_models,
            "cross_checks": solver.cross_checks,
            "cross_check_mismatches": solver.cross_check_mismatches,
            "time_s": solver.time_s,
        },
        "coverage": {"lines_covered": covered, "lines_total": total},
    })
}

/// Write `summary.json` and `coverage.lcov` into `dir`.
pub fn write_summary(ex: &Executor, dir: &Path) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(&summary_json(ex)).expect("summary serialises");
    write_file(&dir.join("summary.json"), &json)?;
    let lcov = lcov_text(&ex.coverage.lines_by_file(&ex.program));
    write_file(&dir.join("coverage.lcov"), lcov.as_bytes())
}

/// Line coverage in lcov's format: per file, each line with code and whether it ran.
pub fn lcov_text(by_file: &[(String, Vec<(u32, bool)>)]) -> String {
    let mut lcov = String::new();
    for (file, lines) in by_file {
        lcov.push_str(&format!("TN:\nSF:{file}\n"));
        for (l, hit) in lines {
            lcov.push_str(&format!("DA:{l},{}\n", *hit as u8));
        }
        let hit = lines.iter().filter(|l| l.1).count();
        lcov.push_str(&format!("LH:{hit}\nLF:{}\nend_of_record\n", lines.len()));
    }
    lcov
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_bytes_are_escaped() {
        assert_eq!(escape_bytes(b"hi\n"), "hi\n");
        assert_eq!(escape_bytes(&[0x41, 0xff, 0x42]), "A\\xffB");
    }
}
