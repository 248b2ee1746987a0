//! The solver chain's layers change how queries are answered, never the answers: the same
//! program explored with every layer set gives the same tests.

mod common;
use common::*;
use std::path::Path;

/// Several symbolic branches, a read at a symbolic index and an error path.
const PROGRAM: &str = include_str!("programs/solver_layers/program.c");

/// What every chain must agree on: the tests' outcomes (sorted) without message, stack
/// and file (every run compiles its own copy of the program).
fn outcomes(r: &Run) -> Vec<String> {
    let mut all: Vec<String> = r
        .tests
        .iter()
        .map(|t| {
            let mut o = t["outcome"].clone();
            if let Some(m) = o.as_object_mut() {
                m.remove("message");
                m.remove("stack");
                m.remove("file");
            }
            o.to_string()
        })
        .collect();
    all.sort();
    all
}

/// Run the program with `args`; it must succeed and every test must replay natively.
fn explore(args: &[&str]) -> Run {
    let r = run_c(PROGRAM, args);
    assert_eq!(r.status, 0, "{args:?}: {}", r.stderr);
    r.assert_native_replay_passes();
    r
}

/// The answer comment of a logged query.
fn logged_answer(script: &str) -> &str {
    script
        .lines()
        .find_map(|l| l.strip_prefix("; answer: "))
        .expect("an answer comment")
}

/// Every file in `dir` is an SMT-LIB2 query Z3 reads back (all its assertions) and
/// answers as logged; returns how many there are.
fn check_query_log(dir: &Path) -> u64 {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let script = std::fs::read_to_string(&path).unwrap();
        let solver = z3::Solver::new();
        solver.from_string(script.as_str());
        let asserted = script.lines().filter(|l| l.starts_with("(assert ")).count();
        assert_eq!(
            solver.get_assertions().len(),
            asserted,
            "{}",
            path.display()
        );
        let again = match solver.check() {
            z3::SatResult::Sat => "sat",
            z3::SatResult::Unsat => "unsat",
            z3::SatResult::Unknown => "unknown",
        };
        assert_eq!(again, logged_answer(&script), "{}", path.display());
        n += 1;
    }
    n
}

#[test]
fn every_solver_layer_set_finds_the_same_tests() {
    let full = explore(&["--solver-layers", "all"]);
    let want = outcomes(&full);
    // Every return has its own exit code, so the outcomes name the statement each path
    // ends at: all six returns and the crash.
    let mut codes = full.exit_codes();
    codes.dedup();
    assert_eq!(codes, [0, 1, 2, 3, 4, 5], "{want:?}");
    let crashes = full.errors("null-dereference");
    assert!(!crashes.is_empty(), "{want:?}");
    let crash = line_of(PROGRAM, "CRASH");
    assert!(crashes.iter().all(|t| t["outcome"]["line"] == crash));
    assert_eq!(
        full.summary["solver"]["layers"],
        "fast,independence,query-cache,order,cex-cache,exhaustive"
    );
    let layer_sets = [
        "none",
        "independence,query-cache,order,cex-cache,exhaustive",
        "fast,query-cache,order,cex-cache,exhaustive",
        "fast,independence,order,cex-cache,exhaustive",
        "fast,independence,query-cache,cex-cache,exhaustive",
        "fast,independence,query-cache,order,exhaustive",
        WITHOUT_EXHAUSTIVE,
    ];
    for layers in layer_sets {
        let r = explore(&["--solver-layers", layers]);
        assert_eq!(r.tests.len(), full.tests.len(), "--solver-layers {layers}");
        assert_eq!(outcomes(&r), want, "--solver-layers {layers}");
        let solver = &r.summary["solver"];
        assert_eq!(solver["layers"], layers);
        assert_eq!(solver["cross_checks"], 0, "no cross-check asked for");
        if layers == "none" {
            assert_eq!(solver["cache_hits"], 0);
            assert_eq!(solver["fast_path"], 0);
            assert_eq!(solver["order_unsat"], 0);
            assert_eq!(solver["exhaustive"], 0);
            assert_eq!(solver["solver_calls"], solver["queries"]);
        }
    }
}

