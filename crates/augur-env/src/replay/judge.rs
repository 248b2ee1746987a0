//! Comparing a native run with what `augur run` predicted for the test.

use super::native::{NativeRun, Status, EXIT_ASSUME, EXIT_NO_OBJECT, EXIT_REACH_ERROR};
use augur_engine::{escape_bytes, MAX_KEPT_OUTPUT};

/// What a test predicts (from its JSON `outcome` and `stdout`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// The program exits with `code`; when `stdout` is known, it writes exactly that
    /// (as escaped text: UTF-8, other bytes as `\xNN`), followed by `stdout_dropped`
    /// more bytes (the analysis keeps the first [`MAX_KEPT_OUTPUT`] only).
    Exit {
        /// The exit code (compared modulo 256).
        code: i64,
        /// The predicted standard output, escaped.
        stdout: Option<String>,
        /// How many bytes follow the predicted ones.
        stdout_dropped: u64,
    },
    /// The process is ended by this signal (its default action).
    Signal(i32),
    /// The path ends in an error of this kind (`assertion`, `out-of-bounds`, ...).
    Error(String),
    /// The path was cut short: nothing to check.
    Partial,
}

/// The verdict on one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The native run agrees; what it did.
    Passed(String),
    /// A test with no prediction (a bare `.ktest`) ran; what it did. Counts as passed.
    Ran(String),
    /// The native run disagrees; how.
    Failed(String),
    /// The native run disagrees, and a second native run of the same test differs from
    /// the first: the program itself is nondeterministic on it (a name drawn from a
    /// stack address and a clock, as mktemp's), so no prediction can hold; how.
    Unstable(String),
    /// Nothing checkable; why.
    Skipped(String),
}

const SIGNALS: &[(i32, &str)] = &[
    (4, "SIGILL"),
    (5, "SIGTRAP"),
    (6, "SIGABRT"),
    (7, "SIGBUS"),
    (8, "SIGFPE"),
    (9, "SIGKILL"),
    (11, "SIGSEGV"),
    (13, "SIGPIPE"),
    (15, "SIGTERM"),
];

fn signal_name(sig: i32) -> String {
    SIGNALS
        .iter()
        .find(|(n, _)| *n == sig)
        .map(|(_, s)| s.to_string())
        .unwrap_or_else(|| format!("signal {sig}"))
}

/// The sanitizer report in `stderr`, shortened: `AddressSanitizer: heap-buffer-overflow`,
/// `AddressSanitizer: attempting double-free` or `UBSan: division by zero`.
pub fn sanitizer_report(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    for line in text.lines() {
        if let Some(i) = line.find("ERROR: AddressSanitizer: ") {
            let rest = &line[i + "ERROR: ".len()..];
            let short = rest.split(" on ").next().unwrap_or(rest);
            return Some(short.trim_end_matches(':').to_string());
        }
        if let Some(i) = line.find("runtime error: ") {
            return Some(format!("UBSan: {}", &line[i + "runtime error: ".len()..]));
        }
    }
    None
}

/// The runtime's own message (`augur-replay: ...`) in `stderr`, if any.
fn runtime_message(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find_map(|l| l.strip_prefix("augur-replay: "))
        .filter(|m| !m.starts_with("warning:"))
        .map(str::to_string)
}

/// What a native run did, in a few words.
pub fn describe(run: &NativeRun, timeout_s: f64) -> String {
    if let Some(report) = sanitizer_report(&run.stderr) {
        return report;
    }
    match run.status {
        Status::Exit(c) => match runtime_message(&run.stderr) {
            Some(m) if c == EXIT_NO_OBJECT || c == EXIT_ASSUME => format!("exit {c} ({m})"),
            _ if c == EXIT_REACH_ERROR => format!("exit {c} (reach_error() called)"),
            _ => format!("exit {c}"),
        },
        Status::Signal(s) => signal_name(s),
        Status::Timeout => format!("timeout after {timeout_s} s"),
    }
}

