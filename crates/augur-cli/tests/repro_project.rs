//! `augur record` / `augur repro` of a program built from a source tree: the project of
//! tests/programs/repro-project (a Makefile, a static library, a link with -lcrypt) built
//! with `make CC='augur cc'`, its bitcode extracted, the recording binary built from that
//! bitcode, crashed in the field on standard input; `augur repro` reproduces each crash
//! from the ASan report (and the log), and the input found crashes the recorded binary
//! natively at the same line.

mod common;

use common::augur;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The project, built and recorded in a temporary directory.
struct Project {
    dir: tempfile::TempDir,
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout)
}

/// Run `cmd` in `dir`; it must succeed; its output.
fn ok(cmd: &mut Command, dir: &Path) -> Output {
    let o = cmd.current_dir(dir).output().unwrap();
    assert!(o.status.success(), "{cmd:?} failed:\n{}", text(&o));
    o
}

/// Run `bin ARGS` with `stdin`, the environment `env` and leaks not reported.
fn run_with(bin: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &Path)]) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// The first `FILE:LINE` of `file`'s name in a sanitizer report.
fn site(report: &[u8], file: &str) -> Option<String> {
    let text = String::from_utf8_lossy(report);
    let at = text.find(&format!("/{file}:"))?;
    let rest = &text[at + 1..];
    let line: String = rest[file.len() + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some(format!("{file}:{line}"))
}

impl Project {
    /// Copy the project, `make CC='augur cc'`, `augur extract-bc keystore`, `augur record
    /// keystore.bc -o keystore-rec`.
    fn build() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/repro-project");
        ok(
            Command::new("cp").arg("-r").arg(from.join(".")).arg("."),
            dir.path(),
        );
        let cc = format!("CC={} cc", env!("CARGO_BIN_EXE_augur"));
        ok(Command::new("make").arg("-s").arg(cc), dir.path());
        ok(augur().args(["extract-bc", "keystore"]), dir.path());
        let o = ok(
            augur().args(["record", "keystore.bc", "-o", "keystore-rec"]),
            dir.path(),
        );
        assert!(
            text(&o).contains("keystore-rec records 2 function(s): digest, store_fields"),
            "{}",
            text(&o)
        );
        Project { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The field: the recorded binary crashes on `input`, leaving `NAME.report` and
    /// `NAME.augurlog`; returns the crash site of the report.
    fn field(&self, name: &str, input: &str) -> String {
        let log = self.path(&format!("{name}.augurlog"));
        let o = run_with(
            &self.path("keystore-rec"),
            &[],
            input.as_bytes(),
            &[("AUGUR_LOG", &log)],
        );
        assert!(!o.status.success(), "{input} did not crash");
        std::fs::write(self.path(&format!("{name}.report")), &o.stderr).unwrap();
        site(&o.stderr, "lib/store.c").expect("a frame in lib/store.c")
    }

    /// `augur repro keystore.bc` of the crash `name` (with its log when `log`), with 40
    /// symbolic bytes of standard input; returns repro.json and the stdin found.
    fn repro(&self, name: &str, log: bool) -> (Json, Vec<u8>) {
        let out = self.path(&format!("{name}-out"));
        let mut cmd = augur();
        cmd.args(["repro", "keystore.bc", "--crash"])
            .arg(self.path(&format!("{name}.report")))
            .args(["--sym-stdin", "40", "--max-time", "20", "-o"])
            .arg(&out);
        if log {
            cmd.arg("--log").arg(self.path(&format!("{name}.augurlog")));
        }
        let o = ok(&mut cmd, self.dir.path());
        let json: Json =
            serde_json::from_slice(&std::fs::read(out.join("repro.json")).unwrap()).unwrap();
        let stdin = json["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "stdin")
            .unwrap_or_else(|| panic!("no stdin in {json}\n{}", text(&o)))["bytes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap() as u8)
            .collect();
        (json, stdin)
    }
}

/// The frames of repro.json as `function file-name:line`.
fn frames(json: &Json) -> Vec<String> {
    json["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap();
            let name = file.rsplit('/').next().unwrap();
            format!("{} {name}:{}", f["function"].as_str().unwrap(), f["line"])
        })
        .collect()
}

#[test]
fn crash_behind_a_hash_in_a_library_needs_the_log() {
    let p = Project::build();
    // The recording build links the build's -lcrypt (from `!augur.libs`) and runs as make's.
    let rec = run_with(&p.path("keystore-rec"), &["-v"], b"", &[]);
    let native = run_with(&p.path("keystore"), &["-v"], b"", &[]);
    assert!(rec.status.success(), "{}", text(&rec));
    assert_eq!(rec.stdout, native.stdout);

    // The digest is recorded; the function reading the input is not, though its loop
    // would make it hard: its results are the input.
    let o = ok(
        augur().args(["record", "keystore.bc", "--list"]),
        p.dir.path(),
    );
    let listing = String::from_utf8_lossy(&o.stdout);
    let line = |name: &str| {
        let found = listing
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name));
        found
            .unwrap_or_else(|| panic!("no {name} in {listing}"))
            .to_string()
    };
    assert!(line("digest").starts_with("hard "), "{listing}");
    assert!(
        line("read_record").starts_with("not-hard ")
            && line("read_record").ends_with(
                "under a branch (line 9), but it reads input (calls fread): what it returns is input, kept symbolic"
            ),
        "{listing}"
    );
    assert!(line("fread").starts_with("not-hard "), "{listing}");

    // An administrator's key (digest of "root-of-trust") with a value over 16 bytes.
    let crash = p.field("admin", "root-of-trust=0123456789abcdef-overflow");
    assert_eq!(crash, "lib/store.c:11");
    let (json, stdin) = p.repro("admin", true);
    assert_eq!(json["status"], "with-log", "{json}");
    assert_eq!(frames(&json), ["store_admin store.c:11", "main main.c:26"]);
    assert_eq!(json["hard_calls_substituted"], 1);
    // Natively: the input with the logged digest crashes at the same line; alone it does
    // not (no key but the secret has the digest).
    let log = p.path("admin.augurlog");
    let with_log = run_with(
        &p.path("keystore-rec"),
        &[],
        &stdin,
        &[("AUGUR_LOG_REPLAY", &log)],
    );
    assert_eq!(site(&with_log.stderr, "lib/store.c"), Some(crash));
    let alone = run_with(&p.path("keystore-rec"), &[], &stdin, &[]);
    assert!(alone.status.success(), "{}", text(&alone));
}

#[test]
fn crash_inside_a_recorded_function_is_reproduced_from_the_report_alone() {
    let p = Project::build();
    // Five fields: the fifth is written past the table of four, inside `store_fields`,
    // which is recorded (its report's frame is the wrapped `__augur_real_store_fields`).
    let crash = p.field("fields", "guest=a,b,c,d,e");
    assert_eq!(crash, "lib/store.c:20");
    let report = std::fs::read_to_string(p.path("fields.report")).unwrap();
    assert!(report.contains("__augur_real_store_fields"), "{report}");
    let (json, stdin) = p.repro("fields", false);
    assert_eq!(json["status"], "full", "{json}");
    assert_eq!(frames(&json), ["store_fields store.c:20", "main main.c:28"]);
    let replay = run_with(&p.path("keystore-rec"), &[], &stdin, &[]);
    assert_eq!(site(&replay.stderr, "lib/store.c"), Some(crash));
}
