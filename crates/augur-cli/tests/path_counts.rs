//! Path counts of programs whose count is known.

mod common;
use common::*;

#[test]
fn k_independent_branches_give_two_to_the_k_paths() {
    let src = &program("path_counts/k_independent_branches_give_two_to_the_k_paths.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 32, "{}", r.stderr);
    assert_eq!(r.tests.len(), 32);
    assert_eq!(r.summary["paths_partial"], 0);
    // Every number of "big" elements 0..=5 occurs, as many times as C(5, n).
    let codes = r.exit_codes();
    for (n, count) in [(0, 1), (1, 5), (2, 10), (3, 10), (4, 5), (5, 1)] {
        assert_eq!(
            codes.iter().filter(|c| **c == n).count(),
            count,
            "exit code {n}"
        );
    }
    r.assert_seeded_replay_agrees();
}

#[test]
fn loop_bounded_by_symbolic_n_gives_one_path_per_trip_count() {
    let src = &program("path_counts/loop_bounded_by_symbolic_n_gives_one_path_per_trip_count.c");
    let r = run_c(src, &["--search", "dfs"]);
    assert_eq!(r.paths(), 11, "{}", r.stderr);
    assert_eq!(r.exit_codes(), (0..=10).map(|n| 2 * n).collect::<Vec<_>>());
    for t in &r.tests {
        let n = Run::int_of(t, "n");
        assert_eq!(
            t["outcome"]["code"].as_i64().unwrap(),
            2 * n,
            "the test's input predicts its exit code"
        );
    }
    r.assert_seeded_replay_agrees();
}

#[test]
fn every_searcher_finds_the_same_paths() {
    let src = &program("path_counts/every_searcher_finds_the_same_paths.c");
    for search in ["dfs", "bfs", "random-path", "covnew", "random-path,covnew"] {
        let r = run_c(src, &["--search", search]);
        assert_eq!(r.paths(), 8, "{search}: {}", r.stderr);
        assert_eq!(r.exit_codes(), (0..8).collect::<Vec<_>>(), "{search}");
    }
}

#[test]
fn same_seed_gives_the_same_tests() {
    let src = &program("path_counts/same_seed_gives_the_same_tests.c");
    let a = run_c(src, &["--seed", "7"]);
    let b = run_c(src, &["--seed", "7"]);
    assert_eq!(a.tests.len(), 3);
    let objs = |r: &Run| {
        r.tests
            .iter()
            .map(|t| t["objects"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(objs(&a), objs(&b));
}

/// 2^11 paths, and an assertion that fails on one of them.
const MANY_PATHS: &str = include_str!("programs/path_counts/many_paths.c");

#[test]
fn tests_beyond_a_thousand_are_written_only_for_new_coverage() {
    let r = run_c(MANY_PATHS, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Every path is explored; the first 1000 get a test, later ones only when they cover
    // new code or end in a new error (the assertion's path).
    assert_eq!(r.paths(), 2049);
    let written = r.summary["tests"].as_u64().unwrap();
    let skipped = r.summary["tests_not_written"].as_u64().unwrap();
    assert_eq!(written + skipped, 2049);
    assert!((1000..1010).contains(&written), "{written} tests");
    assert_eq!(r.tests.len() as u64, written);
    assert_eq!(r.errors("assertion").len(), 1);
    assert!(r.stderr.contains("paths without a test (no new coverage)"));

    let all = run_c(MANY_PATHS, &["--all-tests"]);
    assert_eq!(all.tests.len(), 2049);
    assert_eq!(all.summary["tests_not_written"], 0);

    let new = run_c(MANY_PATHS, &["--only-output-states-covering-new"]);
    let written = new.summary["tests"].as_u64().unwrap();
    assert!(written < 40, "{written} tests");
    assert_eq!(new.errors("assertion").len(), 1);
    assert_eq!(new.summary["errors"].as_array().unwrap().len(), 1);
    new.assert_seeded_replay_agrees();
}

#[test]
fn a_zero_padded_field_prints_a_symbolic_value_on_one_path() {
    let src = &program("path_counts/a_zero_padded_field_prints_a_symbolic_value_on_one_path.c");
    let r = run_c(src, &[]);
    // Only "%x" of a value under 32 (one digit or two) and "%u" of one under 1024 (one to
    // four) branch.
    assert_eq!(r.paths(), 8, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0);
    let mut lengths = Vec::new();
    for (code, out) in r.exits_with_stdout() {
        assert_eq!(code, 0);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        lengths.push((lines[1].len(), lines[2].len()));
        let fields: Vec<&str> = lines[0].split(' ').collect();
        let widths: Vec<usize> = fields.iter().map(|f| f.len()).collect();
        assert_eq!(widths, vec![8, 8, 3, 5, 4], "{out}");
    }
    lengths.sort();
    let every: Vec<(usize, usize)> = (1..=2).flat_map(|x| (1..=4).map(move |u| (x, u))).collect();
    assert_eq!(lengths, every);
    // The digits printed are the hash's: the native run prints the same.
    r.assert_native_replay_passes();
}