/// Bubble sort of 4 ints (comparisons its earlier swaps imply among them), the order
/// asserted, and one claim that fails only when all four are equal.
const SORT: &str = include_str!("programs/solver_layers/sort.c");

/// Every layer but `exhaustive`, for the tests of the race between Z3 and the model
/// search: over inputs this small, the exhaustive layer would decide every query before
/// Z3 and the search are asked.
const WITHOUT_EXHAUSTIVE: &str = "fast,independence,query-cache,order,cex-cache";

#[test]
fn the_order_layer_refutes_implied_comparisons_and_misses_no_failure() {
    let full = run_c(SORT, &["--search", "dfs"]);
    assert_eq!(full.status, 0, "{}", full.stderr);
    // one path per ordering of the 4 ints (24), and the sorted one also fails the claim
    assert_eq!(full.exit_codes(), vec![0; 24]);
    let failures = full.errors("assertion");
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0]["outcome"]["line"], line_of(SORT, "ALL EQUAL"));
    let solver = &full.summary["solver"];
    assert!(
        solver["order_unsat"].as_u64().unwrap() >= 24 * 3,
        "{solver}"
    );
    full.assert_native_replay_passes();
    let without = run_c(
        SORT,
        &[
            "--search",
            "dfs",
            "--solver-layers",
            "fast,independence,query-cache,cex-cache,exhaustive",
        ],
    );
    assert_eq!(outcomes(&without), outcomes(&full));
    assert_eq!(without.summary["solver"]["order_unsat"], 0);
    let z3_calls = |r: &Run| r.summary["solver"]["solver_calls"].as_u64().unwrap();
    assert!(z3_calls(&without) > z3_calls(&full) + 24 * 3);
}

#[test]
fn the_cross_check_finds_no_mismatch_and_logged_queries_replay_in_z3() {
    let logs = tempfile::tempdir().unwrap();
    let log_dir = logs.path().join("queries");
    let log_arg = log_dir.to_str().unwrap();
    let full = explore(&["--solver-layers", "all"]);
    let checked = explore(&["--solver-cross-check", "--log-queries", log_arg]);
    assert_eq!(outcomes(&checked), outcomes(&full));
    let solver = &checked.summary["solver"];
    assert_eq!(solver["cross_check_mismatches"], 0, "{}", checked.stderr);
    assert_eq!(solver["cross_checks"], solver["queries"]);
    assert!(solver["queries"].as_u64().unwrap() > 0);
    assert_eq!(
        Some(check_query_log(&log_dir)),
        solver["solver_calls"].as_u64()
    );
    assert!(checked.stderr.contains("solver cross-checks = "));
}

#[test]
fn unknown_solver_layers_are_rejected() {
    let r = run_c(PROGRAM, &["--solver-layers", "fast,cache"]);
    assert_eq!(r.status, 2);
    assert_eq!(
        r.stderr.trim(),
        "augur: error: --solver-layers: unknown solver layer `cache` \
         (known: fast, independence, query-cache, order, cex-cache, exhaustive, all, none)"
    );
}

/// A branch whose other side Z3 cannot decide within the time limit (factoring a 122-bit
/// number; a 62-bit semiprime was factored within the second on a quiet machine) leaves that side unexplored, counted as a timeout, and the path goes on
/// along the side the current model satisfies, to its end.
#[test]
fn a_timeout_on_one_side_of_a_branch_keeps_the_path_going() {
    let src = &program("solver_layers/a_timeout_on_one_side_of_a_branch_keeps_the_path_going.c");
    // 3 s: the factoring never finishes, and the other queries (a 128-bit multiplier
    // bit-blasted) do, even in a debug build beside CPU hogs.
    let r = run_c(src, &["--solver-timeout", "3"]);
    assert_eq!(r.summary["paths_partial"], 0, "{}", r.stderr);
    assert!(
        r.summary["solver"]["timeouts"].as_u64() >= Some(1),
        "{}",
        r.summary
    );
    let mut codes = r.exit_codes();
    codes.dedup();
    assert_eq!(codes, vec![0, 2], "{}", r.stderr);
    r.assert_native_replay_passes();
}

