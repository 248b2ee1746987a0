//! `augur replay`: run the tests of `augur run` (or KLEE's `.ktest` files) on the program
//! compiled natively with sanitizers, and check that each ends as predicted.
//!
//! The program is compiled once with the replay runtime (`runtime/replay/replay.c`), which
//! feeds each symbolic input the next object of the test. The environment objects become
//! the run's argv (`n_args`, `argNN`), standard input (`stdin`) and files (`file:NAME`, in
//! a fresh working directory).

pub mod environment;
pub mod judge;
pub mod native;
mod native_ir;
pub mod parallel;
mod private_root;
mod spawn;
mod unprivileged;
mod zeroed_stack;

pub use native_ir::{native_ir, NativeIr};

use augur_engine::KTest;
use environment::environment;
use judge::{judge, uncheckable, Expect, Verdict};
use native::NativeRun;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What to replay, and how.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// The program's sources (.c, .bc or .ll).
    pub inputs: Vec<PathBuf>,
    /// Test directories (every testNNNNNN.json, and every .ktest without a JSON) or files.
    pub tests: Vec<PathBuf>,
    /// Extra clang flags.
    pub cflags: Vec<String>,
    /// Libraries the program links natively (`-lm`, `-lresolv`, `-Lpath`, files), after
    /// its sources.
    pub libs: Vec<String>,
    /// Concrete program arguments (as given after `--` to `augur run`).
    pub program_args: Vec<String>,
    /// Per-test time limit.
    pub timeout: Duration,
}

/// The counts of one replay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    /// Tests whose native run agrees with the prediction (and bare `.ktest` files that ran).
    pub passed: usize,
    /// Tests whose native run disagrees.
    pub failed: usize,
    /// Tests whose native run disagrees and whose two native runs differ from each other.
    pub unstable: usize,
    /// Tests with nothing checkable (partial paths, unmodeled externals, ...).
    pub skipped: usize,
}

impl ReplaySummary {
    /// The final line: `N passed, N failed` (and `, N nondeterministic`, `, N skipped`
    /// when some were).
    pub fn line(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed, self.failed);
        if self.unstable > 0 {
            s.push_str(&format!(", {} nondeterministic", self.unstable));
        }
        if self.skipped > 0 {
            s.push_str(&format!(", {} skipped", self.skipped));
        }
        s
    }
}

/// One test to replay.
#[derive(Clone, Debug)]
pub struct TestInput {
    /// The file name shown in reports (`test000001.json`).
    pub label: String,
    /// The inputs, in creation order.
    pub objects: Vec<(String, Vec<u8>)>,
    /// The prediction; `None` for a bare `.ktest` (only report what happened).
    pub expect: Option<Expect>,
    /// A reason the test is broken before running it (JSON and .ktest disagree).
    pub problem: Option<String>,
}

fn is_ktest_bytes(data: &[u8]) -> bool {
    data.starts_with(b"KTEST") || data.starts_with(b"BOUT\n")
}

fn label_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The objects of a `.ktest` file's contents.
fn ktest_objects(path: &Path, data: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    KTest::from_bytes(data)
        .map(|t| t.objects)
        .map_err(|e| format!("{}: not a test: {e}", path.display()))
}

/// The `objects` list of a test JSON.
fn json_objects(path: &Path, json: &serde_json::Value) -> Result<Vec<(String, Vec<u8>)>, String> {
    let bad = |m: &str| format!("{}: not a test: {m}", path.display());
    let objs = json["objects"]
        .as_array()
        .ok_or_else(|| bad("no \"objects\" list"))?;
    objs.iter()
        .map(|o| {
            let name = o["name"]
                .as_str()
                .ok_or_else(|| bad("an object has no \"name\""))?;
            let bytes = o["bytes"]
                .as_array()
                .and_then(|b| {
                    b.iter()
                        .map(|v| v.as_u64().filter(|v| *v < 256).map(|v| v as u8))
                        .collect::<Option<Vec<u8>>>()
                })
                .ok_or_else(|| bad(&format!("object `{name}` has no valid \"bytes\"")))?;
            Ok((name.to_string(), bytes))
        })
        .collect()
}

