//! Limits that hold: numbers out of range are usage errors, `--max-time` bounds a run
//! even when Z3 is given a query it cannot finish, and paths a limit stops still get tests.

mod common;

use common::{augur, object_bytes, program, run_c, Run};
use std::time::{Duration, Instant};

/// `x * y == n` for a 122-bit `n` over two symbolic 64-bit factors above 1 (both must
/// exceed 2^58): Z3 cannot factor it within a test's time, nor can the model search.
const FACTORING: &str = r#"
#include <augur.h>
#include <stdlib.h>
int main(void) {
  unsigned long long x, y;
  augur_make_symbolic(&x, sizeof x, "x");
  augur_make_symbolic(&y, sizeof y, "y");
  unsigned __int128 n = (unsigned __int128)2305843009213693951ULL * 2305843009213693921ULL;
  if (x > 1 && y > 1 && (unsigned __int128)x * y == n)
    abort(); /* FACTORED */
  return x == 7;
}
"#;

/// A run of `augur` with `args` in a directory holding prog.c: exit code and stderr.
fn augur_in(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let o = augur().current_dir(dir).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_numeric_option_rejects_zero_negative_and_huge_numbers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), "int main(void) { return 0; }\n").unwrap();
    std::fs::write(dir.path().join("crash.txt"), "").unwrap();
    let huge = "100000000000000000000";
    // (command and its other arguments, option, how many values it takes, 0 allowed)
    let run = ["run", "prog.c"];
    let cases: Vec<(&[&str], &str, usize, bool)> = vec![
        (&run, "--max-time", 1, false),
        (&run, "--max-instructions", 1, false),
        (&run, "--max-forks", 1, false),
        (&run, "--max-depth", 1, false),
        (&run, "--max-memory", 1, false),
        (&run, "--solver-timeout", 1, false),
        (&run, "--search-after", 1, false),
        (&run, "--ptr-size", 1, false),
        (&run, "--sym-arg", 1, false),
        (&run, "--sym-stdin", 1, false),
        (&run, "--sym-files", 2, false),
        (&run, "--sym-args", 3, true),
        (&run, "--jobs", 1, false),
        (&run, "--split", 1, false),
        (&run, "--seed", 1, true),
        (&run, "--max-fail", 1, true),
        (&["replay", "prog.c"], "--timeout", 1, false),
        (&["diff", "prog.c", "prog.c"], "--tests-per-pair", 1, false),
        (&["diff", "prog.c", "prog.c"], "--timeout", 1, false),
        (&["diff", "prog.c"], "--revisions", 1, false),
        (&["inject", "prog.c", "-o", "out"], "--bugs", 1, false),
        (&["inject", "prog.c", "-o", "out"], "--points", 1, false),
        (&["inject", "prog.c", "-o", "out"], "--samples", 1, false),
        (
            &["inject", "prog.c", "-o", "out"],
            "--explore-time",
            1,
            false,
        ),
        (&["inject", "prog.c", "-o", "out"], "--timeout", 1, false),
        (
            &["repro", "prog.c", "--crash", "crash.txt"],
            "--timeout",
            1,
            false,
        ),
    ];
    for (command, option, arity, zero_allowed) in cases {
        let mut bad = vec!["-1", huge];
        if !zero_allowed {
            bad.push("0");
        }
        for value in bad {
            let mut args: Vec<&str> = command.to_vec();
            args.push(option);
            args.extend(std::iter::repeat_n(value, arity));
            let (code, stderr) = augur_in(dir.path(), &args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("error: ") && !stderr.contains("panicked"),
                "{args:?}: {stderr}"
            );
        }
    }
    // Over the symbolic-input limit, and --sym-file's size.
    for args in [
        &["run", "prog.c", "--sym-arg", "100000000"][..],
        &["run", "prog.c", "--sym-file", "A:0"],
        &["run", "prog.c", "--sym-file", "A:100000000"],
        &["run", "prog.c", "--sym-args", "0", "2", "0"],
    ] {
        let (code, stderr) = augur_in(dir.path(), args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(
            stderr.lines().next().map(|l| l.contains("error")),
            Some(true)
        );
    }
}

