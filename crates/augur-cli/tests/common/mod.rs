//! Shared helpers of the end-to-end tests: write a C program, run the `augur` binary on
//! it, read back what it wrote.
#![allow(dead_code)]

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one `augur run` produced.
pub struct Run {
    /// Exit status of augur.
    pub status: i32,
    /// augur's stderr.
    pub stderr: String,
    /// summary.json.
    pub summary: Json,
    /// Every test, in order (test000001.json first).
    pub tests: Vec<Json>,
    /// The output directory.
    pub out: PathBuf,
    /// The C source written.
    pub source: PathBuf,
    /// Concrete program arguments given after `--`.
    pub program_args: Vec<String>,
    _dir: tempfile::TempDir,
}

/// The augur binary under test.
pub fn augur() -> Command {
    Command::new(env!("CARGO_BIN_EXE_augur"))
}

/// 2^40 paths: never finishes within a test's time.
pub const ENDLESS: &str = include_str!("../programs/common/endless.c");

/// 12 paths: a pointer into one of three arrays at symbolic object and index, written
/// through; resolving it forks on the object an example value points into. Each path exits
/// with the single bit of the element written (1 << 0 to 1 << 11).
pub const SYMBOLIC_POINTER: &str = include_str!("../programs/common/symbolic_pointer.c");

/// `augur run ENDLESS` in the background, to be interrupted or killed by the test.
pub struct EndlessRun {
    /// The running `augur`.
    pub child: std::process::Child,
    /// Its output directory.
    pub out: PathBuf,
    _dir: tempfile::TempDir,
}

/// Starts `augur run` on [`ENDLESS`] with `args` (stderr discarded) and returns once it has
/// written at least `tests` tests, or after `limit`.
pub fn spawn_endless(args: &[&str], tests: usize, limit: std::time::Duration) -> EndlessRun {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("prog.c");
    std::fs::write(&src, ENDLESS).unwrap();
    let out = dir.path().join("out");
    let child = augur()
        .arg("run")
        .arg(&src)
        .args(args)
        .arg("-o")
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    while read_tests(&out).len() < tests && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    EndlessRun {
        child,
        out,
        _dir: dir,
    }
}

/// The C test program at `rel` under `tests/programs/`.
pub fn program(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `augur run` of the program `rel` (no options) finds one path, which exits 0 printing
/// `stdout`, and the native replay agrees.
pub fn exits_with_and_replays(rel: &str, stdout: &str) {
    let r = run_c(&program(rel), &[]);
    assert_eq!(
        r.exits_with_stdout(),
        vec![(0, stdout.to_string())],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}

/// Write `src` as prog.c in a fresh directory and run `augur run` with `args` on it.
pub fn run_c(src: &str, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("prog.c");
    std::fs::write(&source, src).unwrap();
    run_file(dir, source, args)
}

/// Run `augur run` on an existing source in `dir`.
pub fn run_file(dir: tempfile::TempDir, source: PathBuf, args: &[&str]) -> Run {
    let out = dir.path().join("out");
    let mut cmd = augur();
    cmd.arg("run").arg(&source).arg("-o").arg(&out);
    // Program arguments after `--` must stay last.
    let (opts, prog): (Vec<&str>, Vec<&str>) = match args.iter().position(|a| *a == "--") {
        Some(i) => (args[..i].to_vec(), args[i..].to_vec()),
        None => (args.to_vec(), vec![]),
    };
    let program_args: Vec<String> = prog.iter().skip(1).map(|s| s.to_string()).collect();
    cmd.args(opts).args(prog);
    let o = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let summary = std::fs::read(out.join("summary.json"))
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or(Json::Null);
    Run {
        status: o.status.code().unwrap_or(-1),
        stderr,
        summary,
        tests: read_tests(&out),
        out,
        source,
        program_args,
        _dir: dir,
    }
}

/// All testNNNNNN.json files of a directory, in order.
pub fn read_tests(out: &Path) -> Vec<Json> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(out)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.retain(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        n.starts_with("test") && n.ends_with(".json")
    });
    names.sort();
    names
        .iter()
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        .collect()
}

/// The 1-based line of the first line of `src` containing `marker`.
pub fn line_of(src: &str, marker: &str) -> u64 {
    src.lines()
        .position(|l| l.contains(marker))
        .expect("marker in source") as u64
        + 1
}

impl Run {
    /// Paths completed.
    pub fn paths(&self) -> u64 {
        self.summary["paths_completed"]
            .as_u64()
            .unwrap_or_else(|| panic!("no summary; stderr: {}", self.stderr))
    }

    /// The tests ending in an error of `kind`.
    pub fn errors(&self, kind: &str) -> Vec<&Json> {
        self.tests
            .iter()
            .filter(|t| t["outcome"]["error"] == kind)
            .collect()
    }

    /// The exit codes of the tests that exited.
    pub fn exit_codes(&self) -> Vec<i64> {
        let mut v: Vec<i64> = self
            .tests
            .iter()
            .filter(|t| t["outcome"]["kind"] == "exit")
            .map(|t| t["outcome"]["code"].as_i64().unwrap())
            .collect();
        v.sort();
        v
    }