/// The prediction of a test JSON.
fn json_expect(path: &Path, json: &serde_json::Value) -> Result<Expect, String> {
    let bad = |m: &str| format!("{}: not a test: {m}", path.display());
    let outcome = &json["outcome"];
    match outcome["kind"].as_str() {
        Some("exit") => Ok(Expect::Exit {
            code: outcome["code"]
                .as_i64()
                .ok_or_else(|| bad("exit outcome without a \"code\""))?,
            stdout: json["stdout"].as_str().map(String::from),
            stdout_dropped: json["stdout_dropped"].as_u64().unwrap_or(0),
        }),
        Some("error") => Ok(Expect::Error(
            outcome["error"]
                .as_str()
                .ok_or_else(|| bad("error outcome without an \"error\" kind"))?
                .to_string(),
        )),
        Some("partial") => Ok(Expect::Partial),
        Some("signal") => Ok(Expect::Signal(
            outcome["signal"]
                .as_i64()
                .ok_or_else(|| bad("signal outcome without a \"signal\" number"))?
                as i32,
        )),
        _ => Err(bad("no \"outcome\" of kind exit, error or partial")),
    }
}

/// A test JSON, checked against the `.ktest` next to it when there is one.
fn load_json(path: &Path, data: &[u8]) -> Result<TestInput, String> {
    let json: serde_json::Value =
        serde_json::from_slice(data).map_err(|e| format!("{}: not a test: {e}", path.display()))?;
    let objects = json_objects(path, &json)?;
    let expect = json_expect(path, &json)?;
    let sibling = path.with_extension("ktest");
    let problem = match std::fs::read(&sibling) {
        Ok(k) if ktest_objects(&sibling, &k).ok().as_ref() != Some(&objects) => Some(format!(
            "its objects differ from those of {}",
            label_of(&sibling)
        )),
        _ => None,
    };
    Ok(TestInput {
        label: label_of(path),
        objects,
        expect: Some(expect),
        problem,
    })
}

/// Load one test file: augur's JSON, or a `.ktest` (augur's or KLEE's).
pub fn load_test(path: &Path) -> Result<TestInput, String> {
    let data = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{}: no such file", path.display()),
        _ => format!("{}: cannot read: {e}", path.display()),
    })?;
    if is_ktest_bytes(&data) {
        return Ok(TestInput {
            label: label_of(path),
            objects: ktest_objects(path, &data)?,
            expect: None,
            problem: None,
        });
    }
    load_json(path, &data)
}

/// The test files of a directory: every `test*.json`, and every `test*.ktest` with no
/// JSON next to it (as KLEE writes them), in name order.
fn tests_in_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = label_of(p);
            let ext = p.extension().and_then(|e| e.to_str());
            name.starts_with("test")
                && (ext == Some("json")
                    || (ext == Some("ktest") && !p.with_extension("json").exists()))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!(
            "{}: no tests in it (testNNNNNN.json or .ktest files)",
            dir.display()
        ));
    }
    Ok(files)
}

/// Every test named by `paths` (directories or files), loaded.
pub fn collect_tests(paths: &[PathBuf]) -> Result<Vec<TestInput>, String> {
    let mut tests = Vec::new();
    for p in paths {
        let files = if p.is_dir() {
            tests_in_dir(p)?
        } else {
            vec![p.clone()]
        };
        for f in files {
            tests.push(load_test(&f)?);
        }
    }
    Ok(tests)
}

/// Split the positional inputs of `augur replay`: directories, `.json` and `.ktest` files
/// name tests, everything else is a program source. Returns (sources, tests).
pub fn split_inputs(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    inputs.iter().cloned().partition(|p| {
        let ext = p.extension().and_then(|e| e.to_str());
        !(p.is_dir() || matches!(ext, Some("json") | Some("ktest")))
    })
}