/// Wall time a command with `--max-time 5` may take on a loaded machine: compiling C with
/// clang and linking the runtime come before the limit starts, and take seconds under
/// load. Without the deadline these runs took the solver timeout, 600 s.
const WALL_BOUND: Duration = Duration::from_secs(30);

/// A query Z3 cannot finish, with the solver's own timeout far beyond `--max-time`: the
/// run still ends within a second of it (measured by the run itself, from its start), with
/// a summary and a test for the path it was on.
#[test]
fn max_time_holds_when_z3_cannot_finish_a_query() {
    let start = Instant::now();
    let r = run_c(FACTORING, &["--max-time", "5", "--solver-timeout", "600"]);
    let took = start.elapsed();
    assert!(took < WALL_BOUND, "took {took:?}: {}", r.stderr);
    let run_time = r.summary["time_s"].as_f64().unwrap();
    assert!(run_time < 6.0, "ran {run_time} s: {}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.summary.is_object(), "{}", r.stderr);
    assert!(!r.tests.is_empty(), "{}", r.stderr);
    assert_eq!(r.summary["partial_without_test"], 0, "{}", r.stderr);
    assert!(r.summary["solver"]["timeouts"].as_u64().unwrap() >= 1);
    assert_eq!(r.summary["solver"]["wrong_models"], 0);
    r.assert_native_replay_passes();
}

/// `augur inject` on the same program under `--max-time 5`: the exploration, synthesis
/// and verification share the time, and the corpus is written (a native build or run
/// started before the deadline is not cut, hence the wall-clock bound only).
#[test]
fn inject_keeps_to_max_time_when_z3_cannot_finish_a_query() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), FACTORING).unwrap();
    let start = Instant::now();
    let (code, stderr) = augur_in(
        dir.path(),
        &[
            "inject",
            "prog.c",
            "-o",
            "corpus",
            "--max-time",
            "5",
            "--solver-timeout",
            "600",
        ],
    );
    let took = start.elapsed();
    assert!(took < WALL_BOUND, "took {took:?}: {stderr}");
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.path().join("corpus/summary.json").is_file(), "{stderr}");
}

/// `augur run` of the endless program `name` with `stdin` symbolic bytes, stopped by
/// `--max-time 2` with no solver layer to answer from a cache (so Z3 can no longer be asked
/// once the time is up): `paths` partial paths, each with a test.
fn stopped_run(name: &str, stdin: &str, paths: u64) -> Run {
    let src = &program(&format!("limits/{name}.c"));
    let args = [
        "--sym-stdin",
        stdin,
        "--max-time",
        "2",
        "--solver-layers",
        "none",
    ];
    let r = run_c(src, &args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], paths, "{}", r.stderr);
    assert_eq!(r.summary["partial_without_test"], 0, "{}", r.stderr);
    assert_eq!(r.summary["tests"], paths, "{}", r.stderr);
    r.assert_native_replay_passes();
    r
}

/// Both paths of an endless loop are stopped: their tests come from the inputs the solver
/// gave each path at its fork.
#[test]
fn stopped_paths_get_tests_from_their_examples() {
    let r = stopped_run("stopped_paths_get_tests_from_their_examples", "4", 2);
    let mut seen: Vec<(bool, &str)> = r
        .tests
        .iter()
        .map(|t| {
            assert_eq!(t["outcome"]["reason"], "max-time reached");
            let a = object_bytes(t, "stdin")[0] == b'a';
            (a, t["stdout"].as_str().unwrap())
        })
        .collect();
    seen.sort();
    assert_eq!(seen, [(false, ""), (true, "a\n")]);
}

