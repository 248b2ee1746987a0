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
    let src = r#"
#include <assert.h>
#include <stdlib.h>
#include <augur.h>
void reach_error(void);
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x == 1) assert(x != 1); /* ASSERT */
  if (x == 2) abort();        /* ABORT */
  if (x == 3) reach_error();  /* REACH */
  augur_assert(x != 4);       /* AUGUR_ASSERT */
  return 0;
}
"#;
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
    let src = r#"
#include <stdlib.h>
#include <augur.h>
int g[4];
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int local[3] = {0};
  int *p = malloc(4 * sizeof(int));
  int *null = 0;
  if (x == 1) return *null;        /* NULL */
  if (x == 2) return p[4];         /* HEAP_OOB */
  if (x == 3) return local[x];     /* STACK_OOB */
  if (x == 4) g[x] = 1;            /* GLOBAL_OOB */
  if (x == 5) { free(p); return p[0]; } /* UAF */
  if (x == 6) { free(p); free(p); }     /* DOUBLE */
  if (x == 7) free(p + 1);              /* INVALID */
  if (x == 8) free(local);              /* INVALID_STACK */
  return 0;
}
"#;
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
    let src = r#"
#include <augur.h>
int ext(int);
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int y; augur_make_symbolic(&y, sizeof y, "y");
  if (x == 1) return 100 / y;           /* DIV */
  if (x == 2) __builtin_unreachable();  /* UNREACH */
  if (x == 3) { int (*f)(void) = (int (*)(void))(long)y; return f(); } /* FPTR */
  if (x == 4) return ext(x);            /* EXT */
  if (x == 5) augur_assume(y != y);     /* ASSUME */
  return 0;
}
"#;
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
    let src = r#"
int ext(void);
void log_it(int);
int main(int argc, char **argv) {
  if (argc > 1) log_it(argc);
  if (ext() == 42) { int *p = 0; return *p; } /* NULL */
  return 0;
}
"#;
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
    let src = r#"
#include <augur.h>
void inner(int *p) { *p = 1; } /* STORE */
void outer(int *p) { inner(p); } /* CALL */
int main(void) { outer(0); return 0; } /* MAIN */
"#;
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
    // clang 19 splits these bit-fields into storage units of at most 128 bits: there, an
    // `unsigned _BitInt(200)` (clang 14 has none wider than 128 bits) is the wide integer.
    let src = if augur_ir::LLVM_VERSION >= 19 {
        WIDE_BITINT
    } else {
        WIDE_BITFIELDS
    };
    let r = expect_errors(src, &[], &[("unsupported", "WIDE")]);
    let msg = r.errors("unsupported")[0]["outcome"]["message"].clone();
    assert_eq!(
        msg, "integers wider than 128 bits are only supported on concrete values",
        "{msg}"
    );
    assert!(r.tests.iter().any(|t| t["stdout"] == "9\n"));
}

const WIDE_BITINT: &str = r#"
#include <stdio.h>
#include <augur.h>
unsigned _BitInt(200) g = 1;
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x > 3) g = g * (unsigned _BitInt(200))x; /* WIDE */
  else g = 9;
  printf("%u\n", (unsigned)g);
  return 0;
}
"#;

const WIDE_BITFIELDS: &str = r#"
#include <stdio.h>
#include <augur.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
#pragma pack(pop)
struct S g = {1, 2, 3, 4, 5, 6};
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x > 3) g.f2 = x; /* WIDE */
  else g.f1 = 9;
  printf("%u\n", g.f1);
  return 0;
}
"#;

#[test]
fn misuses_of_make_symbolic_end_their_paths_with_clear_errors() {
    // KLEE's test/Feature/MakeSymbolicAPI.c, with implicit declarations as there.
    let src = r#"
int main() {
  unsigned a, b, c;
  char *p;
  const char *invalid_pointer = (const char *)0xf;
  klee_make_symbolic(&a, sizeof(a), "");
  klee_make_symbolic(&p, sizeof(p), "p");
  if (a == 2)
    klee_make_symbolic(&c, sizeof(c), invalid_pointer); /* INVALID */
  if (a == 3)
    klee_make_symbolic(&c, sizeof(c), p); /* SYMBOLIC */
  klee_make_symbolic(&b, sizeof(b)); /* MISSING */
  return 0;
}
"#;
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
