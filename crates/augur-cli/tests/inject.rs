//! `augur inject` end to end on the programs of examples/inject: bugs are emitted and
//! verified, the buggy program differs from the original only by marked code on the
//! recorded lines, `augur run` finds each bug, the original never triggers it, and the
//! estimated trigger count matches an exact enumeration on a program small enough.

mod common;

use common::{augur, read_tests};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What one `augur inject` produced.
struct Corpus {
    status: i32,
    stderr: String,
    stdout: String,
    summary: Json,
    source: PathBuf,
    out: PathBuf,
    dir: tempfile::TempDir,
}

impl Corpus {
    fn bugs(&self) -> Vec<Json> {
        self.summary["bugs"].as_array().cloned().unwrap_or_default()
    }

    fn bug_dir(&self, bug: &Json) -> PathBuf {
        self.out
            .join(format!("bug{:03}", bug["id"].as_u64().unwrap()))
    }

    fn buggy_source(&self, bug: &Json) -> PathBuf {
        self.bug_dir(bug).join(self.source.file_name().unwrap())
    }
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/inject")
        .join(name)
}

/// A program of tests/programs/inject.
fn test_program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/inject")
        .join(name)
}

/// Run `augur inject` on a copy of examples/inject/`name` with `args`.
fn inject(name: &str, args: &[&str]) -> Corpus {
    inject_file(&example(name), args)
}