/// Check the sources before compiling them: they exist and are C or LLVM files.
fn check_sources(inputs: &[PathBuf]) -> Result<(), String> {
    if inputs.is_empty() {
        return Err("no program to replay: give its .c files before the tests".into());
    }
    for p in inputs {
        if !p.is_file() {
            return Err(format!("{}: no such file", p.display()));
        }
        if !matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("c") | Some("bc") | Some("ll")
        ) {
            return Err(format!(
                "{}: not a C (.c) or LLVM (.bc, .ll) file",
                p.display()
            ));
        }
    }
    Ok(())
}

/// The program compiled natively with the replay runtime, in its own temporary directory.
pub struct NativeProgram {
    dir: tempfile::TempDir,
    argv0: String,
}

impl NativeProgram {
    /// Compile `opts.inputs`; argv[0] is the first input's file stem, as in `augur run`.
    pub fn build(opts: &ReplayOptions) -> Result<NativeProgram, String> {
        check_sources(&opts.inputs)?;
        let runtime = crate::runtime::runtime_dir()
            .map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        let argv0 = opts.inputs[0]
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prog = NativeProgram { dir, argv0 };
        native::compile(
            &opts.inputs,
            &opts.cflags,
            &opts.libs,
            &runtime,
            &prog.binary(),
        )?;
        Ok(prog)
    }

    fn binary(&self) -> PathBuf {
        self.dir.path().join("program")
    }

    /// Run the program on a test's `objects` (argv, stdin and files among them) after the
    /// concrete `args`, as revision `revision` of a hand-written meta program if given.
    pub fn run(
        &self,
        objects: &[(String, Vec<u8>)],
        args: &[String],
        timeout: Duration,
        revision: Option<u32>,
    ) -> Result<NativeRun, String> {
        let env = environment(objects);
        let spec = native::RunSpec {
            argv0: &self.argv0,
            args,
            objects,
            env: &env,
            timeout,
            revision,
            env_files: &[],
            extra_env: &[],
        };
        native::run(&self.binary(), &spec)
    }

    /// Run one test and judge it. A test whose native run disagrees is run once more:
    /// when that run differs from the first (its ending or standard output), the program
    /// is nondeterministic on the test ([`Verdict::Unstable`]).
    pub fn replay_one(&self, test: &TestInput, opts: &ReplayOptions) -> Verdict {
        if let Some(p) = &test.problem {
            return Verdict::Failed(p.clone());
        }
        if let Some(why) = test.expect.as_ref().and_then(uncheckable) {
            return Verdict::Skipped(why);
        }
        let timeout_s = opts.timeout.as_secs_f64();
        let run = self.run(&test.objects, &opts.program_args, opts.timeout, None);
        match (run, &test.expect) {
            (Err(e), _) => Verdict::Failed(e),
            (Ok(run), Some(expect)) => match judge(expect, &run, timeout_s) {
                Verdict::Failed(why) => {
                    let again = self.run(&test.objects, &opts.program_args, opts.timeout, None);
                    // Standard error is left out: a sanitizer's report names the process
                    // and its addresses, which differ from run to run.
                    match again {
                        Ok(b) if (b.status, &b.stdout) != (run.status, &run.stdout) => {
                            Verdict::Unstable(format!("{why}; a second native run differed"))
                        }
                        _ => Verdict::Failed(why),
                    }
                }
                v => v,
            },
            (Ok(run), None) => Verdict::Ran(judge::describe(&run, timeout_s)),
        }
    }
}

/// The report line of one test.
pub fn verdict_line(label: &str, v: &Verdict) -> String {
    match v {
        Verdict::Passed(what) => format!("{label}: passed ({what})"),
        Verdict::Ran(what) => format!("{label}: ran ({what})"),
        Verdict::Failed(why) => format!("{label}: FAILED: {why}"),
        Verdict::Unstable(why) => format!("{label}: nondeterministic natively: {why}"),
        Verdict::Skipped(why) => format!("{label}: skipped ({why})"),
    }
}

