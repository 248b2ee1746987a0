//! Tests are written by a thread of their own while the search goes on: whether the run
//! ends, hits --max-time or is interrupted, every test it counts is on disk, complete,
//! numbered without gaps, its .ktest agreeing byte for byte with its JSON.

mod common;
use augur_engine::KTest;
use common::*;
use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// 2^10 paths, each exiting with its own code (which bytes are over 100, as bits): more
/// tests than the writer's queue holds.
const PATHS10: &str = include_str!("programs/tests_on_disk/paths10.c");

/// Check the output directory `out` of a finished run: exactly the summary's number of
/// tests, test000001 to testN as .json and .ktest, no temporary file, each .ktest the
/// KLEE form of its JSON's objects with argv `prog`. Returns the tests.
fn assert_every_test_on_disk(out: &Path) -> Vec<Json> {
    let summary: Json =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let n = summary["tests"].as_u64().unwrap() as usize;
    let mut names: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = (1..=n)
        .flat_map(|i| [format!("test{i:06}.json"), format!("test{i:06}.ktest")])
        .collect();
    want.extend(["coverage.lcov".into(), "summary.json".into()]);
    want.sort();
    assert_eq!(names, want, "the files of {n} tests, nothing else");
    let tests = read_tests(out);
    for (i, t) in tests.iter().enumerate() {
        let ktest = std::fs::read(out.join(format!("test{:06}.ktest", i + 1))).unwrap();
        let objects = object_names(t)
            .into_iter()
            .map(|name| (name.to_string(), object_bytes(t, name)))
            .collect();
        let from_json = KTest {
            args: vec!["prog".into()],
            objects,
            ..KTest::default()
        };
        assert_eq!(ktest, from_json.to_bytes(), "test{:06}.ktest", i + 1);
    }
    tests
}

#[test]
fn a_finished_run_writes_every_test_and_each_replays() {
    let r = run_c(PATHS10, &["--search", "dfs", "--all-tests"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let tests = assert_every_test_on_disk(&r.out);
    assert_eq!(tests.len(), 1024);
    let mut codes = r.exit_codes();
    codes.sort();
    assert_eq!(codes, (0..1024).collect::<Vec<i64>>(), "one test per path");
    r.assert_native_replay_passes();
}

#[test]
fn a_run_into_a_used_directory_replaces_its_tests() {
    let r = run_c(PATHS10, &["--search", "dfs", "--all-tests", "--seed", "1"]);
    let again = augur()
        .arg("run")
        .arg(&r.source)
        .args(["--search", "bfs", "--all-tests", "-o"])
        .arg(&r.out)
        .output()
        .unwrap();
    assert!(again.status.success());
    let tests = assert_every_test_on_disk(&r.out);
    assert_eq!(tests.len(), 1024);
    assert_ne!(
        tests[1]["objects"], r.tests[1]["objects"],
        "breadth-first numbers the paths differently: test000002 was rewritten"
    );
}

#[test]
fn max_time_writes_out_every_test_found() {
    let r = run_c(
        ENDLESS,
        &["--search", "dfs", "--all-tests", "--max-time", "2"],
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    let tests = assert_every_test_on_disk(&r.out);
    assert!(tests.len() > 1, "{}", r.stderr);
    assert!(tests.iter().any(|t| t["outcome"]["kind"] == "partial"));
}

#[test]
fn an_interrupted_run_writes_out_every_test_found() {
    // More tests than the writer's queue holds before the interrupt.
    let mut run = spawn_endless(
        &["--search", "dfs", "--all-tests"],
        600,
        Duration::from_secs(120),
    );
    let pid = run.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    assert!(run.child.wait().unwrap().success());
    let tests = assert_every_test_on_disk(&run.out);
    assert!(tests.len() >= 600, "{} tests", tests.len());
}