/// Run `augur inject` on a copy of the C file `path` with `args`; without
/// `--max-fire-rate` in them, rarity selects nothing (`--max-fire-rate 1`): the tests
/// that do not give it are about other things, which should not hang on how rare these
/// small programs' bugs happen to be; without `--explore-time`, 5 seconds.
fn inject_file(path: &Path, args: &[&str]) -> Corpus {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join(path.file_name().unwrap());
    std::fs::copy(path, &source).unwrap();
    let out = dir.path().join("corpus");
    let mut cmd = augur();
    cmd.arg("inject").arg(&source).args(args);
    if !args.contains(&"--max-fire-rate") {
        cmd.args(["--max-fire-rate", "1"]);
    }
    if !args.contains(&"--explore-time") {
        cmd.args(["--explore-time", "5"]);
    }
    let o = cmd
        .args(["--measure", "100", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let summary = std::fs::read(out.join("summary.json"))
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or(Json::Null);
    Corpus {
        status: o.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        summary,
        source,
        out,
        dir,
    }
}

/// Every emitted bug passed native verification, its files are there, and its source is
/// the original with marked code at the start of the recorded lines only.
fn assert_emitted_and_verified(c: &Corpus, at_least: usize) {
    assert_eq!(c.status, 0, "{}", c.stderr);
    let bugs = c.bugs();
    assert!(bugs.len() >= at_least, "{}\n{}", c.stdout, c.stderr);
    let original = std::fs::read_to_string(&c.source).unwrap();
    for bug in &bugs {
        let v = &bug["verification"];
        assert_eq!(v["trigger_fires"], true, "{bug}");
        assert_eq!(v["differed"], 0, "{bug}");
        assert!(v["inputs"].as_u64().unwrap() > 0, "{bug}");
        assert!(c
            .stdout
            .contains(&format!("bug{:03}", bug["id"].as_u64().unwrap())));
        let dir = c.bug_dir(bug);
        for f in ["trigger.json", "trigger.ktest", "bug.json"] {
            assert!(dir.join(f).exists(), "{f} missing");
        }
        let buggy = std::fs::read_to_string(c.buggy_source(bug)).unwrap();
        let lines: Vec<u64> = bug["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["line"].as_u64().unwrap())
            .collect();
        let buggy_lines: Vec<&str> = buggy.lines().collect();
        for (i, line) in original.lines().enumerate() {
            let b = buggy_lines[i];
            if lines.contains(&(i as u64 + 1)) {
                assert!(b.contains("/* augur-inject bug"), "line {}: {b}", i + 1);
                assert!(b.ends_with(line.trim_start()), "line {}: {b}", i + 1);
            } else {
                assert_eq!(b, line, "line {} changed", i + 1);
            }
        }
    }
}

/// `augur run` with `args` on `source` (in a fresh directory).
fn augur_run(source: &Path, args: &[&str]) -> Vec<Json> {
    let out = tempfile::tempdir().unwrap();
    let o = augur()
        .arg("run")
        .arg(source)
        .args(args)
        .arg("-o")
        .arg(out.path().join("out"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    read_tests(&out.path().join("out"))
}

/// Fairness: exploring the buggy program finds the bug (an assertion at its line);
/// the original program run on the trigger ends normally.
fn assert_found_and_original_untouched(c: &Corpus, args: &[&str]) {
    for bug in c.bugs() {
        let line = bug["line"].as_u64().unwrap();
        let tests = augur_run(&c.buggy_source(&bug), args);
        assert!(
            tests.iter().any(|t| t["outcome"]["error"] == "assertion"
                && t["outcome"]["line"].as_u64() == Some(line)),
            "augur run did not find bug {} at line {line}",
            bug["id"]
        );
        let trigger = c.bug_dir(&bug).join("trigger.json");
        let trigger = trigger.to_str().unwrap();
        let mut seeded = vec!["--seed-test", trigger];
        seeded.extend_from_slice(args);
        for t in augur_run(&c.source, &seeded) {
            assert_eq!(t["outcome"]["kind"], "exit", "original on the trigger: {t}");
        }
    }
}

/// Inject two bugs into examples/inject/`name` run with the input options `args`;
/// check them as above.
fn inject_and_hunt(name: &str, args: &[&str]) {
    let mut all = vec!["--bugs", "2"];
    all.extend_from_slice(args);
    let c = inject(name, &all);
    assert_emitted_and_verified(&c, 1);
    assert_found_and_original_untouched(&c, args);
}

#[test]
fn stdin_state_machine() {
    inject_and_hunt("machine.c", &["--sym-stdin", "4"]);
}

#[test]
fn argv_parsing_cli() {
    inject_and_hunt("cli.c", &["--sym-args", "0", "2", "3"]);
}

#[test]
fn numeric_controller() {
    let c = inject("tcas.c", &["--bugs", "2", "--points", "2"]);
    assert_emitted_and_verified(&c, 1);
    assert_found_and_original_untouched(&c, &[]);
}

#[test]
fn one_program_holds_every_bug_and_each_trigger_fires_its_own() {
    let c = inject(
        "machine.c",
        &["--bugs", "2", "--sym-stdin", "4", "--one-program"],
    );
    assert_eq!(c.status, 0, "{}", c.stderr);
    let program = c.out.join("program").join("machine.c");
    let text = std::fs::read_to_string(program).unwrap();
    for bug in c.bugs() {
        let id = bug["id"].as_u64().unwrap();
        assert!(text.contains(&format!("int augur_bug{id};")));
        assert_eq!(bug["verification"]["other_bugs_fired_by_trigger"], 0);
        assert_eq!(bug["verification"]["trigger_fires"], true);
    }
    assert!(!c.bugs().is_empty(), "{}", c.stderr);
    // Exactly the emitted bugs: one refused at verification is taken out of the program.
    assert_eq!(c.bugs().len(), 2, "{}", c.stderr);
    let held = (1..=9)
        .filter(|id| text.contains(&format!("int augur_bug{id};")))
        .count();
    assert_eq!(held, c.bugs().len(), "{}", c.stderr);
}

/// The harness: the buggy program's main run on all 65536 inputs natively, counting
/// those that reach the bug (its assertion caught by our own `__assert_fail`).
const HARNESS: &str = include_str!("programs/inject/harness.c");

/// Inject one bug into examples/inject/tiny.c on the seed input (200, 37), with `extra`
/// options.
fn inject_tiny(dir: &Path, extra: &[&str]) -> Corpus {
    let seed = dir.join("seed.json");
    std::fs::write(&seed, r#"{"objects":[{"name":"in","bytes":[200,37]}]}"#).unwrap();
    let mut args = vec![
        "--seed-test",
        seed.to_str().unwrap(),
        "--points",
        "3",
        "--seed",
        "2",
    ];
    args.extend_from_slice(extra);
    inject("tiny.c", &args)
}

/// The buggy tiny.c of `bug` linked with the harness: it prints how many inputs fire the
/// bug (of all 65536, or of the 256 whose first byte is its argument).
fn enumerator(c: &Corpus, bug: &Json) -> impl Fn(&[&str]) -> f64 {
    let buggy = c.buggy_source(bug);
    let stub = c.dir.path().join("stub");
    std::fs::create_dir_all(&stub).unwrap();
    std::fs::write(
        stub.join("augur.h"),
        "void augur_make_symbolic(void *p, unsigned long n, const char *name);\n",
    )
    .unwrap();
    let harness = c.dir.path().join("harness.c");
    std::fs::write(&harness, HARNESS).unwrap();
    let exe = c.dir.path().join("enumerate");
    let o = Command::new(augur_ir::llvm::clang())
        .args(["-O1", "-w", "-Dmain=prog_main", "-I"])
        .arg(&stub)
        .arg("-c")
        .arg(&buggy)
        .arg("-o")
        .arg(c.dir.path().join("buggy.o"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(augur_ir::llvm::clang())
        .arg("-O1")
        .arg(&harness)
        .arg(c.dir.path().join("buggy.o"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    move |args: &[&str]| -> f64 {
        let o = Command::new(&exe).args(args).output().unwrap();
        String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
    }
}

#[test]
fn estimated_trigger_count_matches_exact_enumeration() {
    // A seed away from the all-zero input, so predicates are ranges, not one value.
    let dir = tempfile::tempdir().unwrap();
    let c = inject_tiny(dir.path(), &[]);
    assert_emitted_and_verified(&c, 1);
    let bug = &c.bugs()[0];
    let exact = enumerator(&c, bug)(&[]);
    let estimate = bug["trigger_inputs"]["count"].as_f64().unwrap();
    assert!(exact >= 1.0, "the seed triggers the bug");
    assert!(
        estimate >= exact / 1.5 && estimate <= exact * 1.5,
        "estimated {estimate} triggering inputs, exactly {exact}"
    );
    let fraction = bug["fraction_of_all_inputs"].as_f64().unwrap();
    assert!((fraction - estimate / 65536.0).abs() < 1e-12, "{bug}");
    assert!(exact > 1.0, "more than one input triggers it: {exact}");
    assert!(
        exact < 65536.0 / 100.0,
        "the predicates narrow the inputs: {exact}"
    );
}

#[test]
fn pool_runs_count_the_inputs_that_fire_the_bug() {
    // The pool: the 256 inputs whose first byte is the seed's, the seed among them
    // (tiny.c has one path: all take the seed's, so they join synthesis' samples too).
    let dir = tempfile::tempdir().unwrap();
    let pool = dir.path().join("pool");
    std::fs::create_dir(&pool).unwrap();
    for b in 0..=255u8 {
        let test = format!(r#"{{"objects":[{{"name":"in","bytes":[200,{b}]}}]}}"#);
        std::fs::write(pool.join(format!("test{:06}.json", b as u32 + 1)), test).unwrap();
    }
    let c = inject_tiny(dir.path(), &["--pool", pool.to_str().unwrap()]);
    assert_emitted_and_verified(&c, 1);
    let bug = &c.bugs()[0];
    // The pool's native runs fired the bug exactly as often as the enumeration of the
    // same inputs says.
    let in_pool = &bug["verification"]["by_source"]["pool"];
    assert_eq!(in_pool["tried"], 256, "{bug}");
    assert_eq!(in_pool["differed"], 0, "{bug}");
    let fired = in_pool["fired"].as_f64().unwrap();
    assert!(fired >= 1.0, "the seed is in the pool: {bug}");
    assert_eq!(fired, enumerator(&c, bug)(&["200"]), "{bug}");
    assert_eq!(
        in_pool["fraction_fired"].as_f64().unwrap(),
        fired / 256.0,
        "{bug}"
    );
}

/// One bug into tests/programs/inject/rare.c on the seed input `abcdefgh`, with
/// `extra` options.
fn inject_rare(extra: &[&str]) -> Corpus {
    inject_rare_from(&[b"abcdefgh"], extra)
}

/// `augur inject` on rare.c with one `--seed-test` per input of `seeds` (8 bytes of
/// stdin each), `--seed 1` and `extra`.
fn inject_rare_from(seeds: &[&[u8; 8]], extra: &[&str]) -> Corpus {
    let seeds: Vec<&[u8]> = seeds.iter().map(|s| &s[..]).collect();
    inject_seeded("rare.c", &seeds, extra)
}

/// `augur inject` on tests/programs/inject/`program` with one `--seed-test` per input of
/// `seeds` (stdin's bytes, all of one length), `--seed 1` and `extra`.
fn inject_seeded(program: &str, seeds: &[&[u8]], extra: &[&str]) -> Corpus {
    let files: Vec<tempfile::NamedTempFile> = seeds
        .iter()
        .map(|bytes| {
            let seed = tempfile::NamedTempFile::new().unwrap();
            let test = serde_json::json!({"objects": [{"name": "stdin", "bytes": bytes}]});
            std::fs::write(seed.path(), test.to_string()).unwrap();
            seed
        })
        .collect();
    let len = seeds[0].len().to_string();
    let mut args = vec!["--sym-stdin", &len, "--seed", "1"];
    for f in &files {
        args.extend(["--seed-test", f.path().to_str().unwrap()]);
    }
    args.extend_from_slice(extra);
    inject_file(&test_program(program), &args)
}

/// How many of the verification's inputs of `kind` the bug was tried on and fired on.
fn tried_and_fired(bug: &Json, kind: &str) -> (u64, u64) {
    let t = &bug["verification"]["by_source"][kind];
    (t["tried"].as_u64().unwrap(), t["fired"].as_u64().unwrap())
}

/// The bug's points as a refusal names them: `rare.c:25 in@7 == 104, ...`.
fn points_text(bug: &Json) -> String {
    let points: Vec<String> = bug["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("rare.c:{} {}", p["line"], p["predicate"].as_str().unwrap()))
        .collect();
    points.join(", ")
}

#[test]
fn a_bug_is_emitted_only_if_it_fires_on_at_most_max_fire_rate_of_mutations() {
    // One point, rarity not selecting: the bug guards one byte and fires on every
    // mutation of its trigger that leaves that byte alone (reported as near_trigger).
    let single = inject_rare(&["--points", "1", "--max-fire-rate", "1"]);
    assert_emitted_and_verified(&single, 1);
    let bug = &single.bugs()[0];
    let (tried, fired) = tried_and_fired(bug, "near_trigger");
    assert_eq!(tried, 50);
    assert!(
        fired > 25,
        "fires on most mutations of its trigger: {fired} of 50"
    );
    assert_eq!(tried_and_fired(bug, "mutated").0, 50, "{bug}");
    // Selecting at 0.1% (the default), one, two and four points: what gates is the
    // mutations of the program's own inputs (here the explored tests), on none of which
    // the bug chosen fires, nor on a random input; it still fires on mutations of its
    // trigger, which are reported only.
    let chosen = inject_rare(&["--points", "1", "--max-fire-rate", "0.001"]);
    assert_emitted_and_verified(&chosen, 1);
    let bug = &chosen.bugs()[0];
    assert_eq!(tried_and_fired(bug, "mutated"), (50, 0), "{bug}");
    assert_eq!(tried_and_fired(bug, "random"), (50, 0), "{bug}");
    assert!(tried_and_fired(bug, "explored").0 > 0, "{bug}");
    assert!(
        chosen.stderr.contains(" own input(s) (0 --pool, ")
            && !chosen.stderr.contains("0 --pool, 0 explored"),
        "{}",
        chosen.stderr
    );
    let (tried, near) = tried_and_fired(bug, "near_trigger");
    assert_eq!(tried, 50, "{bug}");
    assert!(
        near > 0,
        "common near its trigger, emitted all the same: {bug}"
    );
    // With no explored test, the program's own inputs are the seed input, the trigger
    // itself: every conjunction true on it holds on its mutations that leave the bytes
    // it reads alone, and the candidates fire too often: refused, both rates and the
    // rarest candidate's points in the reason.
    let alone = inject_rare(&[
        "--points",
        "1",
        "--max-fire-rate",
        "0.001",
        "--explore-time",
        "0.000001",
    ]);
    assert_eq!(alone.status, 0, "{}", alone.stderr);
    assert!(
        alone.stderr.contains(
            "measuring rarity on mutations of 1 own input(s) (no --pool or explored test: the seed paths' inputs)"
        ),
        "{}",
        alone.stderr
    );
    assert_eq!(alone.summary["emitted"], 0, "{}", alone.stdout);
    let why = alone.summary["failures"][0]["reason"].as_str().unwrap();
    let rates = why
        .strip_prefix("too common: the rarest of 3 candidate(s) fires on ")
        .unwrap_or_else(|| panic!("{why}"));
    let mutated: u64 = rates.split('/').next().unwrap().parse().unwrap();
    assert!(
        mutated > 0 && rates.contains("/50 mutated") && rates.contains("near-trigger"),
        "{why}"
    );
    let (_, points) = why.split_once("; its points: ").unwrap();
    assert!(
        points.split(", ").all(|p| p.starts_with("rare.c:")),
        "{why}"
    );
    // Three points asked: the longer variants read every byte; the bug emitted fires
    // on none of the verification's inputs of any kind, its trigger's mutations
    // included (fresh ones: not those it was chosen on).
    let rare = inject_rare(&["--points", "3", "--max-fire-rate", "0.001"]);
    assert_emitted_and_verified(&rare, 1);
    let bug = &rare.bugs()[0];
    for kind in ["mutated", "random", "near_trigger"] {
        assert_eq!(tried_and_fired(bug, kind), (50, 0), "{kind}: {bug}");
    }
}

/// How many times `c` measured candidates of bug `id` (of `of`) natively.
fn measured(c: &Corpus, id: usize, of: usize) -> usize {
    let what = format!("bug {id}/{of}: measuring");
    c.stderr.lines().filter(|l| l.contains(&what)).count()
}

/// `augur inject` on rare.c from `seeds` with one point per bug, no exploration and
/// `extra`: it ran and emitted `emitted` bugs.
fn seeded_rare(seeds: &[&[u8; 8]], extra: &[&str], emitted: u64) -> Corpus {
    let mut args = vec!["--points", "1", "--explore-time", "0.000001"];
    args.extend_from_slice(extra);
    let c = inject_rare_from(seeds, &args);
    assert_eq!(c.status, 0, "{}", c.stderr);
    assert_eq!(c.summary["emitted"], emitted, "{}", c.stdout);
    c
}

/// [`seeded_rare`], and the reason the first bug not emitted was refused for.
fn refused_on_rare(seeds: &[&[u8; 8]], extra: &[&str], emitted: u64) -> (Corpus, String) {
    let c = seeded_rare(seeds, extra, emitted);
    let why = c.summary["failures"][0]["reason"]
        .as_str()
        .unwrap()
        .to_string();
    (c, why)
}

#[test]
fn a_bug_refused_on_its_first_seed_paths_is_tried_on_the_next_ones() {
    // Four seed paths of inputs alike but for their last byte, which are also the
    // program's own inputs: a conjunction true on one of them holds on every mutation
    // of it (or, without the last byte, of any of them) that leaves its bytes alone, so
    // the candidates of the first three paths are too common, and so are those
    // synthesized again on the fourth.
    let (c, why) = refused_on_rare(
        &[b"abcdefgh", b"abcdefgi", b"abcdefgj", b"abcdefgk"],
        &["--max-fire-rate", "0.001"],
        0,
    );
    let (first, second) = why
        .split_once("; then on the next 1 seed path(s): ")
        .unwrap_or_else(|| panic!("{why}"));
    assert!(
        first.starts_with("too common") && second.starts_with("too common"),
        "{why}"
    );
    assert_eq!(measured(&c, 1, 1), 2, "{}", c.stderr);
}

#[test]
fn in_one_program_a_seed_input_sharing_an_earlier_trigger_is_replaced_by_another_of_its_path() {
    // Four seed paths of one input, every bug in one program: bug 1 takes the first;
    // every candidate of bug 2 on the next path holds on bug 1's trigger (the same
    // input), so none is measured; that path gets another input, one of its samples
    // unlike the trigger at its points, on which bug 2 is synthesized and emitted. Each
    // trigger fires its own bug alone.
    let c = seeded_rare(&[b"abcdefgh"; 4], &["--one-program", "--bugs", "2"], 2);
    assert!(
        c.stderr.contains(
            "bug 2/2: seed path 2: another input of the path, unlike the earlier triggers at its points"
        ),
        "{}",
        c.stderr
    );
    assert_eq!(
        (measured(&c, 1, 2), measured(&c, 2, 2)),
        (1, 1),
        "{}",
        c.stderr
    );
    let bugs = c.bugs();
    let trigger = |b: &Json| std::fs::read_to_string(c.bug_dir(b).join("trigger.json")).unwrap();
    assert_ne!(trigger(&bugs[0]), trigger(&bugs[1]));
    for bug in &bugs {
        assert_eq!(
            bug["verification"]["other_bugs_fired_by_trigger"], 0,
            "{bug}"
        );
        assert_eq!(bug["verification"]["trigger_fires"], true, "{bug}");
    }
}

#[test]
fn in_one_program_a_seed_path_whose_samples_all_share_an_earlier_trigger_gets_the_solver_s_input() {
    // sliver.c's value v is 1 on one input in 2^24 (stdin 7, 9, 3) and 0 on every
    // sample of its one path: bug 1 takes v's value on the seed, so every candidate of
    // bug 2 holds on bug 1's trigger and no sample differs from it; the solver gives an
    // input of the path with v = 1, on which bug 2 is synthesized and emitted.
    let extra = [
        "--points",
        "1",
        "--explore-time",
        "0.000001",
        "--one-program",
        "--bugs",
        "2",
    ];
    let c = inject_seeded("sliver.c", &[b"abc", b"abc"], &extra);
    assert_eq!(c.status, 0, "{}", c.stderr);
    assert_eq!(c.summary["emitted"], 2, "{}", c.stdout);
    assert!(
        c.stderr.contains(
            "bug 2/2: seed path 2: another input of the path, unlike the earlier triggers at its points"
        ),
        "{}",
        c.stderr
    );
    let bug2: Json = serde_json::from_slice(
        &std::fs::read(c.bug_dir(&c.bugs()[1]).join("trigger.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(bug2["objects"][0]["bytes"], serde_json::json!([7, 9, 3]));
    // Each bug's verification counts its own firings: bug 1 (v = 0) fires on every
    // random input, bug 2 (v = 1) on none, and those runs are bug 1's in bug 2's counts.
    let random = |i: usize| c.bugs()[i]["verification"]["by_source"]["random"].clone();
    assert_eq!(
        (&random(0)["fired"], &random(0)["fired_another_bug"]),
        (&serde_json::json!(50), &serde_json::json!(0))
    );
    assert_eq!(
        (&random(1)["fired"], &random(1)["fired_another_bug"]),
        (&serde_json::json!(0), &serde_json::json!(50))
    );
}

#[test]
fn a_seed_path_that_yields_no_candidate_says_why_as_it_goes() {
    // Both paths of unheld.c (`getchar() == 'a'` or not) hold the input in no variable.
    let c = inject_file(&test_program("unheld.c"), &["--sym-stdin", "1"]);
    assert_eq!(c.status, 0, "{}", c.stderr);
    let why =
        "no transition point: no line on the seed path has an input-dependent variable in scope";
    for path in 1..=2 {
        let line = format!("bug 1/1: seed path {path}: no candidate: {why}");
        assert!(c.stderr.contains(&line), "{line}\n{}", c.stderr);
    }
    assert_eq!(
        c.summary["failures"][0]["reason"],
        format!("on every seed path (2): 2 x {why}")
    );
}

#[test]
fn a_local_is_never_read_before_every_path_assigns_it() {
    // classify() declares its locals at the top and first assigns them on these lines:
    // at the start of those lines and before, their bytes are whatever the stack held.
    let first_assigned = [("sum", 8), ("flag", 9), ("late", 14)];
    let c = inject_file(
        &test_program("late.c"),
        &["--bugs", "3", "--points", "4", "--seed", "3"],
    );
    assert_emitted_and_verified(&c, 1);
    for bug in c.bugs() {
        for p in bug["points"].as_array().unwrap() {
            let pred = p["predicate"].as_str().unwrap();
            let line = p["line"].as_u64().unwrap();
            for (var, assigned) in first_assigned {
                assert!(
                    !pred.split(' ').any(|w| w == var) || line > assigned,
                    "line {line} reads `{var}` before its assignment: {pred}"
                );
            }
        }
    }
}

#[test]
fn struct_fields_and_array_elements_of_globals_are_predicate_variables() {
    // elements.c keeps its input in `cur`'s fields and `history`'s elements only.
    let c = inject_file(&test_program("elements.c"), &["--bugs", "2", "--seed", "1"]);
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["cur@", "history@"]);
}

/// The words of `s` (a command line's arguments).
fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Every predicate of every bug of `c` starts with one of `vars`.
fn assert_every_predicate_reads(c: &Corpus, vars: &[&str]) {
    for bug in c.bugs() {
        for p in bug["points"].as_array().unwrap() {
            let pred = p["predicate"].as_str().unwrap();
            assert!(vars.iter().any(|v| pred.starts_with(v)), "{pred}");
        }
    }
}

#[test]
fn fields_and_elements_of_local_aggregates_are_predicate_variables_once_assigned() {
    // local_elements.c keeps its input in the fields of `f` and the elements of
    // `window` only; window[0] and window[1] are first assigned on lines 19 and 20.
    let c = inject_file(
        &test_program("local_elements.c"),
        &["--bugs", "2", "--seed", "1"],
    );
    assert_emitted_and_verified(&c, 1);
    for bug in c.bugs() {
        for p in bug["points"].as_array().unwrap() {
            let pred = p["predicate"].as_str().unwrap();
            let line = p["line"].as_u64().unwrap();
            assert!(
                pred.starts_with("f@") || pred.starts_with("window@"),
                "{pred}"
            );
            for (var, assigned) in [("window@0", 19), ("window@4", 20)] {
                assert!(
                    !pred.split(' ').any(|w| w == var) || line > assigned,
                    "line {line} reads `{var}` before its assignment: {pred}"
                );
            }
        }
    }
}

#[test]
fn what_local_pointers_point_at_are_predicate_variables() {
    // pointees.c reaches its input only through scan()'s `p` and `r`: every predicate
    // reads bytes at an offset from where one of them points (or of `p`'s string).
    let c = inject_file(&test_program("pointees.c"), &["--bugs", "2", "--seed", "1"]);
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["*p@", "*p#", "*r@"]);
}

#[test]
fn what_global_pointers_point_at_are_predicate_variables() {
    // global_pointees.c reaches its input only through the globals `line` and `cur`,
    // which scan() (no parameter, no local) reads through.
    let c = inject_file(
        &test_program("global_pointees.c"),
        &["--bugs", "2", "--seed", "1"],
    );
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["*line@", "*line#", "*cur@"]);
}

#[test]
fn elements_read_at_an_index_a_local_holds_are_predicate_variables() {
    // indexed.c holds its input in no variable: it reads argv[i][0], argv[i][1] and
    // buf[j] only, each at an index a loop's local holds; indexed_offset.c reads
    // argv[i + 1][0], argv[i + 1][1] and buf[j - 1] only; global_index.c argv[first],
    // `first` a global.
    let args = &["--sym-args", "1", "2", "2"][..];
    let stdin = &["--sym-stdin", "4"][..];
    for (program, input, var) in [
        ("indexed.c", args, "*(*argv[i*8])#"),
        ("indexed.c", stdin, "buf[j*1]@0"),
        ("indexed_offset.c", args, "*(*argv[(i+1)*8])#"),
        ("indexed_offset.c", stdin, "buf[(j-1)*1]@0"),
        (
            "global_index.c",
            &["--sym-args", "1", "1", "3"],
            "*(*argv[first*8])#",
        ),
    ] {
        let args = [input, &["--bugs", "1", "--points", "3", "--seed", "1"]].concat();
        let c = inject_file(&test_program(program), &args);
        assert_emitted_and_verified(&c, 1);
        assert_every_predicate_reads(&c, &[var]);
    }
}

#[test]
fn the_bytes_of_strings_passed_to_the_c_library_are_predicate_variables() {
    // string_args.c reads no input byte itself: it hands its arguments to strcmp() in
    // main() and in kind().
    let c = inject_file(
        &test_program("string_args.c"),
        &words("--sym-args 1 2 5 --bugs 1 --points 3 --seed 1"),
    );
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["*name@0", "*name#", "*(*argv[i*8])#"]);
}

#[test]
fn a_bug_is_verified_past_undefined_behaviour_the_original_has_on_every_path() {
    // own_ub.c computes null + 0 on every path before it reads its input (clang's UBSan
    // reports it, gcc's does not): the clang builds' runs of the trigger go on past the
    // report, which the original's build makes too, to the bug's failure.
    let c = inject_file(
        &test_program("own_ub.c"),
        &words("--sym-stdin 4 --bugs 1 --points 3 --seed 1"),
    );
    assert_emitted_and_verified(&c, 1);
    let builds = c.bugs()[0]["verification"]["builds"].clone();
    let outcomes: Vec<(&str, &str)> = builds
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["build"].as_str().unwrap(), b["outcome"].as_str().unwrap()))
        .collect();
    let past = "fires past the original's own report(s): \
                UBSan: applying zero offset to null pointer at own_ub.c:15";
    for (build, outcome) in &outcomes {
        let want = match build.contains("clang") && build.contains("undefined") {
            true => past,
            false => "fires",
        };
        assert_eq!(*outcome, want, "{build}");
    }
}

#[test]
fn a_variable_declared_again_in_another_block_is_a_predicate_variable_under_its_name() {
    // shadowed.c reaches its input only through the second of two `p`s of one function,
    // whose stack slot LLVM names `%p1`.
    let c = inject_file(
        &test_program("shadowed.c"),
        &["--sym-stdin", "6", "--bugs", "1", "--seed", "1"],
    );
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["*p@", "*p#"]);
}

#[test]
fn a_loop_body_holds_transitions_at_several_of_its_visits() {
    // loop_body.c reads its input in one loop of two lines: four points need two visits
    // of one line, and the trigger (checked natively on every build) takes the loop's
    // iterations in order.
    let c = inject_file(
        &test_program("loop_body.c"),
        &["--bugs", "1", "--points", "4", "--seed", "1"],
    );
    assert_emitted_and_verified(&c, 1);
    for bug in c.bugs() {
        let points: Vec<(u64, u64)> = bug["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["line"].as_u64().unwrap(), p["instance"].as_u64().unwrap()))
            .collect();
        let twice = points
            .iter()
            .enumerate()
            .any(|(i, (line, visit))| points[i + 1..].iter().any(|(l, v)| l == line && v > visit));
        assert!(twice, "no line at two of its visits, in order: {points:?}");
    }
}

#[test]
fn the_bytes_of_a_string_a_char_pointer_points_at_are_predicate_variables() {
    // strings.c's check() reads word[0] only: the later bytes are string bytes, read
    // natively only up to the string's end.
    let c = inject_file(
        &test_program("strings.c"),
        &["--bugs", "2", "--points", "3", "--seed", "1"],
    );
    assert_emitted_and_verified(&c, 1);
    assert_every_predicate_reads(&c, &["*word@", "*word#"]);
    let preds: Vec<String> = c.bugs().iter().map(points_text).collect();
    assert!(preds.iter().any(|p| p.contains("*word#")), "{preds:?}");
}

#[test]
fn a_missing_pool_is_one_error_line() {
    let c = inject("tiny.c", &["--pool", "/nonexistent/pool.json"]);
    assert_eq!(c.status, 2, "{}", c.stderr);
    assert_eq!(c.stderr.trim().lines().count(), 1, "{}", c.stderr);
    assert!(
        c.stderr.contains("/nonexistent/pool.json: cannot read"),
        "{}",
        c.stderr
    );
}

/// Every file under `dir` with its bytes (to show a tree was left untouched).
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out.sort();
    out
}

/// A copy of the project tests/programs/`name` at `to`.
fn copy_tree(name: &str, to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(name);
    let ok = Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(to)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// `make -B CC=cc` in `tree` (everything rebuilt by `cc`).
fn make(tree: &Path, cc: &str) {
    let o = Command::new("make")
        .arg("-B")
        .arg(format!("CC={cc}"))
        .current_dir(tree)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The `prog` built in `tree` run on `stdin`: (exit status, or minus the signal; stdout;
/// stderr).
fn run_prog(tree: &Path, stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(tree.join("prog"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let o = child.wait_with_output().unwrap();
    let status = o.status.code().or(o.status.signal().map(|s| -s));
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    (status, o.stdout, stderr)
}

/// A project given as a source tree and its Makefile: the tree is left alone, the bug
/// goes into the file with the logic (not main.c, which only reads the input), the
/// patch applies to a fresh copy, and the patched tree built by its own Makefile with
/// clang and with gcc fires on the trigger, while inputs that do not fire it behave as
/// the original.
#[test]
fn a_project_tree_gets_a_patch_whose_trigger_fires_natively() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    copy_tree("inject_project", &tree);
    let before = snapshot(&tree);
    let out = dir.path().join("corpus");
    let o = augur()
        .args(["inject", "--project"])
        .arg(&tree)
        .args(["--build", "make", "--program", "prog", "--sym-stdin", "6"])
        // The paths do not end within the exploration: 5 s gives 32 seed paths on an
        // idle machine (Z3 4.8.12 gave 4 in 30 s), one is enough.
        .args([
            "--explore-time",
            "5",
            "--measure",
            "100",
            "--max-fire-rate",
            "1",
        ])
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(snapshot(&tree), before, "the project's tree was written");
    let summary: Json =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let bug = &summary["bugs"][0];
    assert_eq!(summary["emitted"], 1, "{summary}");
    assert_eq!(bug["verification"]["builds"].as_array().unwrap().len(), 5);
    for p in bug["points"].as_array().unwrap() {
        assert_eq!(p["file"], "src/machine.c", "{bug}");
    }
    let bug_dir = out.join("bug001");
    let patch = std::fs::read_to_string(bug_dir.join("bug.patch")).unwrap();
    let targets: Vec<&str> = patch.lines().filter(|l| l.starts_with("+++ ")).collect();
    assert_eq!(targets, ["+++ b/src/machine.c"], "{patch}");
    assert!(!bug_dir.join("src/main.c").exists());

    let patched = dir.path().join("patched");
    copy_tree("inject_project", &patched);
    let applied = Command::new("patch")
        .args(["-p1", "-i"])
        .arg(bug_dir.join("bug.patch"))
        .current_dir(&patched)
        .output()
        .unwrap();
    assert!(applied.status.success(), "{applied:?}");
    assert_eq!(
        std::fs::read(patched.join("src/machine.c")).unwrap(),
        std::fs::read(bug_dir.join("src/machine.c")).unwrap()
    );

    let trigger = std::fs::read(bug_dir.join("trigger.stdin")).unwrap();
    let others: [&[u8]; 5] = [b"", b"zzzzzz", b"\0\0\0\0\0\0", b"ab3b9a", b"bbbbbb"];
    for cc in [augur_ir::llvm::clang().as_str(), "gcc"] {
        make(&patched, cc);
        make(&tree, cc);
        let (status, _, err) = run_prog(&patched, &trigger);
        assert_eq!(status, Some(-6), "{cc}: the trigger does not abort: {err}");
        assert!(err.contains("augur-inject bug 1"), "{cc}: {err}");
        let (status, _, err) = run_prog(&tree, &trigger);
        assert!(matches!(status, Some(0 | 1)), "{cc}: original: {err}");
        let mut quiet = 0;
        for input in others {
            let buggy = run_prog(&patched, input);
            if buggy.2.contains("augur-inject bug 1") {
                continue;
            }
            quiet += 1;
            let original = run_prog(&tree, input);
            assert_eq!(
                (buggy.0, &buggy.1),
                (original.0, &original.1),
                "{cc} on {input:?}"
            );
        }
        assert!(quiet > 0, "{cc}: every input fires the bug");
    }
}

/// A project whose build fails is one error line naming the tree and the command.
#[test]
fn a_failing_project_build_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree");
    copy_tree("inject_project", &tree);
    let o = augur()
        .args(["inject", "--project"])
        .arg(&tree)
        .args(["--build", "make no-such-target", "--program", "prog", "-o"])
        .arg(dir.path().join("corpus"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains(&format!("{}: `make no-such-target` fails", tree.display())),
        "{stderr}"
    );
}
