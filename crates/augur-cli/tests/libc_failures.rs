//! `--max-fail N`: system calls of the modelled OS fail, up to N times per path, and the
//! error handling of coreutils-style programs (read's -1 and errno, close_stdout's
//! "write error") is explored; which call failed is in each test (`fail:KIND`), and every
//! test fails the same call natively on replay.

mod common;
use common::*;
use std::collections::BTreeSet;

const HEADERS: &str = include_str!("programs/libc_failures/headers.c");

/// The failing call of a test (`read 2`), or `none`.
fn failed_call(test: &serde_json::Value) -> String {
    let failed: Vec<String> = test["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| {
            let kind = o["name"].as_str()?.strip_prefix("fail:")?;
            let n = Run::int_of(test, o["name"].as_str()?);
            (n != 0).then(|| format!("{kind} {n}"))
        })
        .collect();
    if failed.is_empty() {
        "none".into()
    } else {
        failed.join(", ")
    }
}

/// Each test as (failing call, exit code, stderr).
fn outcomes(r: &Run) -> BTreeSet<(String, i64, String)> {
    r.tests
        .iter()
        .map(|t| {
            assert_eq!(t["outcome"]["kind"], "exit", "{t}");
            (
                failed_call(t),
                t["outcome"]["code"].as_i64().unwrap(),
                t["stderr"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn set(items: &[(&str, i64, &str)]) -> BTreeSet<(String, i64, String)> {
    items
        .iter()
        .map(|(c, code, e)| (c.to_string(), *code, e.to_string()))
        .collect()
}

/// cat's shape: open, fstat, read until 0, write what was read, close; close_stdout at exit.
const COPY: &str = include_str!("programs/libc_failures/copy.c");

#[test]
fn each_call_of_a_file_copy_may_fail_once() {
    let src = [HEADERS, CLOSE_STDOUT_C, COPY].concat();
    let r = run_c(&src, &["--sym-files", "1", "3", "--max-fail", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Calls: open, fstat, read (3 bytes), write, read (0), close A, close stdout (at exit).
    let want = set(&[
        ("none", 0, ""),
        ("open 1", 2, "prog: A: Permission denied\n"),
        ("stat 1", 3, "prog: A: fstat: Cannot allocate memory\n"),
        ("read 1", 5, "prog: A: read error: Input/output error\n"),
        ("write 1", 1, "prog: write error\n"),
        ("read 2", 5, "prog: A: read error: Input/output error\n"),
        ("close 1", 6, "prog: A: close: Input/output error\n"),
        ("close 2", 1, "prog: write error: Input/output error\n"),
    ]);
    assert_eq!(outcomes(&r), want);
    assert_eq!(r.tests.len(), want.len());
    // What was written before the failure stays written.
    for t in &r.tests {
        let copied = object_bytes(t, "file:A");
        let stdout = t["stdout"].as_str().unwrap();
        match failed_call(t).as_str() {
            "open 1" | "stat 1" | "read 1" | "write 1" => assert_eq!(stdout, ""),
            _ => assert_eq!(stdout.len(), escaped_len(&copied), "{t}"),
        }
    }
    r.assert_native_replay_passes();
}

/// The length of `bytes` as augur's tests write stdout (other than UTF-8 as `\xNN`).
fn escaped_len(bytes: &[u8]) -> usize {
    augur_engine::escape_bytes(bytes).len()
}

#[test]
fn without_max_fail_nothing_fails() {
    let src = [HEADERS, CLOSE_STDOUT_C, COPY].concat();
    for args in [
        &["--sym-files", "1", "3"][..],
        &["--sym-files", "1", "3", "--max-fail", "0"][..],
    ] {
        let r = run_c(&src, args);
        assert_eq!(r.status, 0, "{}", r.stderr);
        assert_eq!(outcomes(&r), set(&[("none", 0, "")]));
        let names = object_names(&r.tests[0]);
        assert_eq!(names, ["file:A"]);
        r.assert_native_replay_passes();
    }
}

/// Standard input through stdio (buffered reads), output by putchar and puts.
const ECHO_STDIN: &str = include_str!("programs/libc_failures/echo_stdin.c");

#[test]
fn stdin_and_stdout_through_stdio_may_fail() {
    let src = [HEADERS, CLOSE_STDOUT_C, ECHO_STDIN].concat();
    let r = run_c(&src, &["--sym-stdin", "1", "--max-fail", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Calls: fstat, read (1 byte), write (putchar), read (0), write (puts' newline),
    // close stdout (at exit).
    let want = set(&[
        ("none", 0, ""),
        ("stat 1", 5, "prog: fstat: Cannot allocate memory\n"),
        ("read 1", 3, "prog: read error: Input/output error\n"),
        ("write 1", 1, "prog: write error\n"),
        ("read 2", 3, "prog: read error: Input/output error\n"),
        ("write 2", 1, "prog: write error\n"),
        ("close 1", 1, "prog: write error: Input/output error\n"),
    ]);
    assert_eq!(outcomes(&r), want);
    assert_eq!(r.tests.len(), want.len());
    r.assert_native_replay_passes();
}

#[test]
fn two_failures_on_one_path() {
    let src = [HEADERS, CLOSE_STDOUT_C, ECHO_STDIN].concat();
    let r = run_c(&src, &["--sym-stdin", "1", "--max-fail", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let calls: BTreeSet<String> = r.tests.iter().map(failed_call).collect();
    // Failing calls in object order (read, write, open, close, lseek, stat, ftruncate):
    // the exit's close of stdout after a failed read or fstat; a failed putchar, then the
    // end-of-file read; error()'s own writes to stderr after a failed read.
    for both in [
        "read 1, close 1",
        "close 1, stat 1",
        "read 2, write 1",
        "read 1, write 1",
    ] {
        assert!(calls.contains(both), "{both} not in {calls:?}");
    }
    assert!(
        calls.iter().all(|c| c.split(", ").count() <= 2),
        "{calls:?}"
    );
    r.assert_native_replay_passes();
}

/// A file read through a stream of its own (fopen, fgets, fclose), a count printed.
const COUNT_LINES: &str = include_str!("programs/libc_failures/count_lines.c");

#[test]
fn a_stream_the_program_opens_may_fail() {
    let src = [HEADERS, COUNT_LINES].concat();
    let r = run_c(&src, &["--sym-files", "1", "2", "--max-fail", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Calls: open, read (2 bytes), read (0), close A, write (printf), close stdout. An
    // unchecked printf's failure goes unnoticed (exit 0).
    let ends: BTreeSet<(String, i64)> = outcomes(&r).into_iter().map(|o| (o.0, o.1)).collect();
    let want: BTreeSet<(String, i64)> = [
        ("none", 0),
        ("open 1", 2),
        ("read 1", 3),
        ("read 2", 3),
        ("close 1", 4),
        ("write 1", 0),
        ("close 2", 1),
    ]
    .iter()
    .map(|(c, code)| (c.to_string(), *code))
    .collect();
    assert_eq!(ends, want);
    r.assert_native_replay_passes();
}

#[test]
fn an_error_that_needs_a_failing_read_reproduces_natively() {
    let src = &program("libc_failures/an_error_that_needs_a_failing_read_reproduces_natively.c");
    let r = run_c(src, &["--sym-files", "1", "4", "--max-fail", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let errors = r.errors("out-of-bounds");
    assert_eq!(errors.len(), 1, "{:?}", r.tests);
    assert_eq!(errors[0]["outcome"]["line"], line_of(src, "BUG"));
    assert_eq!(failed_call(errors[0]), "read 1");
    // Without failures the bug is out of reach.
    let clean = run_c(src, &["--sym-files", "1", "4"]);
    assert!(clean.errors("out-of-bounds").is_empty());
    r.assert_native_replay_passes();
}

#[test]
fn the_empty_path_names_no_file_even_to_create() {
    // uniq's `uniq - ''` asks freopen("", "w", stdout): ENOENT on Linux.
    let src = &program("libc_failures/the_empty_path_names_no_file_even_to_create.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.exit_codes(), [0]);
    r.assert_native_replay_passes();
}

#[test]
fn a_directory_stream_fails_as_glibc_s() {
    // glibc's opendir opens the directory and fstats it; closedir closes it.
    let src = [
        HEADERS,
        r#"
#include <dirent.h>
int main(void) {
  int n = 0;
  DIR *d = opendir(".");
  if (!d) error(2, errno, "cannot open directory");
  while (readdir(d)) n++;
  if (closedir(d) != 0) error(3, errno, "cannot close directory");
  return n > 2 ? 0 : 4;
}
"#,
    ]
    .concat();
    let r = run_c(&src, &["--sym-files", "1", "2", "--max-fail", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let want = set(&[
        ("none", 0, ""),
        (
            "open 1",
            2,
            "prog: cannot open directory: Permission denied\n",
        ),
        (
            "stat 1",
            2,
            "prog: cannot open directory: Cannot allocate memory\n",
        ),
        (
            "close 1",
            3,
            "prog: cannot close directory: Input/output error\n",
        ),
    ]);
    assert_eq!(outcomes(&r), want);
    r.assert_native_replay_passes();
}
