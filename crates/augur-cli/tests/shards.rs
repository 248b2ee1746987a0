//! Shards: `--jobs N`, `--split` + `--shard` + `augur merge`, a killed shard, the Ray
//! driver; each against one process's exploration of the same program.

mod common;
use common::*;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// 128 paths from branches and a switch: exit codes, and one null dereference.
const PROGRAM: &str = include_str!("programs/shards/program.c");

/// A directory holding prog.c (PROGRAM unless given), where augur runs.
struct Here(tempfile::TempDir);

impl Here {
    fn new(src: &str) -> Here {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("prog.c"), src).unwrap();
        Here(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// `augur ARGS` in this directory: (exit status, stderr).
    fn augur(&self, args: &[&str]) -> (i32, String) {
        let o = augur()
            .current_dir(self.0.path())
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// `augur ARGS`, which must succeed.
    fn ok(&self, args: &[&str]) {
        let (status, stderr) = self.augur(args);
        assert_eq!(status, 0, "augur {args:?}: {stderr}");
    }

    fn summary(&self, out: &str) -> Json {
        serde_json::from_slice(&std::fs::read(self.path(out).join("summary.json")).unwrap())
            .unwrap()
    }

    fn lcov(&self, out: &str) -> String {
        std::fs::read_to_string(self.path(out).join("coverage.lcov")).unwrap()
    }

    /// Every path's outcome, as sorted text (the multiset a run's tests stand for).
    fn outcomes(&self, out: &str) -> Vec<String> {
        outcomes_of(&read_tests(&self.path(out)))
    }

    /// The shard files of a split, in order.
    fn shards(&self, dir: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.path(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    }
}

fn outcomes_of(tests: &[Json]) -> Vec<String> {
    let mut v: Vec<String> = tests
        .iter()
        .map(|t| {
            let o = &t["outcome"];
            match o["kind"].as_str().unwrap() {
                "exit" => format!("exit {}", o["code"]),
                "error" => format!("error {} at line {}", o["error"], o["line"]),
                other => other.to_string(),
            }
        })
        .collect();
    v.sort();
    v
}

/// The distinct errors of a summary: (kind, line).
fn errors(summary: &Json) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = summary["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().into(),
                e["line"].as_u64().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// What must agree between a sharded and a single exploration.
fn assert_same_exploration(h: &Here, single: &str, sharded: &str) {
    assert_eq!(h.outcomes(sharded), h.outcomes(single));
    let (a, b) = (h.summary(single), h.summary(sharded));
    for k in ["paths_completed", "paths_partial", "tests", "forks"] {
        assert_eq!(b[k], a[k], "{k}");
    }
    assert_eq!(errors(&b), errors(&a));
    assert_eq!(b["coverage"], a["coverage"]);
    assert_eq!(h.lcov(sharded), h.lcov(single));
}

#[test]
fn jobs_2_explores_the_same_paths_as_one_process() {
    let h = Here::new(PROGRAM);
    h.ok(&["run", "prog.c", "-o", "one", "--all-tests"]);
    assert_eq!(h.summary("one")["paths_completed"], 128);
    h.ok(&["run", "prog.c", "-o", "two", "--all-tests", "--jobs", "2"]);
    assert_same_exploration(&h, "one", "two");
    let s = h.summary("two");
    assert_eq!(s["shards"], 16, "8 shards per process");
    assert_eq!(s["shards_unexplored"], 0);
    assert!(
        !h.path("two/.shards").exists(),
        "the scratch directory is removed"
    );
    // The error's test is a test of the merged directory that reproduces it.
    let n = s["errors"][0]["test"].as_u64().unwrap();
    let t: Json =
        serde_json::from_slice(&std::fs::read(h.path(&format!("two/test{n:06}.json"))).unwrap())
            .unwrap();
    assert_eq!(t["outcome"]["error"], "null-dereference");
}

#[test]
fn split_then_every_shard_then_merge_is_one_exploration() {
    let h = Here::new(PROGRAM);
    h.ok(&["run", "prog.c", "-o", "one", "--all-tests"]);
    let split = [
        "run",
        "prog.c",
        "--all-tests",
        "--split",
        "6",
        "--shards-dir",
        "sh",
    ];
    h.ok(&[&split[..], &["-o", "split"]].concat());
    let shards = h.shards("sh");
    assert!(shards.len() >= 6, "{shards:?}");
    let mut parts = vec!["split".to_string()];
    for (i, s) in shards.iter().enumerate() {
        let part = format!("part{i}");
        h.ok(&[
            "run",
            "prog.c",
            "--all-tests",
            "--shard",
            s.to_str().unwrap(),
            "-o",
            &part,
        ]);
        parts.push(part);
    }
    let mut merge = vec!["merge", "-o", "merged"];
    merge.extend(parts.iter().map(String::as_str));
    h.ok(&merge);
    assert_same_exploration(&h, "one", "merged");
    let s = h.summary("merged");
    assert_eq!(s["parts"], parts.len());
    assert_eq!(s["parts_incomplete"], serde_json::json!([]));
    // Tests are renumbered from 1 without gaps.
    assert_eq!(read_tests(&h.path("merged")).len(), 128);
    assert!(h.path("merged/test000128.ktest").exists());
}

#[test]
fn the_default_test_policy_shares_its_threshold_among_shards() {
    let h = Here::new(PROGRAM);
    h.ok(&[
        "run",
        "prog.c",
        "--split",
        "4",
        "--shards-dir",
        "sh",
        "-o",
        "split",
    ]);
    let shard: Json = serde_json::from_slice(&std::fs::read(&h.shards("sh")[0]).unwrap()).unwrap();
    let count = shard["count"].as_u64().unwrap();
    assert_eq!(
        shard["limits"]["tests"]["covering-new-after"],
        1000u64.div_ceil(count)
    );
}

#[test]
fn a_killed_shard_keeps_every_test_it_wrote() {
    // 2^16 paths: a shard with half of them runs long enough to be killed midway.
    let h = Here::new(include_str!("../../../bench/paths16.c"));
    let split = [
        "run",
        "prog.c",
        "--all-tests",
        "--split",
        "2",
        "--shards-dir",
        "sh",
    ];
    h.ok(&[&split[..], &["-o", "split"]].concat());
    let shard = h.shards("sh")[0].clone();
    let mut child = augur()
        .current_dir(h.0.path())
        .args(["run", "prog.c", "--all-tests", "--shard"])
        .arg(&shard)
        .args(["-o", "killed"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while read_tests(&h.path("killed")).len() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!h.path("killed/summary.json").exists());
    let written = read_tests(&h.path("killed"));
    h.ok(&["merge", "split", "killed", "-o", "merged"]);
    let split_tests = read_tests(&h.path("split"));
    let merged = read_tests(&h.path("merged"));
    assert_eq!(merged.len(), split_tests.len() + written.len());
    assert_eq!(
        &merged[split_tests.len()..],
        &written[..],
        "the killed part's tests, in order"
    );
    let s = h.summary("merged");
    assert_eq!(s["parts_incomplete"], serde_json::json!(["killed"]));
    assert_eq!(s["tests"], merged.len());
    assert_eq!(
        s["paths_completed"].as_u64().unwrap(),
        h.summary("split")["paths_completed"].as_u64().unwrap() + written.len() as u64,
        "each test of the killed part is a completed path"
    );
}

#[test]
fn a_shard_that_does_not_parse_or_belongs_elsewhere_is_one_error_line() {
    let h = Here::new(PROGRAM);
    std::fs::write(h.path("bad.json"), "{\"augur_shard\": 1,").unwrap();
    let (status, stderr) = h.augur(&["run", "prog.c", "--shard", "bad.json", "-o", "x"]);
    assert_eq!(status, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("augur: error: bad.json: not an augur shard file"),
        "{stderr}"
    );

    h.ok(&[
        "run",
        "prog.c",
        "--split",
        "3",
        "--shards-dir",
        "sh",
        "-o",
        "split",
    ]);
    let shard = h.shards("sh")[0].clone();
    std::fs::write(h.path("other.c"), "int main(void) { return 0; }\n").unwrap();
    let (status, stderr) = h.augur(&[
        "run",
        "other.c",
        "--shard",
        shard.to_str().unwrap(),
        "-o",
        "y",
    ]);
    assert_eq!(status, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("it was split from prog.c"), "{stderr}");

    let (status, stderr) = h.augur(&[
        "run",
        "prog.c",
        "--sym-stdin",
        "2",
        "--shard",
        shard.to_str().unwrap(),
        "-o",
        "z",
    ]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--sym-stdin 2"), "{stderr}");
}

/// The Python that has Ray: $AUGUR_PYTHON, the repository's .venv-ray (made by
/// scripts/setup-ray.sh), or python3.
fn python_with_ray() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = [
        std::env::var_os("AUGUR_PYTHON").map(PathBuf::from),
        Some(root.join(".venv-ray/bin/python")).filter(|p| p.exists()),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|py| {
        Command::new(py)
            .args(["-c", "import ray"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_ray_driver_runs_shards_as_ray_tasks_and_merges_them() {
    let Some(python) = python_with_ray() else {
        println!("skipped: `import ray` fails (scripts/setup-ray.sh installs Ray)");
        return;
    };
    let h = Here::new(PROGRAM);
    h.ok(&["run", "prog.c", "-o", "one", "--all-tests"]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/augur_ray.py");
    let o = Command::new(python)
        .current_dir(h.0.path())
        .arg(script)
        .args(["--augur", env!("CARGO_BIN_EXE_augur"), "--num-cpus", "2"])
        .args(["--shards", "6", "-o", "ray", "--", "prog.c", "--all-tests"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_same_exploration(&h, "one", "ray");
}

#[test]
fn an_interrupted_jobs_run_stops_its_workers_and_merges_what_they_wrote() {
    let h = Here::new(include_str!("../../../bench/paths16.c"));
    let mut child = augur()
        .current_dir(h.0.path())
        .args(["run", "prog.c", "--all-tests", "--jobs", "2", "-o", "out"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let written = || -> usize {
        std::fs::read_dir(h.path("out/.shards"))
            .map(|d| d.map(|e| read_tests(&e.unwrap().path()).len()).sum())
            .unwrap_or(0)
    };
    while written() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    assert!(child.wait().unwrap().success());
    let s = h.summary("out");
    let tests = read_tests(&h.path("out"));
    assert!(tests.len() >= 5);
    assert_eq!(s["tests"], tests.len());
    assert!(s["paths_partial"].as_u64().unwrap() > 0, "{s}");
    assert!(
        s["paths_completed"].as_u64().unwrap() < 65536,
        "stopped before the end"
    );
    assert!(!h.path("out/.shards").exists());
}

#[test]
fn max_time_is_global_and_shards_left_unexplored_are_partial_paths() {
    // 2^40 paths: no shard ends within the time.
    let h = Here::new(
        r#"
#include <augur.h>
int main(void) {
  unsigned char b[40]; augur_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 40; i++) if (b[i] == i) n++;
  return n;
}
"#,
    );
    h.ok(&[
        "run",
        "prog.c",
        "--jobs",
        "2",
        "--max-time",
        "2",
        "-o",
        "out",
    ]);
    let s = h.summary("out");
    let unexplored = s["shards_unexplored"].as_u64().unwrap();
    assert!(unexplored > 0, "{s}");
    assert!(s["paths_partial"].as_u64().unwrap() >= unexplored);
    assert!(s["partial_without_test"].as_u64().unwrap() >= unexplored);
    assert_eq!(s["tests"], read_tests(&h.path("out")).len());

    let (status, stderr) = h.augur(&[
        "run",
        "prog.c",
        "--jobs",
        "2",
        "--write-testcomp",
        "tc",
        "-o",
        "x",
    ]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--write-testcomp"), "{stderr}");
}

#[test]
fn shards_follow_forks_over_argument_counts_and_inside_libc() {
    let h = Here::new(
        r#"
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  int score = argc;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "x") == 0) score += 10;
  if (getchar() == 'a') score += 100;
  return score;
}
"#,
    );
    let opts = [
        "--all-tests",
        "--sym-args",
        "0",
        "2",
        "1",
        "--sym-stdin",
        "1",
    ];
    h.ok(&[&["run", "prog.c", "-o", "one"][..], &opts].concat());
    let jobs = [
        "run", "prog.c", "-o", "three", "--jobs", "3", "--split", "4",
    ];
    h.ok(&[&jobs[..], &opts].concat());
    assert!(h.summary("one")["paths_completed"].as_u64().unwrap() > 10);
    assert!(h.summary("three")["shards"].as_u64().unwrap() >= 4);
    assert_same_exploration(&h, "one", "three");
}

#[test]
fn shards_follow_forks_on_the_solvers_example_values() {
    // A symbolic pointer into one of three objects: resolving it forks on the object an
    // example value points into, and the rest.
    let h = Here::new(SYMBOLIC_POINTER);
    h.ok(&["run", "prog.c", "-o", "one", "--all-tests"]);
    assert_eq!(h.summary("one")["paths_completed"], 12);
    h.ok(&[
        "run",
        "prog.c",
        "-o",
        "two",
        "--all-tests",
        "--jobs",
        "2",
        "--split",
        "3",
    ]);
    assert!(h.summary("two")["shards"].as_u64().unwrap() >= 3);
    assert_same_exploration(&h, "one", "two");
}