/// Characters shown of each side of an output that differs.
const EXCERPT_CHARS: usize = 60;
/// Characters of common text kept before the first difference, for context.
const EXCERPT_CONTEXT: usize = 20;

/// Short text, for messages: `s` from character `from`, escaped and cut at
/// `EXCERPT_CHARS` characters, with "..." where something was left out.
fn excerpt(s: &str, from: usize) -> String {
    let cut: String = s.chars().skip(from).take(EXCERPT_CHARS).collect();
    let before = if from > 0 { "..." } else { "" };
    let after = if from + cut.chars().count() < s.chars().count() {
        "..."
    } else {
        ""
    };
    format!("{before}{cut:?}{after}")
}

/// How an expected output and a native one differ, for messages: both shown from a little
/// before the first character where they part.
fn stdout_difference(want: &str, got: &str) -> String {
    let common = want
        .chars()
        .zip(got.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let from = common.saturating_sub(EXCERPT_CONTEXT);
    format!(
        "expected stdout {}, got {}",
        excerpt(want, from),
        excerpt(got, from)
    )
}

fn check_exit(
    code: i64,
    stdout: Option<&str>,
    dropped: u64,
    run: &NativeRun,
    timeout_s: f64,
) -> Verdict {
    let got = describe(run, timeout_s);
    let want = (code & 0xff) as i32;
    let exited = run.status == Status::Exit(want) && sanitizer_report(&run.stderr).is_none();
    if !exited {
        return Verdict::Failed(format!("expected exit {want}, got {got}"));
    }
    let Some(s) = stdout else {
        return Verdict::Passed(got);
    };
    // A prediction that stops at the kept bytes is checked on as many native ones, and on
    // the whole output's length.
    let shown = match dropped {
        0 => &run.stdout[..],
        _ => &run.stdout[..run.stdout.len().min(MAX_KEPT_OUTPUT)],
    };
    let total = if dropped == 0 {
        None
    } else {
        Some(MAX_KEPT_OUTPUT as u64 + dropped)
    };
    if escape_bytes(shown) != s {
        return Verdict::Failed(stdout_difference(s, &escape_bytes(shown)));
    }
    match total {
        Some(n) if run.stdout.len() as u64 != n => Verdict::Failed(format!(
            "expected {n} bytes of stdout, got {}",
            run.stdout.len()
        )),
        _ => Verdict::Passed(got),
    }
}

/// Whether `run` was killed by one of the signals `set`.
fn sig(run: &NativeRun, set: &[i32]) -> bool {
    matches!(run.status, Status::Signal(s) if set.contains(&s))
}

/// Whether a native run (with its sanitizer report, if any) shows an error.
type Shows = fn(&NativeRun, Option<&str>) -> bool;

/// How a native run shows an error of `kind`: a description for messages, and whether
/// `run` shows it; `None` when the kind cannot be checked natively.
fn error_check(kind: &str) -> Option<(&'static str, Shows)> {
    Some(match kind {
        "assertion" | "abort" => ("SIGABRT", |r, _| sig(r, &[6])),
        "reach-error" => ("exit 98 or SIGABRT", |r, _| {
            r.status == Status::Exit(EXIT_REACH_ERROR) || sig(r, &[6])
        }),
        "null-dereference"
        | "out-of-bounds"
        | "use-after-free"
        | "double-free"
        | "invalid-free"
        | "bad-function-pointer" => ("a sanitizer report or SIGSEGV/SIGBUS/SIGABRT", |r, rep| {
            rep.is_some() || sig(r, &[4, 6, 7, 11])
        }),
        "division-by-zero" => ("a division-by-zero report or SIGFPE", |r, rep| {
            rep.is_some_and(|m| m.contains("division by zero") || m.contains("FPE")) || sig(r, &[8])
        }),
        "unreachable" => ("an unreachable report or SIGILL/SIGTRAP", |r, rep| {
            rep.is_some_and(|m| m.contains("unreachable")) || sig(r, &[4, 5])
        }),
        "invalid-assume" => ("exit 97", |r, _| r.status == Status::Exit(EXIT_ASSUME)),
        _ => return None,
    })
}

/// Whether a test of this expectation can be checked at all (else why not).
pub fn uncheckable(expect: &Expect) -> Option<String> {
    match expect {
        Expect::Partial => Some("partial path".into()),
        Expect::Error(kind) if error_check(kind).is_none() => {
            Some(format!("{kind} cannot be checked natively"))
        }
        _ => None,
    }
}

/// Judge a native run against the prediction.
pub fn judge(expect: &Expect, run: &NativeRun, timeout_s: f64) -> Verdict {
    if let Some(why) = uncheckable(expect) {
        return Verdict::Skipped(why);
    }
    match expect {
        Expect::Exit {
            code,
            stdout,
            stdout_dropped,
        } => check_exit(*code, stdout.as_deref(), *stdout_dropped, run, timeout_s),
        Expect::Error(kind) => {
            let (want, shows) = error_check(kind).expect("checked by uncheckable");
            let got = describe(run, timeout_s);
            let report = sanitizer_report(&run.stderr);
            if run.status != Status::Timeout && shows(run, report.as_deref()) {
                Verdict::Passed(format!("{kind}: {got}"))
            } else {
                Verdict::Failed(format!("expected {kind} ({want}), got {got}"))
            }
        }
        Expect::Signal(want) => {
            let got = describe(run, timeout_s);
            if run.status == Status::Signal(*want) && sanitizer_report(&run.stderr).is_none() {
                Verdict::Passed(got)
            } else {
                Verdict::Failed(format!("expected {}, got {got}", signal_name(*want)))
            }
        }
        Expect::Partial => unreachable!("partial paths are skipped above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(status: Status, stdout: &[u8], stderr: &str) -> NativeRun {
        NativeRun {
            status,
            stdout: stdout.to_vec(),
            stderr: stderr.as_bytes().to_vec(),
            outputs: Vec::new(),
        }
    }

    fn exit(code: i64, stdout: Option<&str>) -> Expect {
        Expect::Exit {
            code,
            stdout: stdout.map(String::from),
            stdout_dropped: 0,
        }
    }

    #[test]
    fn a_differing_stdout_is_shown_where_it_parts() {
        let want = format!("{}session 1\\n", "line\\n".repeat(20));
        let got = format!("{}session 0\\n", "line\\n".repeat(20));
        assert_eq!(
            stdout_difference(&want, &got),
            "expected stdout ...\"line\\\\nline\\\\nsession 1\\\\n\", \
             got ...\"line\\\\nline\\\\nsession 0\\\\n\""
        );
        assert_eq!(
            stdout_difference("a", "b"),
            "expected stdout \"a\", got \"b\""
        );
    }

    #[test]
    fn exit_codes_compare_modulo_256() {
        let r = run(Status::Exit(255), b"", "");
        assert_eq!(
            judge(&exit(-1, None), &r, 10.0),
            Verdict::Passed("exit 255".into())
        );
        assert_eq!(
            judge(&exit(3, None), &r, 10.0),
            Verdict::Failed("expected exit 3, got exit 255".into())
        );
    }

    #[test]
    fn stdout_compares_escaped_bytes() {
        let r = run(Status::Exit(0), b"a\xffb\n", "");
        assert!(matches!(
            judge(&exit(0, Some("a\\xffb\n")), &r, 1.0),
            Verdict::Passed(_)
        ));
        assert!(matches!(
            judge(&exit(0, Some("a\\xfeb\n")), &r, 1.0),
            Verdict::Failed(_)
        ));
    }

    #[test]
    fn a_prediction_of_kept_bytes_checks_their_prefix_and_the_length() {
        let mut out = vec![b'y'; MAX_KEPT_OUTPUT];
        out.extend_from_slice(b"tail");
        let r = run(Status::Exit(0), &out, "");
        let kept = "y".repeat(MAX_KEPT_OUTPUT);
        let prefix = |dropped| Expect::Exit {
            code: 0,
            stdout: Some(kept.clone()),
            stdout_dropped: dropped,
        };
        assert!(matches!(judge(&prefix(4), &r, 1.0), Verdict::Passed(_)));
        assert_eq!(
            judge(&prefix(5), &r, 1.0),
            Verdict::Failed(format!(
                "expected {} bytes of stdout, got {}",
                MAX_KEPT_OUTPUT + 5,
                MAX_KEPT_OUTPUT + 4
            ))
        );
        assert!(matches!(judge(&prefix(0), &r, 1.0), Verdict::Failed(_)));
    }

    #[test]
    fn a_signal_is_checked_by_number() {
        let killed = run(Status::Signal(15), b"", "");
        assert_eq!(
            judge(&Expect::Signal(15), &killed, 1.0),
            Verdict::Passed("SIGTERM".into())
        );
        assert_eq!(
            judge(&Expect::Signal(1), &killed, 1.0),
            Verdict::Failed("expected signal 1, got SIGTERM".into())
        );
        assert!(matches!(
            judge(&Expect::Signal(15), &run(Status::Exit(0), b"", ""), 1.0),
            Verdict::Failed(_)
        ));
    }

    #[test]
    fn a_sanitizer_report_is_not_an_exit() {
        let r = run(
            Status::Exit(1),
            b"",
            "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1 at pc 0x2",
        );
        assert_eq!(
            judge(&exit(1, None), &r, 1.0),
            Verdict::Failed("expected exit 1, got AddressSanitizer: heap-buffer-overflow".into())
        );
        let oob = Expect::Error("out-of-bounds".into());
        assert!(matches!(judge(&oob, &r, 1.0), Verdict::Passed(_)));
        let df = "==1==ERROR: AddressSanitizer: attempting double-free on 0x6 in thread T0:";
        assert_eq!(
            sanitizer_report(df.as_bytes()).as_deref(),
            Some("AddressSanitizer: attempting double-free")
        );
    }

    #[test]
    fn error_kinds() {
        let abrt = run(Status::Signal(6), b"", "");
        let div = run(
            Status::Exit(1),
            b"",
            "p.c:3:9: runtime error: division by zero\n",
        );
        let e = |k: &str| Expect::Error(k.into());
        assert!(matches!(
            judge(&e("assertion"), &abrt, 1.0),
            Verdict::Passed(_)
        ));
        assert!(matches!(
            judge(&e("reach-error"), &abrt, 1.0),
            Verdict::Passed(_)
        ));
        assert!(matches!(
            judge(&e("division-by-zero"), &div, 1.0),
            Verdict::Passed(_)
        ));
        assert!(matches!(
            judge(&e("division-by-zero"), &abrt, 1.0),
            Verdict::Failed(_)
        ));
        assert!(matches!(
            judge(&e("assertion"), &div, 1.0),
            Verdict::Failed(_)
        ));
        let assume = run(
            Status::Exit(97),
            b"",
            "augur-replay: assumption false on replay\n",
        );
        assert!(matches!(
            judge(&e("invalid-assume"), &assume, 1.0),
            Verdict::Passed(_)
        ));
        assert!(matches!(
            judge(&e("unsupported"), &assume, 1.0),
            Verdict::Skipped(_)
        ));
        assert!(matches!(
            judge(&Expect::Partial, &assume, 1.0),
            Verdict::Skipped(_)
        ));
        let slow = run(Status::Timeout, b"", "");
        assert_eq!(
            judge(&exit(0, None), &slow, 2.5),
            Verdict::Failed("expected exit 0, got timeout after 2.5 s".into())
        );
    }
}
