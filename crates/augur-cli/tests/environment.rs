//! The program's world: argv, stdin, files, printf and friends, SV-COMP programs.

mod common;
use common::*;

#[test]
fn getopt_option_crash_found_from_symbolic_arguments() {
    let src = &program("environment/getopt_option_crash_found_from_symbolic_arguments.c");
    let r = run_c(src, &["--sym-args", "0", "1", "2"]);
    let crashes = r.errors("abort");
    assert!(!crashes.is_empty(), "{}", r.stderr);
    let t = crashes[0];
    assert_eq!(
        t["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "CRASH")
    );
    assert_eq!(object_bytes(t, "n_args")[0], 1);
    assert_eq!(&object_bytes(t, "arg00")[..2], b"-x");
    // The paths that print predict the output exactly.
    assert!(r.tests.iter().any(|t| t["stdout"] == "verbose=1\n"));
    assert!(r.tests.iter().any(|t| t["stdout"] == "verbose=0\n"));
    r.assert_native_replay_passes();
}

#[test]
fn a_read_past_an_argument_replays_as_the_analysis_sees_it() {
    // argv[2] is a 2-byte object ("-" and its NUL): reading argv[2][2] is out of bounds.
    // Natively the environment's strings lie right after it on the stack, where
    // AddressSanitizer sees nothing: the replay runtime lays argv out as the analysis does,
    // one heap block per string, so the native run reports the same read.
    let src = &program("environment/read_past_an_argument.c");
    let r = run_c(src, &["--sym-arg", "1", "--", "tail"]);
    let reads = r.errors("out-of-bounds");
    assert_eq!(reads.len(), 1, "{}", r.stderr);
    assert_eq!(
        reads[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "PAST")
    );
    assert_eq!(object_bytes(reads[0], "arg00"), b"-\0");
    assert_eq!(r.paths(), 2, "{}", r.stderr);
    r.assert_native_replay_passes();
}

/// The integers of `s` as `%d` reads them, an optional sign then digits (the solver may
/// choose `6+7` or `+6 7` for two numbers).
fn ints(s: &str) -> Vec<i64> {
    let b = s.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        let start = i;
        if b[i] == b'+' || b[i] == b'-' {
            i += 1;
        }
        let digits = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i > digits {
            out.push(s[start..i].parse().unwrap());
        } else {
            i = start + 1;
        }
    }
    out
}

#[test]
fn scanf_numbers_from_stdin_reach_the_crash() {
    let src = &program("environment/scanf_numbers_from_stdin_reach_the_crash.c");
    let r = run_c(src, &["--sym-stdin", "4"]);
    let crashes = r.errors("null-dereference");
    assert!(!crashes.is_empty(), "{}", r.stderr);
    let input = String::from_utf8_lossy(&object_bytes(crashes[0], "stdin")).into_owned();
    let nums = ints(&input);
    assert!(
        nums.len() >= 2 && nums[0] > 5 && nums[1] == nums[0] + 1,
        "stdin {input:?}"
    );
    r.assert_native_replay_passes();
}

#[test]
fn fgets_with_hand_parsing_reaches_the_crash() {
    let src = &program("environment/fgets_with_hand_parsing_reaches_the_crash.c");
    let r = run_c(src, &["--sym-stdin", "4"]);
    let crashes = r.errors("abort");
    assert!(!crashes.is_empty(), "{}", r.stderr);
    for c in crashes {
        assert_eq!(
            c["outcome"]["line"].as_u64().unwrap(),
            line_of(src, "CRASH")
        );
        let stdin = object_bytes(c, "stdin");
        let digits: String = stdin
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .map(|b| *b as char)
            .collect();
        assert_eq!(digits.parse::<u32>().unwrap(), 42, "{stdin:?}");
    }
    r.assert_native_replay_passes();
}

#[test]
fn printf_output_is_predicted_exactly() {
    let src = &program("environment/printf_output_is_predicted_exactly.c");
    let r = run_c(src, &[]);
    assert_eq!(r.tests.len(), 2, "{}", r.stderr);
    for t in &r.tests {
        let k = object_bytes(t, "k")[0];
        let one = if k == 1 { "one\n" } else { "" };
        assert_eq!(
            t["stdout"],
            format!("-42|   ab|ff  |003.1|z%\nk={k}\n{one}done\n")
        );
        assert_eq!(t["stderr"], "err 1234567890123\n");
    }
    r.assert_native_replay_passes();
}

#[test]
fn symbolic_file_bug_is_found() {
    let src = &program("environment/symbolic_file_bug_is_found.c");
    let r = run_c(src, &["--sym-file", "input.txt:4"]);
    let crashes = r.errors("division-by-zero");
    assert_eq!(crashes.len(), 1, "{}", r.stderr);
    assert_eq!(object_bytes(crashes[0], "file:input.txt"), b"BOOM");
    assert_eq!(
        crashes[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "CRASH")
    );
    // Without the file, fopen fails.
    let none = run_c(src, &[]);
    assert_eq!(none.exit_codes(), vec![2]);
    r.assert_native_replay_passes();
}

