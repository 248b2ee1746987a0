//! The C library's locale, multibyte, process and option-parsing functions, used the way GNU
//! coreutils uses them: exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

/// Count of tests per (exit code, stdout, stderr).
fn outcomes(r: &Run) -> std::collections::BTreeMap<(i64, String, String), usize> {
    let mut m = std::collections::BTreeMap::new();
    for t in &r.tests {
        let key = (
            t["outcome"]["code"].as_i64().unwrap_or(-1),
            t["stdout"].as_str().unwrap_or_default().to_string(),
            t["stderr"].as_str().unwrap_or_default().to_string(),
        );
        *m.entry(key).or_default() += 1;
    }
    m
}

#[test]
fn c_locale_multibyte_scan_of_stdin_is_exact_and_replays() {
    let src = &program("libc_locale/c_locale_multibyte_scan_of_stdin_is_exact_and_replays.c");
    let r = run_c(src, &["--sym-stdin", "3"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    // Per byte: invalid (>= 0x80), printable, or not: every combination of 3 bytes.
    let o = outcomes(&r);
    let head = "C ANSI_X3.4-1968 1\n";
    let bad =
        |k: i64| format!("prog: {k} invalid: Invalid or incomplete multibyte or wide character\n");
    let count = |code: i64, printable: &str, stderr: String| {
        o.get(&(code, format!("{head}{printable}\n"), stderr))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(count(0, "3 printable bytes", String::new()), 1);
    assert_eq!(count(3, "0 printable bytes", bad(3)), 1);
    assert_eq!(count(1, "2 printable bytes", bad(1)), 3);
    assert_eq!(count(2, "1 printable byte", bad(2)), 3);
    assert_eq!(o.len(), 10, "{o:?}");
    assert_eq!(r.tests.len(), 64);
    assert!(r.errors("abort").is_empty());
    r.assert_native_replay_passes();
}

#[test]
fn error_names_the_program_from_argv0_like_glibc() {
    let src = &program("libc_locale/error_names_the_program_from_argv0_like_glibc.c");
    let r = run_c(src, &["--sym-args", "0", "1", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let o = outcomes(&r);
    let stderr = "prog: missing: No such file or directory\n";
    assert_eq!(
        o.get(&(4, "prog|prog\n".into(), stderr.into())).copied(),
        Some(r.tests.len() - 1),
        "{o:?}"
    );
    let quiet = format!("prog:in.txt:7: quiet -q\n{stderr}");
    assert_eq!(
        o.get(&(4, "prog|prog\n".into(), quiet)).copied(),
        Some(1),
        "{o:?}"
    );
    r.assert_native_replay_passes();
}

#[test]
fn coreutils_style_wc_runs_without_false_alarms() {
    // The calls GNU wc makes first (setlocale, bindtextdomain, textdomain,
    // atexit(close_stdout), getopt_long, fstat, posix_fadvise, read, mbrtowc, iswspace,
    // iswprint, __fpending, fclose, error), on symbolic options and input.
    let headers = &program("libc_locale/coreutils_style_wc_runs_without_false_alarms_headers.c");
    let body = &program("libc_locale/coreutils_style_wc_runs_without_false_alarms_body.c");
    let src = [headers, CLOSE_STDOUT_C, body].concat();
    let r = run_c(&src, &["--sym-args", "0", "1", "2", "--sym-stdin", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.tests.len(), 570);
    assert!(
        r.tests.iter().all(|t| t["outcome"]["kind"] == "exit"),
        "no errors: {}",
        r.stderr
    );
    let mut codes = r.exit_codes();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, vec![0, 1]);
    // An unknown option names the program as error() does.
    assert!(r.tests.iter().any(|t| t["stderr"]
        .as_str()
        .unwrap()
        .ends_with("prog: Try 'prog --help' for more information.\n")));
    r.assert_native_replay_passes();
}

#[test]
fn getopt_long_permutes_operands_like_glibc() {
    let src = &program("libc_locale/getopt_long_permutes_operands_like_glibc.c");
    let r = run_c(src, &["--", "a", "-l", "b", "--lines", "--", "-l"]);
    assert_eq!(r.exit_codes(), vec![0]);
    assert_eq!(r.tests[0]["stdout"], "lines=2 operands: a b -l\n");
    r.assert_native_replay_passes();
}
