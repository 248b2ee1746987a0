//! Symbolic array indices and symbolic pointers.

mod common;
use common::*;

#[test]
fn symbolic_index_read_finds_the_matching_element() {
    let src = &program("symbolic_memory/symbolic_index_read_finds_the_matching_element.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    let hit = r.tests.iter().find(|t| t["outcome"]["code"] == 1).unwrap();
    assert_eq!(Run::int_of(hit, "i"), 5);
    r.assert_seeded_replay_agrees();
}

#[test]
fn symbolic_index_write_then_read() {
    let src = &program("symbolic_memory/symbolic_index_write_then_read.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    for t in &r.tests {
        let same = Run::int_of(t, "i") == Run::int_of(t, "j");
        assert_eq!(t["outcome"]["code"].as_i64().unwrap(), same as i64);
    }
    r.assert_seeded_replay_agrees();
}

#[test]
fn a_table_zeroed_between_symbolic_writes_stays_shallow() {
    let src = &program("symbolic_memory/a_table_zeroed_between_symbolic_writes_stays_shallow.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0, "{}", r.stderr);
    for t in &r.tests {
        let odd = (Run::int_of(t, "in") >> 24) & 1 == 1; // in[3]'s lowest bit
        assert_eq!(t["outcome"]["code"].as_i64().unwrap(), odd as i64);
    }
    r.assert_native_replay_passes();
}

#[test]
fn unchecked_symbolic_index_is_out_of_bounds_on_some_inputs() {
    let src =
        &program("symbolic_memory/unchecked_symbolic_index_is_out_of_bounds_on_some_inputs.c");
    let r = run_c(src, &[]);
    let oob = r.errors("out-of-bounds");
    assert_eq!(oob.len(), 1, "{}", r.stderr);
    assert_eq!(
        oob[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "WRITE")
    );
    let i = Run::int_of(oob[0], "i");
    assert!(
        !(0..10).contains(&i),
        "the error input {i} is out of bounds"
    );
    assert_eq!(
        r.exit_codes(),
        vec![0],
        "the in-bounds inputs still run to the end"
    );
    r.assert_seeded_replay_agrees();
}

#[test]
fn symbolic_pointer_forks_over_the_objects_it_may_point_to() {
    let src = &program("symbolic_memory/symbolic_pointer_forks_over_the_objects_it_may_point_to.c");
    let r = run_c(src, &[]);
    assert_eq!(r.exit_codes(), vec![1, 2, 3], "{}", r.stderr);
    r.assert_seeded_replay_agrees();
}

/// A table read and written at input-dependent indices, round after round (bench/symhash.c's
/// shape, smaller): the failing hash is found, with no path left partial by a solver
/// timeout, and the test fails natively too.
#[test]
fn chained_symbolic_index_reads_and_writes_find_the_failing_hash() {
    let src =
        &program("symbolic_memory/chained_symbolic_index_reads_and_writes_find_the_failing_hash.c");
    let r = run_c(src, &[]);
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0, "{}", r.stderr);
    assert_eq!(r.summary["solver"]["timeouts"], 0, "{}", r.stderr);
    let failed = r.errors("assertion");
    assert_eq!(failed.len(), 1, "{}", r.stderr);
    assert_eq!(
        failed[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "ASSERT")
    );
    assert_eq!(r.exit_codes(), vec![0]);
    r.assert_native_replay_passes();
}

/// The workload Z3 cannot solve in minutes: a 64-byte table read and written at
/// input-dependent indices for 6 rounds, then a 16-bit check of the hash (one input in
/// 65,536 fails it). The model search beside Z3 finds the failing input, within the
/// default solver time limit, and the real program fails on it.
#[test]
fn a_hash_through_a_table_written_at_symbolic_indices_is_broken_by_model_search() {
    let src = &program("symbolic_memory/a_hash_through_a_table_written_at_symbolic_indices_is_broken_by_model_search.c");
    let r = run_c(src, &[]);
    let failures = r.errors("assertion");
    assert_eq!(failures.len(), 1, "{}", r.stderr);
    assert_eq!(
        failures[0]["outcome"]["line"].as_u64(),
        Some(line_of(src, "HASH"))
    );
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    let solver = &r.summary["solver"];
    assert_eq!(solver["timeouts"], 0, "{solver}");
    assert!(solver["sampled"].as_u64() >= Some(1), "{solver}");
    r.assert_native_replay_passes();
}

/// The shape of coreutils' quotearg false alarm ("read of 4 bytes at offset 8 of
/// `quote_quoting_options` (size 56)", an offset inside the object): a pointer chosen
/// through a table of pointers (no provenance: resolved from an example value) into one of
/// several 56-byte option structs, a field at offset 8 read: with the default chain (the
/// one input byte decides every query by trying its values), then with every solver
/// query raced by the model search. Every access is in bounds on every input, so no
/// error may be reported, the exit codes are exactly the table's, and every test replays.
#[test]
fn a_pointer_through_a_table_of_structs_is_never_reported_out_of_bounds() {
    let src = r#"
#include <augur.h>
struct options { int style; int pad; int flags; char quote[44]; };
struct options a = {1, 0, 10, ""}, b = {2, 0, 20, ""}, c = {3, 0, 30, ""}, d = {4, 0, 40, ""};
struct options *table[4] = {&a, &b, &c, &d};
int main(void) {
  unsigned char k;
  augur_make_symbolic(&k, sizeof k, "k");
  struct options *o = table[k % 4];
  return o->flags / 10;
}
"#;
    let raced = [
        "--search-after",
        "1",
        "--solver-layers",
        "fast,independence,query-cache,order,cex-cache",
    ];
    for args in [&[][..], &raced[..]] {
        let args = [args, &["--solver-cross-check"]].concat();
        let r = run_c(src, &args);
        assert!(
            r.errors("out-of-bounds").is_empty(),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(r.summary["paths_partial"], 0, "{args:?}: {}", r.stderr);
        let mut codes = r.exit_codes();
        codes.sort();
        assert_eq!(codes, [1, 2, 3, 4], "{args:?}: {}", r.stderr);
        assert_eq!(r.summary["solver"]["cross_check_mismatches"], 0, "{args:?}");
        r.assert_native_replay_passes();
    }
}

/// A finite automaton walked through pointers, six input bytes deep (a regex matcher's
/// shape): each state is read from the last one's table of successors at an
/// input-dependent index. Every state is one of five known addresses, so each query
/// stays a choice among them: before, each pointer was rebuilt byte by byte from
/// if-then-else chains over every byte of the table, the next read nested over those,
/// and the largest query reached 1.5 MB of SMT-LIB (20 KB since). Every path of accepting
/// and rejecting states is explored, and the exit codes are the native ones.
#[test]
fn a_walk_through_pointer_tables_stays_a_choice_among_known_states() {
    let src = &program(
        "symbolic_memory/a_walk_through_pointer_tables_stays_a_choice_among_known_states.c",
    );
    let log = tempfile::tempdir().unwrap();
    let log_arg = log.path().to_str().unwrap();
    let r = run_c(src, &["--log-queries", log_arg]);
    assert_eq!(r.paths(), 64, "{}", r.stderr);
    assert_eq!(r.summary["paths_partial"], 0, "{}", r.stderr);
    assert_eq!(r.summary["solver"]["timeouts"], 0, "{}", r.stderr);
    let largest = std::fs::read_dir(log.path())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .max()
        .expect("queries were logged");
    assert!(largest < 100_000, "a query of {largest} bytes");
    r.assert_native_replay_passes();
}

/// A table written at input-dependent indices and then read at known ones: every read
/// is a choice among the writes that may have hit it, so no query the solver gets holds
/// an array store (before, each was a `select` through the stores, and Z3 got an array
/// of the table's bytes, each pinned by an equality: BusyBox gzip's frequency tables).
/// Both marks unwritten, either, or both: 4 paths with the native exit codes.
#[test]
fn reads_at_known_offsets_after_symbolic_writes_need_no_array() {
    let src =
        &program("symbolic_memory/reads_at_known_offsets_after_symbolic_writes_need_no_array.c");
    let log = tempfile::tempdir().unwrap();
    let log_arg = log.path().to_str().unwrap();
    let r = run_c(src, &["--log-queries", log_arg, "--solver-layers", "none"]);
    assert_eq!(r.paths(), 4, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0, 1, 2, 3], "{}", r.stderr);
    let mut logged = 0;
    for entry in std::fs::read_dir(log.path()).unwrap() {
        let query = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(
            !query.contains("(store"),
            "a query with an array store:\n{query}"
        );
        logged += 1;
    }
    assert!(logged > 0, "no query reached Z3");
    r.assert_native_replay_passes();
}