/// With the model search joining Z3 after 1 ms, most queries are raced, and models come
/// from the search: the exploration must stay exact (every answer agrees with a fresh Z3
/// solver, the same paths as without the search). An interrupted Z3 solver answering
/// later queries wrongly once made this lose half of the paths.
#[test]
fn a_model_search_on_every_query_keeps_the_exploration_exact() {
    let r = run_c(
        SYMBOLIC_POINTER,
        &[
            "--search-after",
            "1",
            "--solver-cross-check",
            "--solver-layers",
            WITHOUT_EXHAUSTIVE,
        ],
    );
    let solver = &r.summary["solver"];
    assert_eq!(solver["cross_check_mismatches"], 0, "{}", r.stderr);
    assert!(solver["sampled"].as_u64() > Some(0), "{solver}");
    let mut codes = r.exit_codes();
    codes.sort();
    let want: Vec<i64> = (0..12).map(|n| 1 << n).collect();
    assert_eq!(codes, want, "{}", r.stderr);
    r.assert_native_replay_passes();
}

/// Two numbers read by scanf from 4 symbolic stdin bytes, with the model search joining
/// Z3 after 1 ms: the search interrupts Z3 often. When that interrupt cancelled Z3's whole
/// context, later checks answered sat with models violating their queries: extra,
/// impossible paths (1,020 to 1,044 instead of 1,015) and tests whose native replay took
/// another path, on 2 runs in 3, every run on a loaded machine.
#[test]
fn interrupted_queries_leave_no_wrong_model_behind() {
    let src = r#"
#include <stdio.h>
int main(void) {
  int a, b;
  if (scanf("%d %d", &a, &b) != 2) return 1;
  if (a > 5 && b == a + 1) return 2;
  return 0;
}
"#;
    let args = [
        "--sym-stdin",
        "4",
        "--search-after",
        "1",
        "--solver-layers",
        WITHOUT_EXHAUSTIVE,
    ];
    let r = run_c(src, &args);
    assert_eq!(r.summary["paths_completed"], 1015, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0, "{}", r.stderr);
    assert_eq!(r.summary["solver"]["wrong_models"], 0, "{}", r.stderr);
    let mut codes = r.exit_codes();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, [0, 1, 2], "{}", r.stderr);
    r.assert_native_replay_passes();
}

/// Character classes of one input byte, read through the C library's class table at an
/// index of twice the byte (coreutils od's shape): every query reads that one byte, so
/// the exhaustive layer decides each by trying its 256 values and none reaches Z3. The
/// same paths come out without the layer, and every test replays.
#[test]
fn queries_over_one_byte_are_decided_without_z3() {
    let src = r#"
#include <augur.h>
#include <ctype.h>
int main(void) {
  unsigned char c;
  augur_make_symbolic(&c, sizeof c, "c");
  if (isdigit(c)) return 1;
  if (isupper(c)) return 2;
  if (islower(c)) return 3;
  if (isspace(c)) return 4;
  if (ispunct(c)) return 5;
  return 0;
}
"#;
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut codes = r.exit_codes();
    codes.sort();
    assert_eq!(codes, [0, 1, 2, 3, 4, 5], "{}", r.stderr);
    let solver = &r.summary["solver"];
    assert!(solver["exhaustive"].as_u64() > Some(0), "{solver}");
    assert_eq!(solver["solver_calls"], 0, "{solver}");
    r.assert_native_replay_passes();
    let without = run_c(src, &["--solver-layers", WITHOUT_EXHAUSTIVE]);
    assert_eq!(outcomes(&without), outcomes(&r));
    assert_eq!(without.summary["solver"]["exhaustive"], 0);
    assert!(without.summary["solver"]["solver_calls"].as_u64() > Some(0));
}
