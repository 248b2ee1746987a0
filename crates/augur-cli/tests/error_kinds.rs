//! Every error kind, reported at its exact source line with a reproducing input.

mod common;
use common::*;

/// Run `src`, expect exactly the errors `(kind, marker)` (line = line containing marker).
fn expect_errors(src: &str, args: &[&str], expected: &[(&str, &str)]) -> Run {
    let r = run_c(src, args);
    let mut got: Vec<(String, u64)> = r.summary["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no summary: {}", r.stderr))
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["line"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    let mut want: Vec<(String, u64)> = expected
        .iter()
        .map(|(k, m)| (k.to_string(), line_of(src, m)))
        .collect();
    want.sort();
    assert_eq!(got, want, "stderr: {}", r.stderr);
    for e in r.summary["errors"].as_array().unwrap() {
        assert!(e["file"].as_str().unwrap().ends_with("prog.c"));
    }
    r
}

#[test]
fn assertion_abort_and_reach_error() {
    let src = &program("error_kinds/assertion_abort_and_reach_error.c");
    let r = expect_errors(
        src,
        &[],
        &[
            ("assertion", "ASSERT"),
            ("abort", "ABORT"),
            ("reach-error", "REACH"),
            ("assertion", "AUGUR_ASSERT"),
        ],
    );
    for (kind, want) in [("abort", 2), ("reach-error", 3)] {
        let t = r.errors(kind)[0];
        assert_eq!(Run::int_of(t, "x"), want);
    }
    let asserts: Vec<i64> = r
        .errors("assertion")
        .iter()
        .map(|t| Run::int_of(t, "x"))
        .collect();
    assert!(asserts.contains(&1) && asserts.contains(&4));
    r.assert_seeded_replay_agrees();
}

#[test]
fn memory_errors() {
    let src = &program("error_kinds/memory_errors.c");
    let r = expect_errors(
        src,
        &[],
        &[
            ("null-dereference", "NULL"),
            ("out-of-bounds", "HEAP_OOB"),
            ("out-of-bounds", "STACK_OOB"),
            ("out-of-bounds", "GLOBAL_OOB"),
            ("use-after-free", "UAF"),
            ("double-free", "DOUBLE"),
            ("invalid-free", "INVALID"),
            ("invalid-free", "INVALID_STACK"),
        ],
    );
    r.assert_seeded_replay_agrees();
}

#[test]
fn division_unreachable_function_pointer_external_assume() {
    let src = &program("error_kinds/division_unreachable_function_pointer_external_assume.c");
    let r = expect_errors(
        src,
        &[],
        &[
            ("division-by-zero", "DIV"),
            ("unreachable", "UNREACH"),
            ("bad-function-pointer", "FPTR"),
            ("unmodeled-external", "EXT"),
            ("invalid-assume", "ASSUME"),
        ],
    );
    let div = r.errors("division-by-zero")[0];
    assert_eq!((Run::int_of(div, "x"), Run::int_of(div, "y")), (1, 0));
    r.assert_seeded_replay_agrees();
}

#[test]
fn externals_havoc_returns_symbolic_values() {
    let src = &program("error_kinds/externals_havoc_returns_symbolic_values.c");
    let r = run_c(src, &["--externals", "havoc", "--sym-args", "0", "1", "1"]);
    assert_eq!(r.paths(), 4, "{}", r.stderr);
    assert_eq!(r.exit_codes(), vec![0, 0]);
    // Every test says which havocked calls it went through, and so does the error.
    for t in &r.tests {
        let with_arg = t["objects"][0]["bytes"][0] == 1;
        let want: &[&str] = if with_arg {
            &["log_it", "ext"]
        } else {
            &["ext"]
        };
        assert_eq!(t["havocked"], serde_json::json!(want), "{t}");
    }
    let errors = r.errors("null-dereference");
    assert_eq!(errors.len(), 2, "one per argument count");
    for e in errors {
        assert_eq!(e["outcome"]["line"].as_u64().unwrap(), line_of(src, "NULL"));
        assert!(e["outcome"]["message"]
            .as_str()
            .unwrap()
            .contains("on a path through havocked results of"));
    }
}

#[test]
fn error_stack_names_the_call_chain() {
    let src = &program("error_kinds/error_stack_names_the_call_chain.c");
    let r = expect_errors(src, &[], &[("null-dereference", "STORE")]);
    let stack = r.errors("null-dereference")[0]["outcome"]["stack"]
        .as_array()
        .unwrap()
        .clone();
    let fns: Vec<&str> = stack
        .iter()
        .map(|f| f["function"].as_str().unwrap())
        .collect();
    assert_eq!(fns, vec!["inner", "outer", "main"]);
    assert_eq!(stack[1]["line"].as_u64().unwrap(), line_of(src, "CALL"));
}

/// Integers wider than 128 bits (a packed struct's bit-fields as one storage unit, a `_BitInt`) are
/// supported on concrete values only: a symbolic value reaching one ends the path as
/// unsupported, while the concrete path completes.
#[test]
fn symbolic_value_in_wide_integer_is_unsupported() {
    // clang 19 splits the bit-fields into storage units of at most 128 bits: there, an
    // `unsigned _BitInt(200)` (clang 14 has none wider than 128 bits) is the wide integer.
    let src = &program(if augur_ir::LLVM_VERSION >= 19 {
        "error_kinds/symbolic_value_in_wide_integer_is_unsupported_bitint.c"
    } else {
        "error_kinds/symbolic_value_in_wide_integer_is_unsupported.c"
    });
    let r = expect_errors(src, &[], &[("unsupported", "WIDE")]);
    let msg = r.errors("unsupported")[0]["outcome"]["message"].clone();
    assert_eq!(
        msg, "integers wider than 128 bits are only supported on concrete values",
        "{msg}"
    );
    assert!(r.tests.iter().any(|t| t["stdout"] == "9\n"));
}

#[test]
fn misuses_of_make_symbolic_end_their_paths_with_clear_errors() {
    // KLEE's test/Feature/MakeSymbolicAPI.c, with implicit declarations as there.
    let src = &program("error_kinds/misuses_of_make_symbolic_end_their_paths_with_clear_errors.c");
    let r = expect_errors(
        src,
        &[],
        &[
            ("user", "INVALID"),
            ("user", "SYMBOLIC"),
            ("unsupported", "MISSING"),
        ],
    );
    let messages: Vec<&str> = r.summary["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert!(messages.contains(&"invalid string pointer 0xf passed as a name"));
    assert!(messages.contains(&"symbolic string pointer passed as a name"));
    assert!(messages.contains(
        &"`klee_make_symbolic` called with 2 arguments; augur's model takes 3 (pointer, integer, pointer)"
    ));
    // An empty name is renamed, as KLEE does.
    assert_eq!(r.tests[0]["objects"][0]["name"], "unnamed");
}