/// The one path's last constraint was added without a model (an assumption) and cannot be
/// solved once the time is up: rather than end with no test, the run writes one whose
/// inputs (the path's example) follow the first two of its three constraints, marked so.
#[test]
fn a_run_with_no_inputs_for_its_path_writes_a_prefix_test() {
    let r = stopped_run(
        "a_run_with_no_inputs_for_its_path_writes_a_prefix_test",
        "2",
        1,
    );
    let t = &r.tests[0];
    assert_eq!(
        t["outcome"]["reason"],
        "max-time reached; inputs found for only the first 2 of its 3 path constraints"
    );
    assert_eq!(t["prefix_only"]["satisfied"], 2);
    assert_eq!(t["prefix_only"]["constraints"], 3);
    assert!(object_bytes(t, "stdin")[0] > 5, "{t}");
    assert_eq!(t["stdout"], "big\n");
}

/// A hard loop without end for a symbolic executor: the trip count depends on a 64-bit
/// mix of the input reaching a value, and the crash needs more than a million trips.
const ENDLESS_HARD_LOOP: &str = r#"#include <stdlib.h>
static char slots[8];
unsigned long long mix(unsigned long long h) {
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 32);
}
void crash_at(long n) {
  slots[n] = 1;
}
void check(const char *s) {
  unsigned long long h = (unsigned char)s[0] | (unsigned char)s[1] << 8;
  long n = 0;
  while ((h & 0xffff) != 0x1234) {
    h = mix(h);
    n++;
  }
  if (n > 1000000)
    crash_at(n);
}
int main(int argc, char **argv) {
  if (argc > 1)
    check(argv[1]);
  return 0;
}
"#;

/// Its crash as UBSan reports it.
const ENDLESS_HARD_LOOP_REPORT: &str =
    "prog.c:9:3: runtime error: index 1048577 out of bounds for type 'char[8]'
    #0 0x55d0c1a2 in crash_at /src/prog.c:9:11
    #1 0x55d0c1b7 in check /src/prog.c:19:5
    #2 0x55d0c1c3 in main /src/prog.c:23:5
";

/// `augur repro --max-time 5` on the endless hard loop ends within 6 s all told (the
/// builds count), not reproducing, with repro.json written.
#[test]
fn repro_keeps_to_max_time_on_an_endless_hard_loop() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), ENDLESS_HARD_LOOP).unwrap();
    std::fs::write(dir.path().join("crash.txt"), ENDLESS_HARD_LOOP_REPORT).unwrap();
    let start = Instant::now();
    let (code, stderr) = augur_in(
        dir.path(),
        &[
            "repro",
            "prog.c",
            "--crash",
            "crash.txt",
            "--sym-arg",
            "2",
            "--max-time",
            "5",
            "-o",
            "out",
        ],
    );
    let took = start.elapsed();
    assert!(took < Duration::from_secs(6), "took {took:?}: {stderr}");
    assert_eq!(code, 1, "{stderr}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/repro.json")).unwrap()).unwrap();
    assert_eq!(json["status"], "not-reproduced", "{stderr}");
    assert_eq!(json["goals"], 3, "{json}");
}

/// A path keeps the first 256 KiB of its standard output (a program printing for ever would
/// fill memory): the test predicts that prefix and the whole length, and replays natively.
#[test]
fn output_beyond_what_a_path_keeps_is_counted_and_replays() {
    let r = run_c(&program("limits/output_beyond_what_a_path_keeps.c"), &[]);
    assert_eq!(r.exit_codes(), vec![0], "{}", r.stderr);
    let t = &r.tests[0];
    let kept = t["stdout"].as_str().unwrap();
    assert_eq!(kept.len(), 1 << 18);
    assert!(kept.starts_with("0\n1\n2\n"));
    assert_eq!(t["stdout_dropped"], 348_890 - (1 << 18));
    r.assert_native_replay_passes();
}
