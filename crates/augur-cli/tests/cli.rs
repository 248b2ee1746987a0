//! Bad input gives one clear error line and exit code 2; output files are complete.

mod common;
use common::*;

fn fails_with(args: &[&str], needle: &str) {
    let o = augur().args(args).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_inputs_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.c");
    std::fs::write(&bad, "int main( { return 0; }\n").unwrap();
    let good = dir.path().join("good.c");
    std::fs::write(&good, "int main(void) { return 0; }\n").unwrap();
    let out = dir.path().join("o");
    let o = out.to_str().unwrap();
    fails_with(&["run", "/nonexistent/x.c", "-o", o], "x.c: no such file");
    fails_with(
        &["run", bad.to_str().unwrap(), "-o", o],
        "bad.c: does not compile",
    );
    fails_with(
        &["run", good.to_str().unwrap(), "-o", o, "--entry", "nope"],
        "no function `nope`",
    );
    fails_with(
        &["run", good.to_str().unwrap(), "-o", o, "--max-time", "soon"],
        "--max-time",
    );
    fails_with(
        &[
            "run",
            good.to_str().unwrap(),
            "-o",
            o,
            "--search",
            "sideways",
        ],
        "unknown searcher",
    );
    fails_with(
        &[
            "run",
            good.to_str().unwrap(),
            "-o",
            o,
            "--seed-test",
            "/nonexistent.json",
        ],
        "nonexistent.json",
    );
}

#[test]
fn outputs_summary_ktest_and_lcov() {
    let src = "#include <augur.h>\nint main(void) { int x; augur_make_symbolic(&x, 4, \"x\");\n if (x) return 1;\n return 0; }\n";
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    for key in [
        "paths_completed",
        "paths_partial",
        "tests",
        "errors",
        "instructions",
        "time_s",
        "peak_memory_mib",
    ] {
        assert!(!r.summary[key].is_null(), "summary has {key}");
    }
    for key in ["queries", "solver_calls", "cache_hits", "time_s"] {
        assert!(
            !r.summary["solver"][key].is_null(),
            "solver stats have {key}"
        );
    }
    assert_eq!(r.summary["coverage"]["lines_total"], 3);
    assert_eq!(r.summary["coverage"]["lines_covered"], 3);
    let kt = std::fs::read(r.out.join("test000001.ktest")).unwrap();
    assert!(kt.starts_with(b"KTEST\0\0\0\x03"));
    let lcov = std::fs::read_to_string(r.out.join("coverage.lcov")).unwrap();
    assert!(lcov.contains("prog.c") && lcov.contains("LF:3"));
    assert!(r.stderr.contains("augur: done: generated tests = 2"));
}

#[test]
fn max_time_keeps_what_was_found() {
    let src = ENDLESS;
    // Depth-first keeps the frontier small (one state per open branch), so every stopped
    // path is written out within the budget.
    let r = run_c(src, &["--max-time", "2", "--search", "dfs"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let done = r.summary["paths_completed"].as_u64().unwrap();
    let partial = r.summary["paths_partial"].as_u64().unwrap();
    assert!(partial > 0, "the limit stopped some paths");
    let untested = r.summary["partial_without_test"].as_u64().unwrap();
    let not_written = r.summary["tests_not_written"].as_u64().unwrap();
    assert_eq!(
        r.tests.len() as u64,
        done + partial - untested - not_written,
        "every path written out got a test, but those the test policy left out"
    );
    assert!(
        r.tests.len() as u64 > untested,
        "most stopped paths got a test"
    );
    assert!(r.summary["time_s"].as_f64().unwrap() < 10.0);
}

#[test]
fn ktest_seed_from_klee_format() {
    let src = "#include <augur.h>\nint main(void) { int x; augur_make_symbolic(&x, 4, \"x\");\n if (x == 77) return 1;\n return 0; }\n";
    let dir = tempfile::tempdir().unwrap();
    let kt = dir.path().join("seed.ktest");
    let mut bytes = b"KTEST\0\0\0\x03\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01".to_vec();
    bytes.extend(b"\0\0\0\x01x\0\0\0\x04");
    bytes.extend(77i32.to_le_bytes());
    std::fs::write(&kt, bytes).unwrap();
    let r = run_c(src, &["--seed-test", kt.to_str().unwrap()]);
    assert_eq!(r.tests.len(), 1, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![1]);
}

#[test]
fn memory_pressure_stops_states_not_the_run() {
    let src = ENDLESS;
    // Breadth-first keeps every state alive; the process alone is above this limit.
    let r = run_c(
        src,
        &["--search", "bfs", "--max-memory", "1", "--max-time", "2"],
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stderr.contains("over the limit"), "{}", r.stderr);
    assert!(r
        .tests
        .iter()
        .any(|t| t["outcome"]["reason"] == "max-memory reached"));
    // Over the limit no path forks: the 2^40 paths are not explored.
    let paths = r.summary["paths_completed"].as_u64().unwrap()
        + r.summary["paths_partial"].as_u64().unwrap();
    assert!(paths < 10, "{paths} paths");
}

#[test]
fn a_killed_run_keeps_every_test_already_written() {
    // Once some tests exist, kill without warning.
    let mut run = spawn_endless(&["--search", "dfs"], 5, std::time::Duration::from_secs(60));
    run.child.kill().unwrap();
    run.child.wait().unwrap();
    let tests = read_tests(&run.out);
    assert!(tests.len() >= 5, "tests written before the kill are there");
    for t in &tests {
        assert_eq!(
            t["outcome"]["kind"], "exit",
            "every file is a complete test"
        );
    }
}
