//! End-to-end tests of `augur diff`: revisions written here, compared by differential
//! tests; classes, the decision tree (checked minimal by brute force), and every test's
//! native re-run are checked.

mod common;

use common::{augur, program};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// What one `augur diff` produced.
struct Diff {
    status: i32,
    stdout: String,
    stderr: String,
    summary: Json,
    clusters: Json,
    tree: Json,
    tests: Vec<Json>,
    _dir: tempfile::TempDir,
}

/// Write `files` (relative path, contents) into a fresh directory and run `augur diff`
/// with `args`, where `@name` stands for the path of file `name`.
fn diff(files: &[(&str, &str)], args: &[&str]) -> Diff {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = dir.path().join("out");
    let args: Vec<String> = args
        .iter()
        .map(|a| match a.strip_prefix('@') {
            Some(n) => dir.path().join(n).display().to_string(),
            None => a.to_string(),
        })
        .collect();
    let o = augur()
        .current_dir(dir.path())
        .arg("diff")
        .arg("-o")
        .arg(&out)
        .args(&args)
        .output()
        .unwrap();
    let read = |p: PathBuf| -> Json {
        std::fs::read(p)
            .map(|b| serde_json::from_slice(&b).unwrap())
            .unwrap_or(Json::Null)
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(out.join("difftests"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    Diff {
        status: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        summary: read(out.join("summary.json")),
        clusters: read(out.join("clusters.json")),
        tree: read(out.join("tree.json")),
        tests: names.into_iter().map(read).collect(),
        _dir: dir,
    }
}

impl Diff {
    /// The final classes as sorted lists of revision file names (without directories).
    fn classes(&self) -> Vec<Vec<String>> {
        let mut c: Vec<Vec<String>> = self.summary["classes"]
            .as_array()
            .unwrap_or_else(|| panic!("no summary:\n{}", self.stderr))
            .iter()
            .map(|c| {
                let mut v: Vec<String> = c
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| short(n.as_str().unwrap()))
                    .collect();
                v.sort();
                v
            })
            .collect();
        c.sort();
        c
    }

    /// Every differential test separates the pair it was solved for, on re-execution, and
    /// every native run agrees with the engine's run of the same revision.
    fn assert_tests_show_their_difference(&self) {
        assert!(
            !self.tests.is_empty(),
            "no differential test:\n{}",
            self.stderr
        );
        for t in &self.tests {
            let pair = t["solved_for"].as_array().unwrap();
            let (a, b) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            let observed = &t["observed"];
            assert_ne!(
                observed[a], observed[b],
                "test {t} does not separate {a} and {b}"
            );
            for (rev, o) in observed.as_object().unwrap() {
                assert_eq!(
                    o["native"]["agrees_with_engine"], true,
                    "native run of {rev} disagrees with the engine: {o}"
                );
            }
        }
    }

    /// The tree's height is the minimal height over the tests' partitions (brute force).
    fn assert_tree_minimal(&self) {
        let names: Vec<String> = self.summary["revisions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        let idx = |n: &Json| names.iter().position(|x| x == n.as_str().unwrap()).unwrap();
        // labels[t][r]: the class of revision r in test t.
        let labels: Vec<Vec<usize>> = self.clusters["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let mut l = vec![0; names.len()];
                for (k, c) in t["classes"].as_array().unwrap().iter().enumerate() {
                    for r in c["revisions"].as_array().unwrap() {
                        l[idx(r)] = k;
                    }
                }
                l
            })
            .collect();
        let all: Vec<usize> = (0..names.len()).collect();
        let want = min_height(&all, &labels);
        assert_eq!(self.tree["height"], want, "tree is not of minimal height");
        assert_eq!(self.summary["tree_height"], want);
    }
}

/// The minimal height of a decision tree separating `set` by the tests' `labels`.
fn min_height(set: &[usize], labels: &[Vec<usize>]) -> usize {
    let mut best: Option<usize> = None;
    for l in labels {
        let mut parts: Vec<Vec<usize>> = Vec::new();
        for &r in set {
            match parts.iter_mut().find(|p| l[p[0]] == l[r]) {
                Some(p) => p.push(r),
                None => parts.push(vec![r]),
            }
        }
        if parts.len() < 2 {
            continue;
        }
        let h = 1 + parts.iter().map(|p| min_height(p, labels)).max().unwrap();
        best = Some(best.map_or(h, |b: usize| b.min(h)));
    }
    best.unwrap_or(0)
}

fn short(name: &str) -> String {
    Path::new(name)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn classes(lists: &[&[&str]]) -> Vec<Vec<String>> {
    let mut c: Vec<Vec<String>> = lists
        .iter()
        .map(|l| {
            let mut v: Vec<String> = l.iter().map(|s| s.to_string()).collect();
            v.sort();
            v
        })
        .collect();
    c.sort();
    c
}

const CLAMP: &str = include_str!("programs/diff/clamp.c");

fn variant(from: &str, to: &str) -> String {
    assert!(CLAMP.contains(from));
    CLAMP.replace(from, to)
}

#[test]
fn equal_revisions_share_a_class_and_others_are_separated() {
    let same = variant("if (x > 100) return 100;", "if (x >= 100) return 100;");
    let printed = variant("if (x < 0) return 0;", "if (x < -1) return 0;");
    let crash = variant(
        "  return 0;\n}",
        "  if (x == 7) { int *p = 0; *p = 1; }\n  return 0;\n}",
    );
    let d = diff(
        &[
            ("base.c", CLAMP),
            ("same.c", &same),
            ("printed.c", &printed),
            ("crash.c", &crash),
        ],
        &["base.c", "same.c", "printed.c", "crash.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(
        d.classes(),
        classes(&[&["base.c", "same.c"], &["printed.c"], &["crash.c"]])
    );
    assert_eq!(d.summary["exploration_complete"], true);
    assert!(d.summary["equivalence"]
        .as_str()
        .unwrap()
        .contains("bounded proof of equivalence"));
    d.assert_tests_show_their_difference();
    d.assert_tree_minimal();
    // The crash is told apart by its ending, natively too.
    let crash_test = d
        .tests
        .iter()
        .find(|t| t["observed"]["crash.c"]["ending"] == "error null-dereference")
        .expect("a test where crash.c crashes");
    assert_eq!(crash_test["observed"]["base.c"]["ending"], "exit 0");
    assert_ne!(
        crash_test["observed"]["crash.c"]["native"]["ending"],
        "exit 0"
    );
    // The classes and the tree are shown on the terminal.
    assert!(d.stdout.contains("decision tree: height 2"), "{}", d.stdout);
}

#[test]
fn a_difference_only_in_a_return_value_is_found_and_can_be_deselected() {
    let src = |body: &str| {
        format!(
            "#include <augur.h>\nint score(int x) {{ {body} }}\n\
             int main(void) {{ int x; augur_make_symbolic(&x, sizeof x, \"x\");\n\
             int s = score(x); return s > 1000; }}\n"
        )
    };
    let base = src("if (x > 10) return 2; return 1;");
    let other = src("if (x > 10) return 3; return 1;");
    let files = [("base.c", base.as_str()), ("other.c", other.as_str())];
    let d = diff(&files, &["base.c", "other.c"]);
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["base.c"], &["other.c"]]));
    d.assert_tests_show_their_difference();
    let t = &d.tests[0];
    assert_eq!(
        t["observed"]["base.c"]["outputs"]["score:ret"],
        "[02 00 00 00]"
    );
    assert_eq!(
        t["observed"]["other.c"]["outputs"]["score:ret"],
        "[03 00 00 00]"
    );
    // Natively the two are alike: only the observed return value tells them apart.
    assert_eq!(
        t["observed"]["base.c"]["native"],
        t["observed"]["other.c"]["native"]
    );
    let d = diff(&files, &["--outputs", "stdout,exit", "base.c", "other.c"]);
    assert_eq!(d.classes(), classes(&[&["base.c", "other.c"]]));
    assert!(d.tests.is_empty());
}

#[test]
fn a_difference_in_a_pointer_arguments_result_is_found() {
    let src = |op: &str| {
        format!(
            "#include <augur.h>\nvoid bump(int *p, int by) {{ *p = *p {op} by; }}\n\
             int main(void) {{ int x, v = 5; augur_make_symbolic(&x, sizeof x, \"x\");\n\
             bump(&v, x); return v == 123456; }}\n"
        )
    };
    let (plus, xor) = (src("+"), src("^"));
    let d = diff(
        &[("plus.c", plus.as_str()), ("xor.c", xor.as_str())],
        &["plus.c", "xor.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["plus.c"], &["xor.c"]]));
    d.assert_tests_show_their_difference();
    let outs = &d.tests[0]["observed"];
    assert_ne!(
        outs["plus.c"]["outputs"]["bump:arg0*"],
        outs["xor.c"]["outputs"]["bump:arg0*"]
    );
}

const MULTI_MAIN: &str = include_str!("programs/diff/multi_main.c");

#[test]
fn directories_of_files_where_one_file_differs() {
    let parse = |cond: &str| {
        format!(
            "int parse(const char *s) {{ int n = 0;\n\
             for (int i = 0; s[i]; i++) {{ if ({cond}) n = n * 10 + (s[i] - '0'); else return -1; }}\n\
             return n; }}\n"
        )
    };
    let good = parse("s[i] >= '0' && s[i] <= '9'");
    let bad = parse("s[i] >= '0' && s[i] <= '8'");
    let d = diff(
        &[
            ("v1/main.c", MULTI_MAIN),
            ("v1/parse.c", &good),
            ("v2/main.c", MULTI_MAIN),
            ("v2/parse.c", &bad),
            ("v3/main.c", MULTI_MAIN),
            ("v3/parse.c", &good),
        ],
        &["v1", "v2", "v3"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["v1", "v3"], &["v2"]]));
    assert_eq!(
        d.summary["dispatched_functions"],
        serde_json::json!(["parse"])
    );
    d.assert_tests_show_their_difference();
    d.assert_tree_minimal();
    // The test feeds a 9 to parse.
    assert!(d.tests[0]["objects"][0]["bytes"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!(b'9')));
}

#[test]
fn a_program_reading_input_with_scanf() {
    let src = |limit: &str| {
        format!(
            "#include <stdio.h>\nint main(void) {{ int n;\n\
             if (scanf(\"%d\", &n) != 1) {{ puts(\"bad\"); return 1; }}\n\
             if (n > {limit}) puts(\"big\"); else puts(\"small\");\n\
             return 0; }}\n"
        )
    };
    let (a, b) = (src("5"), src("6"));
    let d = diff(
        &[("a.c", a.as_str()), ("b.c", b.as_str())],
        &["--sym-stdin", "2", "a.c", "b.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["a.c"], &["b.c"]]));
    d.assert_tests_show_their_difference();
    let t = &d.tests[0];
    let stdin: Vec<u8> = t["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "stdin")
        .unwrap()["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    let n: i64 = String::from_utf8_lossy(&stdin)
        .trim_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or(-1);
    assert_eq!(
        n, 6,
        "only 6 is big for one and small for the other: {stdin:?}"
    );
    assert_eq!(t["observed"]["a.c"]["native"]["stdout"], "big\n");
    assert_eq!(t["observed"]["b.c"]["native"]["stdout"], "small\n");
}

fn unified(dir: &Path, old: &str, new: &str) -> String {
    std::fs::write(dir.join("a.c"), old).unwrap();
    std::fs::write(dir.join("b.c"), new).unwrap();
    let o = std::process::Command::new("diff")
        .arg("-u")
        .arg(dir.join("a.c"))
        .arg(dir.join("b.c"))
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn revisions_given_as_unified_diffs() {
    let tmp = tempfile::tempdir().unwrap();
    let p1 = unified(
        tmp.path(),
        CLAMP,
        &variant("if (x > 100) return 100;", "if (x >= 100) return 100;"),
    );
    let p2 = unified(
        tmp.path(),
        CLAMP,
        &variant("if (x > 100) return 100;", "if (x > 99) return 99;"),
    );
    let d = diff(
        &[("prog.c", CLAMP), ("p1.diff", &p1), ("p2.diff", &p2)],
        &["prog.c", "--patch", "p1.diff", "--patch", "p2.diff"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(
        d.classes(),
        classes(&[&["p1.diff", "prog.c"], &["p2.diff"]])
    );
    d.assert_tests_show_their_difference();
    d.assert_tree_minimal();
    // A patch that does not apply is one clear error naming the patch and the hunk.
    let bad = p2.replace("if (x > 100) return 100;", "if (x > 100) return 101;");
    let d = diff(
        &[("prog.c", CLAMP), ("bad.diff", &bad)],
        &["prog.c", "--patch", "bad.diff"],
    );
    assert_eq!(d.status, 2);
    let line = d.stderr.trim();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.contains("bad.diff") && line.contains("hunk 1") && line.contains("does not apply"),
        "{line}"
    );
}

#[test]
fn a_hand_written_meta_program() {
    let meta = &program("diff/a_hand_written_meta_program_meta.c");
    let d = diff(&[("meta.c", meta)], &["meta.c"]);
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(
        d.classes(),
        classes(&[&["meta@rev0", "meta@rev1"], &["meta@rev2"]])
    );
    d.assert_tests_show_their_difference();
    // More revisions than the code names: the extra one runs the final `else`.
    let d = diff(&[("meta.c", meta)], &["--revisions", "4", "meta.c"]);
    assert_eq!(
        d.classes(),
        classes(&[&["meta@rev0", "meta@rev1"], &["meta@rev2"], &["meta@rev3"]])
    );
}

#[test]
fn bad_inputs_are_one_clear_error() {
    let d = diff(&[("a.c", CLAMP)], &["a.c", "missing.c"]);
    assert_eq!(d.status, 2);
    assert!(
        d.stderr.contains("missing.c") && d.stderr.trim().lines().count() == 1,
        "{}",
        d.stderr
    );
    let d = diff(&[("a.c", CLAMP)], &["a.c"]);
    assert_eq!(d.status, 2);
    assert!(d.stderr.contains("augur_meta"), "{}", d.stderr);
    let d = diff(
        &[("a.c", CLAMP), ("b.c", CLAMP)],
        &["--timeout", "0", "a.c", "b.c"],
    );
    assert_eq!(d.status, 2);
    assert!(d.stderr.contains("--timeout"), "{}", d.stderr);
    let d = diff(&[("a.c", CLAMP), ("b.c", "int main( {")], &["a.c", "b.c"]);
    assert_eq!(d.status, 2);
    assert!(
        d.stderr.contains("b.c") && d.stderr.contains("does not compile"),
        "{}",
        d.stderr
    );
}

#[test]
fn max_time_stops_exploring_and_writes_what_was_found() {
    let src = |k: &str| {
        format!(
            "#include <augur.h>\n#include <stdio.h>\nint f(int s) {{ return s % {k}; }}\n\
             int main(void) {{ unsigned char b[40]; augur_make_symbolic(b, sizeof b, \"b\");\n\
             int s = 0; for (int i = 0; i < 40; i++) if (b[i] > 'm') s += i;\n\
             printf(\"%d\\n\", f(s)); return 0; }}\n"
        )
    };
    let (a, b, c) = (src("7"), src("5"), src("7 + 0"));
    let d = diff(
        &[
            ("a.c", a.as_str()),
            ("b.c", b.as_str()),
            ("c.c", c.as_str()),
        ],
        &["--max-time", "2", "--search", "dfs", "a.c", "b.c", "c.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.summary["exploration_complete"], false);
    assert!(d.summary["equivalence"]
        .as_str()
        .unwrap()
        .contains("cut short"));
    assert_eq!(d.classes(), classes(&[&["a.c", "c.c"], &["b.c"]]));
    d.assert_tests_show_their_difference();
}

#[test]
fn a_refactoring_that_changes_a_helpers_signature_is_equivalent() {
    let a = &program("diff/a_refactoring_that_changes_a_helpers_signature_is_equivalent_a.c");
    let b = a
        .replace(
            "helper(int v) { return v + 1; }",
            "helper(int v, int w) { return v + w; }",
        )
        .replace("helper(y)", "helper(y, 1)");
    let c = a.replace("return x * helper(y);", "return x * helper(y) + (x == 3);");
    let d = diff(
        &[("a.c", a), ("b.c", &b), ("c.c", &c)],
        &["a.c", "b.c", "c.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["a.c", "b.c"], &["c.c"]]));
    assert_eq!(
        d.summary["dispatched_functions"],
        serde_json::json!(["area"])
    );
    d.assert_tests_show_their_difference();
}

#[test]
fn a_base_path_enters_a_revision_once_however_often_it_passes_the_patch() {
    let src = |k: &str| {
        format!(
            "#include <augur.h>\n#include <stdio.h>\nint f(int x) {{ return x + {k}; }}\n\
             int main(void) {{ int x; augur_make_symbolic(&x, sizeof x, \"x\");\n\
             int s = f(x); s = f(s); s = f(s);\n\
             printf(\"%d\\n\", s > 10); return 0; }}\n"
        )
    };
    let (a, b) = (src("1"), src("2"));
    let d = diff(&[("a.c", a.as_str()), ("b.c", b.as_str())], &["a.c", "b.c"]);
    assert_eq!(d.status, 0, "{}", d.stderr);
    // One path per revision (the output is the symbolic `s > 10`), not a revision-1 path
    // per call of f.
    assert_eq!(d.summary["paths_completed"], 2, "{}", d.summary);
    assert_eq!(d.classes(), classes(&[&["a.c"], &["b.c"]]));
    d.assert_tests_show_their_difference();
}

#[test]
fn a_patch_inside_a_loop_of_main_shares_the_code_before_it() {
    let base = &program("diff/a_patch_inside_a_loop_of_main_shares_the_code_before_it_base.c");
    let same = base.replace("s += v;", "s = s + v * 1;");
    let other = base.replace("s += v;", "s += v + (i == 3 && b[i] == 'z');");
    let d = diff(
        &[("base.c", base), ("same.c", &same), ("other.c", &other)],
        &["base.c", "same.c", "other.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.summary["dispatched_inside"], serde_json::json!(["main"]));
    assert_eq!(d.classes(), classes(&[&["base.c", "same.c"], &["other.c"]]));
    d.assert_tests_show_their_difference();
    // The meta run explores exactly each revision's paths, as separate runs do.
    let separate: u64 = [base, same.as_str(), other.as_str()]
        .iter()
        .map(|src| common::run_c(src, &[]).paths())
        .sum();
    assert_eq!(d.summary["paths_completed"], separate);
    let t = &d.tests[0];
    let b: Vec<u64> = t["objects"][0]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(
        b[3],
        u64::from(b'z'),
        "the test reaches the patched case: {b:?}"
    );
}

#[test]
fn an_overflow_fixed_by_a_larger_buffer_is_told_apart_between_the_bounds() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/password.c"),
    )
    .unwrap();
    let bigger = base.replace("char buf[8];", "char buf[16];");
    assert_ne!(base, bigger);
    let d = diff(
        &[("base.c", &base), ("bigger.c", &bigger)],
        &["base.c", "bigger.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["base.c"], &["bigger.c"]]));
    d.assert_tests_show_their_difference();
    let t = &d.tests[0];
    assert_eq!(t["observed"]["base.c"]["ending"], "error out-of-bounds");
    assert_eq!(t["observed"]["bigger.c"]["ending"], "exit 1");
    let n = t["objects"][0]["bytes"][3].as_u64().unwrap();
    assert!(
        (8..16).contains(&n),
        "the length byte overflows only the smaller buffer: {n}"
    );
}

#[test]
fn revisions_differing_only_in_a_symbolic_exit_code() {
    let src = |k: &str| {
        format!(
            "#include <augur.h>\nint main(void) {{ int x; augur_make_symbolic(&x, sizeof x, \"x\");\n\
             return x > {k}; }}\n"
        )
    };
    let (a, b) = (src("10"), src("11"));
    let d = diff(&[("a.c", a.as_str()), ("b.c", b.as_str())], &["a.c", "b.c"]);
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(d.classes(), classes(&[&["a.c"], &["b.c"]]));
    d.assert_tests_show_their_difference();
    let t = &d.tests[0];
    assert_eq!(t["observed"]["a.c"]["ending"], "exit 1");
    assert_eq!(t["observed"]["b.c"]["ending"], "exit 0");
}

#[test]
fn inputs_of_different_sizes_share_their_first_bytes() {
    let src = |size: &str, count: &str| {
        format!(
            "#include <augur.h>\nint main(void) {{ unsigned char in[{size}];\n\
             augur_make_symbolic(in, sizeof in, \"in\");\n\
             int n = 0; for (int i = 0; i < {count}; i++) if (in[i] > 100) n++;\n\
             return n; }}\n"
        )
    };
    let (base, wider, longer) = (src("4", "4"), src("5", "4"), src("5", "5"));
    let d = diff(
        &[
            ("base.c", &base),
            ("wider.c", &wider),
            ("longer.c", &longer),
        ],
        &["base.c", "wider.c", "longer.c"],
    );
    assert_eq!(d.status, 0, "{}", d.stderr);
    assert_eq!(
        d.classes(),
        classes(&[&["base.c", "wider.c"], &["longer.c"]])
    );
    assert_eq!(d.summary["pairs_with_other_inputs"], 0);
    d.assert_tests_show_their_difference();
    // Few tests: paths of the same input bytes are paired, not every path with every other.
    assert!(d.tests.len() <= 4, "{} tests", d.tests.len());
    let t = &d.tests[0];
    assert_eq!(t["objects"][0]["bytes"].as_array().unwrap().len(), 5);
}

#[test]
fn what_a_const_pointer_argument_points_to_is_not_an_output() {
    let src = |second: &str| {
        format!(
            "#include <augur.h>\nint first(const int *a) {{ return a[0]; }}\n\
             void fill(int *a, int x) {{ a[0] = 1; a[1] = {second}; }}\n\
             int main(void) {{ int x, v[2]; augur_make_symbolic(&x, sizeof x, \"x\");\n\
             fill(v, x); return first(v); }}\n"
        )
    };
    let (a, b) = (src("x"), src("x + 1"));
    let d = diff(&[("a.c", a.as_str()), ("b.c", b.as_str())], &["a.c", "b.c"]);
    assert_eq!(d.status, 0, "{}", d.stderr);
    // `fill` writes through a non-const pointer: its result tells the two apart; `first`
    // reads through a const one, so what it points to is not compared.
    assert_eq!(d.classes(), classes(&[&["a.c"], &["b.c"]]));
    let outputs = d.tests[0]["observed"]["a.c"]["outputs"]
        .as_object()
        .unwrap();
    assert!(outputs.contains_key("fill:arg0*"), "{outputs:?}");
    assert!(!outputs.contains_key("first:arg0*"), "{outputs:?}");
    d.assert_tests_show_their_difference();
}
