//! End-to-end tests of `augur record` and `augur repro`: one crashing program per kind of
//! hard-to-resolve function (tests/repro/*.c), each crash three frames deep. The field run
//! is real: the recorded binary crashes under ASan/UBSan, leaving its report and its log.

mod common;

use common::augur;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A program of tests/repro and how it crashes in the field.
struct Case {
    name: &'static str,
    /// The crashing input (argv[1]).
    input: &'static str,
    /// Native-only files (`--link`).
    link: &'static [&'static str],
    /// Functions `--list` must mark hard.
    hard: &'static [&'static str],
    /// Bytes of each symbolic argument for `augur repro`.
    sym_arg: &'static str,
}

/// The recorded program's field run: binary, log and crash report in a directory.
struct Field {
    dir: tempfile::TempDir,
    case: &'static Case,
}

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/repro")
        .join(format!("{name}.c"))
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout)
}

impl Field {
    /// Record `case`, run it on its crashing input (sanitizer report to `report.txt`, log
    /// to `field.augurlog`).
    fn run(case: &'static Case) -> Field {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join(case.name);
        let mut cmd = augur();
        cmd.arg("record").arg(source(case.name)).arg("-o").arg(&bin);
        for l in case.link {
            cmd.arg("--link").arg(source(l));
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", text(&o));
        let run = Command::new(&bin)
            .arg(case.input)
            .env("AUGUR_LOG", dir.path().join("field.augurlog"))
            .env("GREET_MODE", "wide")
            .env("ASAN_OPTIONS", "detect_leaks=0")
            .output()
            .unwrap();
        assert!(!run.status.success(), "{} did not crash", case.name);
        std::fs::write(dir.path().join("report.txt"), &run.stderr).unwrap();
        Field { dir, case }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("field.augurlog")
    }

    fn report(&self) -> PathBuf {
        self.dir.path().join("report.txt")
    }

    /// `augur repro` with `extra` options; returns (exit status, repro.json, output).
    fn repro(&self, extra: &[&str], out: &str) -> (i32, Json, String) {
        let out = self.dir.path().join(out);
        let mut cmd = augur();
        cmd.arg("repro")
            .arg(source(self.case.name))
            .arg("--crash")
            .arg(self.report())
            .args(["--sym-arg", self.case.sym_arg, "-o"])
            .arg(&out)
            .args(extra);
        for l in self.case.link {
            cmd.arg("--link").arg(source(l));
        }
        let o = cmd.output().unwrap();
        let json = std::fs::read(out.join("repro.json"))
            .map(|b| serde_json::from_slice(&b).unwrap())
            .unwrap_or(Json::Null);
        (o.status.code().unwrap_or(-1), json, text(&o))
    }

    fn repro_with_log(&self) -> (i32, Json, String) {
        let log = self.log();
        self.repro(
            &["--log", log.to_str().unwrap(), "--max-time", "60"],
            "with-log",
        )
    }
}

/// `augur record NAME.c --list`'s output.
fn listing(name: &str) -> String {
    let o = augur()
        .arg("record")
        .arg(source(name))
        .arg("--list")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `--list` marks the expected functions hard, and only those.
fn assert_hard(case: &Case) {
    let listing = listing(case.name);
    let mut hard: Vec<&str> = listing
        .lines()
        .filter_map(|l| l.strip_prefix("hard "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    hard.sort();
    assert_eq!(hard, case.hard, "{listing}");
}

/// The log holds the hard functions' results only: not the input's bytes.
fn assert_log_private(field: &Field) {
    let log = std::fs::read(field.log()).unwrap();
    let input = field.case.input.as_bytes();
    assert!(
        !log.windows(input.len()).any(|w| w == input),
        "the log holds the input {:?}",
        field.case.input
    );
    let o = augur()
        .arg("record")
        .arg("--show")
        .arg(field.log())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}

/// The field run of `case` after checking the analysis' choice, its log checked private.
fn recorded(case: &'static Case) -> Field {
    assert_hard(case);
    let field = Field::run(case);
    assert_log_private(&field);
    field
}

/// The reproduction verified natively: status, the test written, the frames matched.
fn assert_reproduced(r: &(i32, Json, String), status: &str, frames: usize) {
    let (code, json, out) = r;
    assert_eq!(*code, 0, "{out}");
    assert_eq!(json["status"], status, "{out}");
    assert_eq!(json["frames"].as_array().unwrap().len(), frames, "{json}");
    assert_eq!(json["test"], "test000001.json");
    assert!(
        json["command"].as_str().unwrap().starts_with("./"),
        "{json}"
    );
}

fn assert_not_reproduced(r: &(i32, Json, String)) {
    let (code, json, out) = r;
    assert_eq!(*code, 1, "{out}");
    assert_eq!(json["status"], "not-reproduced", "{out}");
}

/// Plain `augur run` within the same budget finds no error at the crash line.
fn assert_run_misses(case: &Case, line: u32) {
    let dir = tempfile::tempdir().unwrap();
    let o = augur()
        .arg("run")
        .arg(source(case.name))
        .args(["--sym-arg", case.sym_arg, "--max-time", "10", "-o"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let at = format!("{}.c:{line}:", case.name);
    assert!(!text(&o).contains(&at), "{}", text(&o));
}

static CHECKSUM: Case = Case {
    name: "checksum",
    input: "kfo-open-sesame",
    link: &[],
    hard: &["checksum"],
    sym_arg: "16",
};

#[test]
fn checksum_needs_the_log() {
    let field = recorded(&CHECKSUM);
    let r = field.repro_with_log();
    assert_reproduced(&r, "with-log", 3);
    assert_eq!(r.1["hard_calls_substituted"], 1);
    // Without the log, the hash is beyond the solver and the search: the search ends
    // within its time limit plus a tenth (as the run measures it; the wall clock also
    // counts the builds before it), with repro.json written.
    let start = std::time::Instant::now();
    let no_log = field.repro(&["--max-time", "10"], "no-log");
    let took = start.elapsed();
    assert_not_reproduced(&no_log);
    let searched = no_log.1["time_s"].as_f64().unwrap();
    assert!(searched < 11.0, "searched {searched} s");
    assert!(took < std::time::Duration::from_secs(60), "took {took:?}");
    assert_run_misses(&CHECKSUM, 17);
}

static MATH: Case = Case {
    name: "mathpow",
    input: "7",
    link: &[],
    hard: &["log", "pow", "sqrt"],
    sym_arg: "4",
};

#[test]
fn math_functions_on_input_doubles() {
    let field = recorded(&MATH);
    let r = field.repro_with_log();
    assert_reproduced(&r, "with-log", 3);
    assert_eq!(r.1["hard_calls_substituted"], 3);
}

static COLLATZ: Case = Case {
    name: "collatz",
    input: "27",
    link: &[],
    hard: &["steps"],
    sym_arg: "4",
};

#[test]
fn collatz_loop() {
    let field = recorded(&COLLATZ);
    assert_reproduced(&field.repro_with_log(), "with-log", 3);
}

static RECURSIVE: Case = Case {
    name: "recursive",
    input: "((((((x",
    link: &[],
    hard: &["depth_of"],
    sym_arg: "8",
};

#[test]
fn recursive_function() {
    let field = recorded(&RECURSIVE);
    let r = field.repro_with_log();
    assert_reproduced(&r, "with-log", 3);
    // The stack alone suffices here too: the recursion is shallow.
    assert_reproduced(&field.repro(&["--max-time", "60"], "no-log"), "full", 3);
}

static ENVIRONMENT: Case = Case {
    name: "environment",
    input: "zebra-crossing",
    link: &[],
    hard: &["getenv", "rand", "time"],
    sym_arg: "12",
};

#[test]
fn environment_functions() {
    let field = recorded(&ENVIRONMENT);
    let r = field.repro_with_log();
    assert_reproduced(&r, "with-log", 3);
    assert_eq!(
        r.1["log"]["functions"],
        serde_json::json!(["getenv", "rand", "time"])
    );
    assert_not_reproduced(&field.repro(&["--max-time", "10"], "no-log"));
    assert_run_misses(&ENVIRONMENT, 9);
}

static EXTERNAL: Case = Case {
    name: "external",
    input: "19",
    link: &["vendor"],
    hard: &["vendor_score"],
    sym_arg: "4",
};

#[test]
fn external_without_model() {
    let field = recorded(&EXTERNAL);
    assert_reproduced(&field.repro_with_log(), "with-log", 3);
}

static CONTROL: Case = Case {
    name: "control",
    input: "Alexander",
    link: &[],
    hard: &[],
    sym_arg: "8",
};

#[test]
fn control_stack_alone_suffices() {
    assert_hard(&CONTROL);
    let field = Field::run(&CONTROL);
    assert_reproduced(&field.repro_with_log(), "full", 3);
    assert_reproduced(&field.repro(&["--max-time", "60"], "no-log"), "full", 3);
}

static UNWRITTEN: Case = Case {
    name: "unwritten",
    input: "Unwritten",
    link: &[],
    hard: &[],
    sym_arg: "10",
};

/// A crash that needs a local read before it is written to read 0, as it does in the
/// analysis: the recording build zeroes each alloca as augur replay's build does (else
/// the field run does not crash: the local holds what the call before left).
#[test]
fn an_unwritten_local_reads_zero_in_the_field_too() {
    let field = Field::run(&UNWRITTEN);
    assert_reproduced(&field.repro(&["--max-time", "60"], "no-log"), "full", 2);
}

/// `--list`'s reason for `function` (the rest of its line after the origin).
fn reason(case: &Case, function: &str) -> String {
    let listing = listing(case.name);
    listing
        .lines()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            let (_, name, _) = (words.next()?, words.next()?, words.next()?);
            (name == function).then(|| words.collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| panic!("{function} not listed: {listing}"))
}

static STEPPER: Case = Case {
    name: "stepper",
    input: "27",
    link: &[],
    hard: &["next_term"],
    sym_arg: "4",
};

/// `--list` gives each function of `reasons` its reason (function, reason); then the
/// field run's log reproduces the crash ("with-log"), using `substituted` logged results,
/// with no warning. Returns the field run.
fn assert_with_log(case: &'static Case, reasons: &[(&str, &str)], substituted: u64) -> Field {
    for (function, why) in reasons {
        assert_eq!(reason(case, function), *why, "{function}");
    }
    let field = recorded(case);
    let r = field.repro_with_log();
    assert_reproduced(&r, "with-log", 3);
    assert_eq!(r.1["hard_calls_substituted"], substituted);
    assert_eq!(r.1["warnings"], serde_json::json!([]));
    field
}

/// A helper whose result decides an input-dependent loop's exit is recorded, not the
/// function holding the loop; the log's 111 results take the search through the field's
/// trips. Without the log, repro warns that the stack passes through it unrecorded.
#[test]
fn helper_of_an_input_dependent_loop() {
    let next_term = "called in the loop at line 19 of trace (line 20), whose trip count depends on input and on its result";
    let field = assert_with_log(
        &STEPPER,
        &[
            ("next_term", next_term),
            (
                "trace",
                "not recursive, no hard loop (1 loop(s)), nesting 1",
            ),
        ],
        111,
    );
    let (_, json, out) = field.repro(&["--max-time", "5"], "no-log");
    let warning = format!("the crash's stack passes through `trace`, which calls `next_term`, hard to resolve ({next_term}), and no log was given: the search must solve it");
    assert_eq!(json["warnings"], serde_json::json!([warning]), "{out}");
    assert!(out.contains(&format!("augur: warning: {warning}")), "{out}");
}

static CRC: Case = Case {
    name: "crc",
    input: "zulu",
    link: &[],
    hard: &["crc32"],
    sym_arg: "4",
};

/// A CRC over a fixed number of bytes (its trip count is no input's) mixes input bits:
/// recorded, and its logged result reproduces the crash behind it.
#[test]
fn bit_mixing_loop() {
    assert_with_log(
        &CRC,
        &[("crc32", "loop at line 10 mixes input bits: 3 shift/xor operation(s) on input-derived values (from line 11)")],
        1,
    );
}

static READING: Case = Case {
    name: "reading",
    input: "7.75",
    link: &[],
    hard: &["atof", "scale"],
    sym_arg: "4",
};

/// Floating point from input: `atof`'s result and a function returning a double it
/// computes from input are recorded, and both logged results are used; the comparisons
/// in `read_gauge`'s own code have no call to record: said, not hidden.
#[test]
fn floating_point_results() {
    assert_with_log(
        &READING,
        &[
            ("atof", "math/floating-point function called with an input-dependent argument (in read_gauge, line 16)"),
            ("scale", "returns a floating-point value computed from input (line 8)"),
            ("read_gauge", "not recursive, no hard loop (0 loop(s)), nesting 3; compares floating point computed from input at line 17 in its own code (no call to record)"),
        ],
        2,
    );
}

/// With no hard function, `--list` says which criteria none met, and `record` says so.
#[test]
fn nothing_to_record_says_why() {
    let listing = listing("control");
    assert_eq!(
        listing.lines().last(),
        Some(augur_repro::NOTHING_HARD),
        "{listing}"
    );
    let dir = tempfile::tempdir().unwrap();
    let o = augur()
        .arg("record")
        .arg(source("control"))
        .arg("-o")
        .arg(dir.path().join("control"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("augur: {}", augur_repro::NOTHING_HARD)),
        "{err}"
    );
}

static ABORT: Case = Case {
    name: "aborts",
    input: "!xx",
    link: &[],
    hard: &[],
    sym_arg: "8",
};

static ASSERTION: Case = Case {
    name: "aborts",
    input: "a,b,c,d",
    link: &[],
    hard: &[],
    sym_arg: "8",
};

/// An abort in the field: the recorded binary reports it through AddressSanitizer with
/// its stack (the recording runtime flushes its log and hands the signal on) and writes a
/// complete log; `augur repro` reproduces it with the input alone, the recorded build's
/// report showing the same frames. `kinds` are the error kinds the report stands for.
/// Returns the field run.
fn assert_abort_reproduced(case: &'static Case, kinds: &[&str]) -> Field {
    let field = recorded(case);
    let report = std::fs::read_to_string(field.report()).unwrap();
    assert!(report.contains("ERROR: AddressSanitizer: ABRT"), "{report}");
    let r = field.repro_with_log();
    assert_reproduced(&r, "full", 3);
    assert_eq!(r.1["report"]["error"], "AddressSanitizer: ABRT");
    assert_eq!(r.1["report"]["kinds"], serde_json::json!(kinds));
    assert_eq!(r.1["blocked"], 0, "{}", r.1);
    field
}

#[test]
fn abort_is_a_crash() {
    assert_abort_reproduced(&ABORT, &["assertion", "abort", "reach-error"]);
}

/// A failed assertion; then its message alone as the report (what a build without
/// sanitizers prints): the crash's frame is the goal, and the recorded build's report of
/// the reproduction shows it innermost.
#[test]
fn failed_assertion_is_a_crash() {
    let field = assert_abort_reproduced(&ASSERTION, &["assertion"]);
    let report = std::fs::read_to_string(field.report()).unwrap();
    let message: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("Assertion `"))
        .collect();
    assert_eq!(message.len(), 1, "{report}");
    std::fs::write(field.report(), message[0]).unwrap();
    let r = field.repro(&["--max-time", "60"], "message");
    assert_reproduced(&r, "full", 1);
    assert_eq!(r.1["report"]["format"], "Assertion");
    assert_eq!(r.1["frames"][0]["function"], "count_fields");
    assert_eq!(r.1["frames"][0]["line"], 16);
}

/// A report from gdb (`bt` after the crash of the plain build) and one from augur's own
/// test JSON are parsed and reproduce too.
#[test]
fn gdb_and_augur_json_reports() {
    static LOOKUP: Case = Case {
        name: "lookup",
        input: "qx",
        link: &[],
        hard: &[],
        sym_arg: "3",
    };
    // A loop with a constant bound (its exit `i < 2`) calling strcmp makes nothing hard.
    assert_hard(&LOOKUP);
    let field = Field::run(&LOOKUP);
    if Command::new("gdb").arg("--version").output().is_err() {
        eprintln!("gdb not found: skipping the gdb report");
    } else {
        let plain = field.dir.path().join("plain");
        let o = Command::new(augur_ir::llvm::clang())
            .args(["-g", "-O0"])
            .arg(source("lookup"))
            .arg("-o")
            .arg(&plain)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        let gdb = Command::new("gdb")
            .args(["-batch", "-nx", "-ex", "run", "-ex", "bt", "--args"])
            .arg(&plain)
            .arg("qx")
            .output()
            .unwrap();
        let bt = String::from_utf8_lossy(&gdb.stdout);
        assert!(bt.contains("SIGSEGV"), "{bt}");
        std::fs::write(field.report(), bt.as_bytes()).unwrap();
        let r = field.repro(&["--max-time", "60"], "gdb");
        assert_reproduced(&r, "full", 3);
        assert_eq!(r.1["report"]["format"], "Gdb");
    }
    // augur's own test of the crash as the report.
    let (_, json, _) = field.repro(&["--max-time", "60"], "first");
    assert_eq!(json["status"], "full");
    let test = field.dir.path().join("first/test000001.json");
    std::fs::copy(&test, field.report()).unwrap();
    let r = field.repro(&["--max-time", "60"], "json");
    assert_reproduced(&r, "full", 3);
    assert_eq!(r.1["report"]["format"], "AugurJson");
}

/// One error line and exit status 2 for each bad input.
fn assert_bad(args: &[&std::ffi::OsStr], needle: &str) {
    let o = augur().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
}

#[test]
fn bad_reports_and_logs() {
    let field = Field::run(&CONTROL);
    let other = Field::run(&COLLATZ);
    let os = |p: &Path| p.as_os_str().to_owned();
    let control = os(&source("control"));
    // A report naming no function of the program.
    assert_bad(
        &[
            "repro".as_ref(),
            &control,
            "--crash".as_ref(),
            &os(&other.report()),
        ],
        "no frame of the program",
    );
    // A log of another binary.
    assert_bad(
        &[
            "repro".as_ref(),
            &control,
            "--crash".as_ref(),
            &os(&field.report()),
            "--log".as_ref(),
            &os(&other.log()),
        ],
        "the log is of another build",
    );
    // A truncated log.
    let data = std::fs::read(field.log()).unwrap();
    let cut = field.dir.path().join("cut.augurlog");
    std::fs::write(&cut, &data[..data.len() - 5]).unwrap();
    assert_bad(
        &[
            "repro".as_ref(),
            &control,
            "--crash".as_ref(),
            &os(&field.report()),
            "--log".as_ref(),
            &os(&cut),
        ],
        "truncated log",
    );
    assert_bad(
        &["record".as_ref(), "--show".as_ref(), &os(&cut)],
        "truncated log",
    );
    // Not a report at all.
    assert_bad(
        &["repro".as_ref(), &control, "--crash".as_ref(), &control],
        "no stack frames",
    );
}

/// `--hard` and `--not-hard` override the analysis; naming an unknown function is an error.
#[test]
fn hard_and_not_hard_options() {
    let o = augur()
        .arg("record")
        .arg(source("checksum"))
        .args(["--list", "--hard", "process", "--not-hard", "checksum"])
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&o.stdout);
    assert!(
        listing.contains("hard     process              defined  named by --hard"),
        "{listing}"
    );
    assert!(
        listing.contains("not-hard checksum             defined  named by --not-hard"),
        "{listing}"
    );
    let checksum = source("checksum");
    assert_bad(
        &[
            "record".as_ref(),
            checksum.as_os_str(),
            "--list".as_ref(),
            "--hard".as_ref(),
            "nosuch".as_ref(),
        ],
        "--hard: the program neither defines nor calls `nosuch`",
    );
}

/// `augur run --search directed:FILE:LINE` reaches the line; a malformed goal is an error.
#[test]
fn directed_search_in_run() {
    let dir = tempfile::tempdir().unwrap();
    let o = augur()
        .arg("run")
        .arg(source("lookup"))
        .args(["--search", "directed:lookup.c:19", "--sym-arg", "3", "-o"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("null-dereference at"), "{err}");
    assert!(err.contains("lookup.c:19:"), "{err}");
    let lookup = source("lookup");
    assert_bad(
        &[
            "run".as_ref(),
            lookup.as_os_str(),
            "--search".as_ref(),
            "directed:lookup.c".as_ref(),
        ],
        "unknown searcher `directed:lookup.c`",
    );
}