#[test]
fn svcomp_program_reports_reach_error() {
    let src = &program("environment/svcomp_program_reports_reach_error.c");
    let tc = tempfile::tempdir().unwrap();
    let r = run_c(src, &["--write-testcomp", tc.path().to_str().unwrap()]);
    let hits = r.errors("reach-error");
    assert_eq!(hits.len(), 1, "{}", r.stderr);
    assert_eq!(
        hits[0]["outcome"]["line"].as_u64().unwrap(),
        line_of(src, "REACH")
    );
    let objs = hits[0]["objects"].as_array().unwrap();
    assert_eq!(objs.len(), 2, "each nondet call is a fresh object");
    let (x, y) = (Run::int_of(hits[0], "nondet"), {
        let b: Vec<u8> = objs[1]["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect();
        i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64
    });
    assert!((x, y) == (3, 4) || (x, y) == (4, 3), "{x} {y}");
    // Test-Comp XML: metadata plus one file per test, inputs in call order.
    let meta = std::fs::read_to_string(tc.path().join("metadata.xml")).unwrap();
    assert!(meta.contains("<programfile>prog.c</programfile>") && meta.contains("<programhash>"));
    let n = std::fs::read_dir(tc.path()).unwrap().count();
    assert_eq!(n, r.tests.len() + 1);
    let k = r
        .tests
        .iter()
        .position(|t| t["outcome"]["error"] == "reach-error")
        .unwrap();
    let xml = std::fs::read_to_string(tc.path().join(format!("test{:06}.xml", k + 1))).unwrap();
    assert!(
        xml.contains(&format!("<input>{x}</input>\n  <input>{y}</input>")),
        "{xml}"
    );
    r.assert_seeded_replay_agrees();
    r.assert_native_replay_passes();
}

#[test]
fn io_buffer_that_may_be_several_objects_explores_each() {
    let src = &program("environment/io_buffer_that_may_be_several_objects_explores_each.c");
    let r = run_c(src, &[]);
    let mut outs: Vec<String> = r
        .tests
        .iter()
        .map(|t| t["stdout"].as_str().unwrap().to_string())
        .collect();
    outs.sort();
    assert_eq!(outs, vec!["aaa", "bbb"], "{}", r.stderr);
    for t in &r.tests {
        let want = if object_bytes(t, "k")[0] == 7 {
            "aaa"
        } else {
            "bbb"
        };
        assert_eq!(t["stdout"], want);
    }
    r.assert_native_replay_passes();
}

#[test]
fn klee_tutorial_argument_and_file_options_combine() {
    // KLEE's coreutils tutorial: `--sym-args 0 1 10 --sym-args 0 2 2 --sym-files 1 8`, here
    // smaller, plus a leading `--sym-arg`: argc counts every combination of group sizes.
    let src = &program("environment/klee_tutorial_argument_and_file_options_combine.c");
    let r = run_c(
        src,
        &[
            "--sym-arg",
            "1",
            "--sym-args",
            "0",
            "1",
            "2",
            "--sym-args",
            "0",
            "2",
            "1",
            "--sym-files",
            "1",
            "4",
        ],
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    // argc = 1 (program) + 1 (--sym-arg) + 0..1 + 0..2: 2..5, one path per combination
    // (6 of them), and argc 5 forks once more on the file's first byte.
    let mut argcs: Vec<String> = r
        .tests
        .iter()
        .map(|t| t["stdout"].as_str().unwrap().to_string())
        .collect();
    argcs.sort();
    argcs.dedup();
    assert_eq!(
        argcs,
        [
            "argc=2 file=4\n",
            "argc=3 file=4\n",
            "argc=4 file=4\n",
            "argc=5 file=4\n"
        ]
    );
    assert_eq!(r.tests.len(), 7);
    assert_eq!(
        r.tests.iter().filter(|t| t["outcome"]["code"] == 7).count(),
        1
    );
    // Objects: the --sym-arg, then each group's count and arguments, then the file.
    let names = object_names(&r.tests[0]);
    assert_eq!(
        names,
        ["arg00", "n_args", "arg01", "n_args_1", "arg02", "arg03", "file:A"]
    );
    r.assert_native_replay_passes();
}

#[test]
fn bad_sym_args_and_sym_files_are_one_line_errors() {
    let src = "int main(void) { return 0; }\n";
    let r = run_c(src, &["--sym-args", "2", "1", "4"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("--sym-args 2 1 4: needs MIN MAX N"),
        "{}",
        r.stderr
    );
    let r = run_c(src, &["--sym-files", "27", "4"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("at most 26 files"), "{}", r.stderr);
}

#[test]
fn atexit_handlers_run_when_main_returns() {
    // coreutils registers close_stdout with atexit and returns from main.
    let src = &program("environment/atexit_handlers_run_when_main_returns.c");
    let r = run_c(src, &[]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut seen: Vec<(String, String)> = r
        .tests
        .iter()
        .map(|t| {
            let o = &t["outcome"];
            let end = match o["kind"].as_str().unwrap() {
                "exit" => format!("exit {}", o["code"]),
                _ => format!("{} at {}", o["error"].as_str().unwrap(), o["line"]),
            };
            (t["stdout"].as_str().unwrap().to_string(), end)
        })
        .collect();
    seen.sort();
    let handler = line_of(src, "HANDLER");
    assert_eq!(
        seen,
        [
            ("closing 0\n".to_string(), "exit 0".to_string()),
            ("closing 1\n".to_string(), "exit 1".to_string()),
            ("closing 2\n".to_string(), "exit 9".to_string()),
            ("closing 3\n".to_string(), format!("abort at {handler}")),
        ]
    );
    r.assert_native_replay_passes();
}