    /// Every test as (exit code, stdout), sorted; each test must have exited.
    pub fn exits_with_stdout(&self) -> Vec<(i64, String)> {
        let mut v: Vec<(i64, String)> = self
            .tests
            .iter()
            .map(|t| {
                (
                    t["outcome"]["code"].as_i64().unwrap(),
                    t["stdout"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        v.sort();
        v
    }

    /// Bytes of object `name` in a test, as a little-endian integer.
    pub fn int_of(test: &Json, name: &str) -> i64 {
        let o = test["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap();
        let bytes: Vec<u8> = o["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        let mut v: i64 = 0;
        for (i, b) in bytes.iter().enumerate().take(8) {
            v |= (*b as i64) << (8 * i);
        }
        if bytes.len() < 8 && !bytes.is_empty() && bytes[bytes.len() - 1] & 0x80 != 0 {
            v -= 1i64 << (8 * bytes.len());
        }
        v
    }

    /// `augur replay` runs every test natively and each ends as predicted (a partial path's
    /// test, which has nothing to check, and one ended on something augur does not
    /// model, are skipped).
    pub fn assert_native_replay_passes(&self) {
        let mut cmd = augur();
        cmd.arg("replay").arg(&self.source).arg(&self.out);
        if !self.program_args.is_empty() {
            cmd.arg("--").args(&self.program_args);
        }
        let o = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "replay failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let partial = self
            .tests
            .iter()
            .filter(|t| t["outcome"]["kind"] == "partial" || t["outcome"]["error"] == "unsupported")
            .count();
        let mut want = format!("{} passed, 0 failed", self.tests.len() - partial);
        if partial > 0 {
            want.push_str(&format!(", {partial} skipped"));
        }
        assert!(
            stdout.lines().any(|l| l.starts_with(&want)),
            "expected `{want}` in:\n{stdout}"
        );
    }

    /// Every test, run again through the engine in seeded mode, reaches the same outcome.
    pub fn assert_seeded_replay_agrees(&self) {
        assert!(!self.tests.is_empty(), "no tests; stderr: {}", self.stderr);
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.out)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "json")
                    && p.file_name().unwrap().to_string_lossy().starts_with("test")
            })
            .collect();
        names.sort();
        for (i, t) in names.iter().enumerate() {
            let replay_dir = tempfile::tempdir().unwrap();
            let o = augur()
                .arg("run")
                .arg(&self.source)
                .arg("-o")
                .arg(replay_dir.path())
                .arg("--seed-test")
                .arg(t)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "seeded replay failed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let replayed = read_tests(replay_dir.path());
            assert_eq!(replayed.len(), 1, "a seeded run follows exactly one path");
            let mut want = self.tests[i]["outcome"].clone();
            let mut got = replayed[0]["outcome"].clone();
            // The message of a replayed error may name different addresses; kind and line must agree.
            for o in [&mut want, &mut got] {
                if let Some(m) = o.as_object_mut() {
                    m.remove("message");
                    m.remove("stack");
                }
            }
            assert_eq!(got, want, "seeded replay of {} disagrees", t.display());
        }
    }
}

/// The bytes of the object `name` of a test.
pub fn object_bytes(test: &Json, name: &str) -> Vec<u8> {
    test["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap()["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect()
}

/// The names of a test's objects, in order.
pub fn object_names(test: &Json) -> Vec<&str> {
    test["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect()
}

/// gnulib's close_stream and coreutils' close_stdout (registered with atexit by every
/// coreutils program), in C for the end-to-end programs; needs <errno.h>, <error.h>,
/// <stdio.h>, <stdio_ext.h> and <unistd.h>.
pub const CLOSE_STDOUT_C: &str = r#"
static int close_stream(FILE *s) {
  int some_pending = __fpending(s) != 0, prev_fail = ferror(s) != 0;
  int fclose_fail = fclose(s) != 0;
  if (prev_fail || (fclose_fail && (some_pending || errno != EBADF))) {
    if (!fclose_fail) errno = 0;
    return EOF;
  }
  return 0;
}
static void close_stdout(void) {
  if (close_stream(stdout) != 0) { error(0, errno, "write error"); _exit(1); }
}
"#;

/// `src` compiled to bitcode with augur's flags but `-mlong-double-64`, as a build outside
/// augur (wllvm) would: `long double` stays x87's 80-bit type.
pub fn x87_bitcode(src: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("ld.c");
    std::fs::write(&c, src).unwrap();
    let bc = dir.path().join("prog.bc");
    let flags = augur_ir::ANALYSIS_CFLAGS
        .iter()
        .filter(|f| **f != "-mlong-double-64");
    let built = augur_ir::llvm::clang_command()
        .args(flags)
        .arg(&c)
        .arg("-o")
        .arg(&bc)
        .status()
        .unwrap();
    assert!(built.success());
    (dir, bc)
}