/// Replay every test: load them all, compile the program once, run each test, write one
/// line per test to `out` (not the final line: see [`ReplaySummary::line`]). Bad input (a
/// missing or malformed test, a program that does not compile) is an error.
pub fn replay(opts: &ReplayOptions, out: &mut dyn Write) -> Result<ReplaySummary, String> {
    if opts.tests.is_empty() {
        return Err(
            "no tests to replay: name a test directory (e.g. augur-out-last) or --tests".into(),
        );
    }
    let tests = collect_tests(&opts.tests)?;
    let program = NativeProgram::build(opts)?;
    let mut summary = ReplaySummary::default();
    // On every core, a batch at a time, so that the lines come as the tests are run.
    let batch = 4 * std::thread::available_parallelism().map_or(1, |n| n.get());
    let verdicts = tests.chunks(batch).flat_map(|batch| {
        let verdicts =
            parallel::map_in_order(batch, None, |_| false, |t| program.replay_one(t, opts));
        batch.iter().zip(verdicts)
    });
    for (t, v) in verdicts {
        match v {
            Verdict::Passed(_) | Verdict::Ran(_) => summary.passed += 1,
            Verdict::Failed(_) => summary.failed += 1,
            Verdict::Unstable(_) => summary.unstable += 1,
            Verdict::Skipped(_) => summary.skipped += 1,
        }
        writeln!(out, "{}", verdict_line(&t.label, &v))
            .map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_line() {
        let mut s = ReplaySummary {
            passed: 3,
            failed: 1,
            unstable: 0,
            skipped: 0,
        };
        assert_eq!(s.line(), "3 passed, 1 failed");
        s.skipped = 2;
        assert_eq!(s.line(), "3 passed, 1 failed, 2 skipped");
        s.unstable = 4;
        assert_eq!(
            s.line(),
            "3 passed, 1 failed, 4 nondeterministic, 2 skipped"
        );
    }

    #[test]
    fn loads_json_and_ktest() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("test000001.json");
        std::fs::write(
            &json,
            r#"{"objects":[{"name":"x","bytes":[1,0,0,0]}],"outcome":{"kind":"exit","code":3},"stdout":"hi\n"}"#,
        )
        .unwrap();
        let t = load_test(&json).unwrap();
        assert_eq!(t.objects, vec![("x".to_string(), vec![1, 0, 0, 0])]);
        assert_eq!(
            t.expect,
            Some(Expect::Exit {
                code: 3,
                stdout: Some("hi\n".into()),
                stdout_dropped: 0,
            })
        );
        assert_eq!(t.problem, None);
        // A .ktest next to it with other bytes is a problem of the test.
        let k = KTest {
            objects: vec![("x".into(), vec![2, 0, 0, 0])],
            ..KTest::default()
        };
        std::fs::write(dir.path().join("test000001.ktest"), k.to_bytes()).unwrap();
        assert!(load_test(&json).unwrap().problem.is_some());
        let bare = load_test(&dir.path().join("test000001.ktest")).unwrap();
        assert_eq!(bare.expect, None);
        // The directory lists the JSON only (its .ktest is the same test).
        assert_eq!(collect_tests(&[dir.path().to_path_buf()]).unwrap().len(), 1);
    }

    #[test]
    fn bad_tests_are_one_line_errors() {
        let dir = tempfile::tempdir().unwrap();
        let missing = load_test(&dir.path().join("nope.json")).unwrap_err();
        assert!(missing.ends_with("nope.json: no such file"), "{missing}");
        let junk = dir.path().join("junk.json");
        std::fs::write(&junk, "{\"objects\": 3}").unwrap();
        assert!(load_test(&junk).unwrap_err().contains("not a test"));
        let empty = collect_tests(&[dir.path().to_path_buf()]);
        assert!(empty.unwrap_err().contains("no tests"));
    }

    #[test]
    fn split_positional_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = vec![
            PathBuf::from("prog.c"),
            PathBuf::from("lib.c"),
            dir.path().to_path_buf(),
            PathBuf::from("t.ktest"),
        ];
        let (src, tests) = split_inputs(&inputs);
        assert_eq!(src, vec![PathBuf::from("prog.c"), PathBuf::from("lib.c")]);
        assert_eq!(tests.len(), 2);
    }
}
