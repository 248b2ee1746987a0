//! `augur explain` end to end: pairs of programs (golden, buggy) on one input; the report
//! must name the faulty line and stay small.

mod common;

use common::{augur, line_of};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What one `augur explain` produced.
struct Explained {
    status: i32,
    stdout: String,
    stderr: String,
    report: Json,
    sarif: Json,
    _dir: tempfile::TempDir,
}

impl Explained {
    /// The distinct lines reported for `side` ("golden" or "buggy").
    fn lines(&self, side: &str) -> BTreeSet<u64> {
        self.report["unexplained"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["side"] == side)
            .flat_map(|u| u["lines"].as_array().unwrap().clone())
            .map(|l| l["line"].as_u64().unwrap())
            .collect()
    }

    /// The line marked `marker` is the only one reported, in the buggy program and in
    /// the golden one.
    fn assert_singled_out(&self, golden: &str, buggy: &str, marker: &str) {
        self.assert_names("buggy", line_of(buggy, marker));
        for (side, src) in [("golden", golden), ("buggy", buggy)] {
            assert_eq!(
                self.lines(side),
                BTreeSet::from([line_of(src, marker)]),
                "{side}:\n{}",
                self.stdout
            );
        }
    }

    /// What `side` observed ends with `tail`.
    fn assert_observed(&self, side: &str, tail: &str) {
        let observed = &self.report["observed"][side];
        assert!(observed.as_str().unwrap().ends_with(tail), "{observed}");
    }

    /// Every distinct (file, line) reported.
    fn all_lines(&self) -> BTreeSet<(String, u64)> {
        self.report["unexplained"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|u| u["lines"].as_array().unwrap().clone())
            .map(|l| {
                (
                    l["file"].as_str().unwrap().to_string(),
                    l["line"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    /// Is `line` of the file named `name` among the reported lines?
    fn reports(&self, name: &str, line: u64) -> bool {
        self.all_lines()
            .iter()
            .any(|(f, l)| f.ends_with(&format!("/{name}")) && *l == line)
    }

    /// The report names `line` of the `side` program, and at most four lines.
    fn assert_names(&self, side: &str, line: u64) {
        assert_eq!(self.status, 0, "{}", self.stderr);
        assert_eq!(self.report["same_behaviour"], false);
        assert!(
            self.lines(side).contains(&line),
            "{side} line {line} not reported:\n{}",
            self.stdout
        );
        // At most four lines lead the report; every finding's lines are among them.
        let lead: BTreeSet<(String, u64)> = self.report["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["file"].as_str().unwrap().to_string(),
                    l["line"].as_u64().unwrap(),
                )
            })
            .collect();
        assert!(lead.len() <= 4, "too many lines reported:\n{}", self.stdout);
        assert!(self.all_lines().is_subset(&lead), "{}", self.stdout);
        // The SARIF file has one result per unexplained conjunct.
        assert_eq!(self.sarif["version"], "2.1.0");
        assert_eq!(
            self.sarif["runs"][0]["results"].as_array().unwrap().len(),
            self.report["unexplained"].as_array().unwrap().len()
        );
    }
}

/// Write the two programs as `names` in a fresh directory and explain them with `args`.
fn explain_named(names: (&str, &str), golden: &str, buggy: &str, args: &[&str]) -> Explained {
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join(names.0);
    let b = dir.path().join(names.1);
    for (p, src) in [(&g, golden), (&b, buggy)] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, src).unwrap();
    }
    let out = dir.path().join("out");
    let o = augur()
        .arg("explain")
        .arg("--golden")
        .arg(&g)
        .arg("--buggy")
        .arg(&b)
        .arg("-o")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let read = |p: PathBuf| {
        std::fs::read(p)
            .map(|b| serde_json::from_slice(&b).unwrap())
            .unwrap_or(Json::Null)
    };
    Explained {
        status: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        report: read(out.join("report.json")),
        sarif: read(out.join("report.sarif")),
        _dir: dir,
    }
}

fn explain(golden: &str, buggy: &str, args: &[&str]) -> Explained {
    explain_named(("golden.c", "buggy.c"), golden, buggy, args)
}

/// The paper's arp example (docs/explain.md's): the golden and the buggy program. The buggy
/// one's wrong option check (`-A` taken for `-H`) leaves the hardware type NULL.
fn arp() -> (String, String) {
    (
        repo_file("examples/explain/arp-golden.c"),
        repo_file("examples/explain/arp-buggy.c"),
    )
}

/// The wrong option check of the buggy arp.
const ARP_CHECK: &str = "argv[i][1] == 'H' || argv[i][1] == 'A'";

/// A source file of the repository (the examples of docs/, the benchmarks), so the tests
/// check the very programs users are shown.
fn repo_file(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn arp_wrong_option_check_is_reported() {
    let (golden, buggy) = arp();
    let r = explain(&golden, &buggy, &["--", "-A", "inet"]);
    r.assert_names("buggy", line_of(&buggy, ARP_CHECK));
    assert!(r.stdout.contains(ARP_CHECK), "{}", r.stdout);
}

/// Both runs take equivalent paths; only an assignment differs (Darwin's blind spot).
const SCALE: &str = include_str!("programs/explain/scale.c");

#[test]
fn wrong_assignment_on_equivalent_paths_is_reported() {
    let buggy = SCALE.replace("x * 2; /* ASSIGN */", "x + 2; /* ASSIGN */");
    let r = explain(SCALE, &buggy, &["--", "7"]);
    r.assert_names("buggy", line_of(&buggy, "ASSIGN"));
}

/// A clamp present in the golden program only: reported from the golden side.
const CLAMP: &str = include_str!("programs/explain/clamp.c");

#[test]
fn missing_code_is_reported_from_the_golden_side() {
    let buggy: String = CLAMP
        .lines()
        .filter(|l| !l.contains("CLAMP") && !l.contains("n = 100"))
        .map(|l| format!("{l}\n"))
        .collect();
    let r = explain(CLAMP, &buggy, &["--", "150"]);
    r.assert_names("golden", line_of(CLAMP, "CLAMP"));
    // And at the buggy line where the clamp is missing (before the printf).
    assert!(
        r.reports("buggy.c", line_of(&buggy, "printf")),
        "{}",
        r.stdout
    );
}

/// A wrong bound leaves a pointer NULL and the buggy program crashes on it.
const DEREF: &str = include_str!("programs/explain/deref.c");

#[test]
fn null_pointer_crash_is_explained() {
    let buggy = DEREF.replace("n <= 9) /* BOUND */", "n < 9) /* BOUND */");
    let r = explain(DEREF, &buggy, &["--", "9"]);
    r.assert_names("buggy", line_of(&buggy, "BOUND"));
    assert!(
        r.report["observed"]["buggy"]
            .as_str()
            .unwrap()
            .contains("null-dereference"),
        "{}",
        r.stdout
    );
}

/// A table written at an index read from the arguments, guarded by a bounds check.
const TABLE: &str = include_str!("programs/explain/table.c");

#[test]
fn out_of_bounds_crash_is_explained_by_the_bound() {
    let buggy = TABLE.replace("i < 8) /* GUARD */", "i <= 8) /* GUARD */");
    let r = explain(TABLE, &buggy, &["--", "8"]);
    r.assert_names("buggy", line_of(&buggy, "GUARD"));
    // The postcondition is that the index is outside the table, not that it is 8.
    let post: Vec<&str> = r.report["unexplained"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["side"] == "buggy" && u["kind"] == "postcondition")
        .map(|u| u["constraint"].as_str().unwrap())
        .collect();
    assert_eq!(post.len(), 1, "{}", r.stdout);
    assert!(post[0].contains(">u 28"), "{}", post[0]);
}

/// Version 1 counts words separated by blanks.
const WC_V1: &str = include_str!("programs/explain/wc_v1.c");

/// Version 2: the blank test moved into a helper, which forgot the tab.
fn wc_v2() -> String {
    WC_V1
        .replace(
            "int main(void)",
            "static int is_blank(int c)\n{\n    return c == ' ' || c == '\\n';\n}\n\nint main(void)",
        )
        .replace("c == ' ' || c == '\\t' || c == '\\n'", "is_blank(c)")
}

#[test]
fn older_and_newer_version_pair() {
    let v2 = wc_v2();
    assert!(v2.contains("is_blank(c))") && !v2.contains("'\\t'"));
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "a\tb c\n").unwrap();
    let r = explain_named(
        ("v1/wc.c", "v2/wc.c"),
        WC_V1,
        &v2,
        &["--stdin", input.to_str().unwrap()],
    );
    r.assert_names("golden", line_of(WC_V1, "BLANK"));
}

#[test]
fn identical_behaviour_is_reported_as_such() {
    let same = CLAMP.replace("n > 100", "100 < n");
    let r = explain(CLAMP, &same, &["--", "150"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.report["same_behaviour"], true);
    assert!(r.report["unexplained"].as_array().unwrap().is_empty());
    assert!(r.stdout.contains("same behaviour"), "{}", r.stdout);
}

#[test]
fn bad_input_is_one_clear_error() {
    let missing = explain_named(
        ("golden.c", "buggy.c"),
        CLAMP,
        CLAMP,
        &["--test", "/nonexistent.json"],
    );
    assert_eq!(missing.status, 2);
    assert!(
        missing.stderr.contains("/nonexistent.json"),
        "{}",
        missing.stderr
    );
    assert!(!missing.stderr.contains("panicked"));

    let broken = explain(CLAMP, "int main(void) { return }\n", &["--", "1"]);
    assert_eq!(broken.status, 2);
    assert!(broken.stderr.contains("buggy.c"), "{}", broken.stderr);
    assert_eq!(broken.stderr.trim().lines().count(), 1, "{}", broken.stderr);

    let no_line = explain(
        CLAMP,
        CLAMP,
        &[
            "--criterion",
            "golden.c:2:n",
            "--criterion",
            "buggy.c:6:n",
            "--",
            "1",
        ],
    );
    assert_eq!(no_line.status, 2);
    assert!(no_line.stderr.contains("golden.c:2"), "{}", no_line.stderr);
}

#[test]
fn named_criterion_slices_from_a_variable() {
    // As in the paper: slice from `hw` where it is printed.
    let (golden, buggy) = arp();
    let line = line_of(&golden, "printf(\"hw");
    let g = format!("golden.c:{line}:hw");
    let b = format!("buggy.c:{line}:hw");
    let r = explain(
        &golden,
        &buggy,
        &["--criterion", &g, "--criterion", &b, "--", "-A", "inet"],
    );
    r.assert_names("buggy", line_of(&buggy, ARP_CHECK));
    let observed = r.report["observed"]["buggy"].as_str().unwrap();
    assert!(observed.starts_with("hw at "), "{observed}");
}

#[test]
fn exact_comparison_and_test_file_input() {
    let (golden, buggy) = arp();
    // The input as a test file: the arguments `-A inet` as augur's objects.
    let dir = tempfile::tempdir().unwrap();
    let test = dir.path().join("test.json");
    let objects = serde_json::json!({"objects": [
        {"name": "arg00", "bytes": [45, 65, 0]},
        {"name": "arg01", "bytes": [105, 110, 101, 116, 0]},
    ]});
    std::fs::write(&test, objects.to_string()).unwrap();
    let r = explain(
        &golden,
        &buggy,
        &["--exact", "--test", test.to_str().unwrap()],
    );
    r.assert_names("buggy", line_of(&buggy, ARP_CHECK));
}

/// The paper's schematic example: `x` depends on the first input only, so the weakest
/// precondition along the slice says nothing about the second.
const TWO_INPUTS: &str = include_str!("programs/explain/two_inputs.c");

#[test]
fn slice_leaves_out_unrelated_input() {
    let buggy = TWO_INPUTS.replace("inp1 * 3; /* X */", "inp1 * 4; /* X */");
    let r = explain(TWO_INPUTS, &buggy, &["--", "3", "5"]);
    r.assert_names("buggy", line_of(&buggy, "X"));
    for u in r.report["unexplained"].as_array().unwrap() {
        let c = u["constraint"].as_str().unwrap();
        assert!(!c.contains("arg01"), "{c}");
    }
}

#[test]
fn long_input_loop_is_explained_quickly() {
    // A loop over a few hundred input bytes (the benchmark program): a wrong bound in a
    // character class.
    let classes = repo_file("bench/explain/classes.c");
    let buggy = classes.replace("buf[i] <= '9') /* DIGIT */", "buf[i] < '9') /* DIGIT */");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.txt");
    let text: String = (0..300)
        .map(|i| b"abcXYZ0189 "[i * 7 % 11] as char)
        .collect();
    std::fs::write(&input, text).unwrap();
    let r = explain(&classes, &buggy, &["--stdin", input.to_str().unwrap()]);
    r.assert_names("buggy", line_of(&buggy, "DIGIT"));
    assert!(r.lines("golden").contains(&line_of(&classes, "DIGIT")));
    // The checksum is printed after the differing byte: it is not in the slice.
    for u in r.report["unexplained"].as_array().unwrap() {
        assert!(!u["constraint"].as_str().unwrap().contains("31 *"), "{u}");
    }
    let queries = r.report["figures"]["solver_queries"].as_u64().unwrap();
    assert!(queries < 5000, "{queries} queries");
}

/// A program reading its input through `augur_make_symbolic`, given by a test file.
const THRESHOLD: &str = include_str!("programs/explain/threshold.c");

#[test]
fn make_symbolic_objects_come_from_the_test() {
    let buggy = THRESHOLD.replace("x > 10", "x >= 10");
    let dir = tempfile::tempdir().unwrap();
    let test = dir.path().join("test.json");
    std::fs::write(
        &test,
        r#"{"objects": [{"name": "x", "bytes": [10, 0, 0, 0]}]}"#,
    )
    .unwrap();
    let r = explain(THRESHOLD, &buggy, &["--test", test.to_str().unwrap()]);
    r.assert_names("buggy", line_of(&buggy, "THRESHOLD"));
    assert!(r.lines("golden").contains(&line_of(THRESHOLD, "THRESHOLD")));
}

#[test]
fn printed_integer_is_the_postcondition() {
    // docs/explain.md's second example: a discount divided by 5 instead of 10.
    let golden = repo_file("examples/explain/discount-golden.c");
    let buggy = repo_file("examples/explain/discount-buggy.c");
    let r = explain(&golden, &buggy, &["--", "30", "5"]);
    // The divisor is where the computations part: that line alone on each side, the
    // rest of the slice as context.
    r.assert_singled_out(&golden, &buggy, "int discount");
    let context = &r.report["unexplained"][0]["context_lines"];
    assert_eq!(context.as_array().unwrap().len(), 4, "{context}");
    assert!(
        r.stdout.contains("its slice also runs through"),
        "{}",
        r.stdout
    );
    // The criterion is printf's argument, not the digit its model computed.
    r.assert_observed("golden", "%d of printf's argument 2 = 135");
    r.assert_observed("buggy", "%d of printf's argument 2 = 120");
    assert_eq!(r.report["figures"]["solver_queries_undecided"], 0);
    assert!(!r.stderr.contains("WARN"), "{}", r.stderr);
}

/// Sizes summed with `%lu` as the third argument of `printf`; a wrong per-item overhead.
const SIZES: &str = include_str!("programs/explain/sizes.c");

#[test]
fn printed_unsigned_long_in_a_later_argument_is_the_postcondition() {
    let buggy = SIZES.replace("n * 16;", "n * 8;");
    let r = explain(SIZES, &buggy, &["--", "12", "100"]);
    r.assert_singled_out(SIZES, &buggy, "OVERHEAD");
    r.assert_observed("golden", "%lu of printf's argument 3 = 1392");
    r.assert_observed("buggy", "%lu of printf's argument 3 = 1296");
}

/// A balance printed with `%d`, the fee subtracted on its own line.
const BALANCE: &str = include_str!("programs/explain/balance.c");

#[test]
fn wrong_operator_is_singled_out() {
    let buggy = BALANCE.replace("balance - fee;", "balance + fee;");
    let r = explain(BALANCE, &buggy, &["--", "500", "25"]);
    r.assert_singled_out(BALANCE, &buggy, "FEE");
}

/// Operands swapped: the buggy run prints a `-` where the golden one prints a digit.
const OFFSET: &str = include_str!("programs/explain/offset.c");

#[test]
fn printed_sign_follows_its_argument() {
    let buggy = OFFSET.replace("a - 3;", "3 - a;");
    let r = explain(OFFSET, &buggy, &["--", "8"]);
    r.assert_singled_out(OFFSET, &buggy, "OFFSET");
    r.assert_observed("golden", "%d of fprintf's argument 4 = 5");
    r.assert_observed("buggy", "%d of fprintf's argument 4 = -5");
}

impl Explained {
    /// The line marked `marker` is singled out by one value finding (lockstep alignment)
    /// in each program, nothing else is reported, and the finding's text contains `text`.
    fn assert_value_at(&self, golden: &str, buggy: &str, marker: &str, text: &str) {
        self.assert_names("buggy", line_of(buggy, marker));
        let unexplained = self.report["unexplained"].as_array().unwrap();
        assert_eq!(unexplained.len(), 1, "{}", self.stdout);
        assert_eq!(unexplained[0]["kind"], "value");
        let constraint = unexplained[0]["constraint"].as_str().unwrap();
        assert!(constraint.contains(text), "{constraint}");
        let names: BTreeSet<(String, u64)> = self
            .all_lines()
            .into_iter()
            .map(|(f, l)| (f.rsplit('/').next().unwrap().to_string(), l))
            .collect();
        assert_eq!(
            names,
            BTreeSet::from([
                ("buggy.c".to_string(), line_of(buggy, marker)),
                ("golden.c".to_string(), line_of(golden, marker)),
            ]),
            "{}",
            self.stdout
        );
    }
}

/// A wrong constant returned on the same path: the printed values (4, 5) do not depend
/// on the input, so there is no postcondition and the branch conditions agree.
const CLASSIFY: &str = include_str!("programs/explain/classify.c");

#[test]
fn wrong_returned_constant_is_singled_out() {
    let buggy = CLASSIFY.replace("return 4;", "return 5;");
    let r = explain(CLASSIFY, &buggy, &["--", "zz"]);
    r.assert_value_at(CLASSIFY, &buggy, "OTHER", "is 5, ");
    assert!(r.stdout.contains("(another constant)"), "{}", r.stdout);
}

/// An input-independent factor in an arithmetic operand.
const FACTOR: &str = include_str!("programs/explain/factor.c");

#[test]
fn wrong_constant_in_arithmetic_is_singled_out() {
    let buggy = FACTOR.replace("scale = 3;", "scale = 4;");
    let r = explain(FACTOR, &buggy, &["--", "7"]);
    r.assert_value_at(FACTOR, &buggy, "SCALE", "is 4, ");
}

/// A global initialised differently: its initial value is read by a load, whose line
/// is reported (globals have no line of their own).
const LIMIT: &str = include_str!("programs/explain/limit.c");

#[test]
fn global_initialised_differently_reports_the_load() {
    let buggy = LIMIT.replace("limit = 10;", "limit = 12;");
    let r = explain(LIMIT, &buggy, &[]);
    r.assert_value_at(LIMIT, &buggy, "READ", "global `limit`");
    assert!(r.stdout.contains("is 12, "), "{}", r.stdout);
}

/// Another operation on input-independent operands.
const DIFFERENCE: &str = include_str!("programs/explain/difference.c");

#[test]
fn wrong_operation_on_constants_is_singled_out() {
    let buggy = DIFFERENCE.replace("a - b;", "a + b;");
    let r = explain(DIFFERENCE, &buggy, &[]);
    r.assert_value_at(DIFFERENCE, &buggy, "OP", "is 10, ");
    assert!(r.stdout.contains("(another operation)"), "{}", r.stdout);
}

/// A table filled by an initialisation function and read much later, in another
/// function, against an input: a wrong entry is found through the table.
const TABLE_INIT: &str = include_str!("programs/explain/table_init.c");

#[test]
fn wrong_table_entry_stored_long_before_is_reported() {
    let buggy = TABLE_INIT.replace("limits[1] = 500;", "limits[1] = 550;");
    let r = explain(TABLE_INIT, &buggy, &["--", "1", "520"]);
    r.assert_names("buggy", line_of(&buggy, "ENTRY"));
}

/// A threshold given by a macro.
const DEFINE: &str = include_str!("programs/explain/define.c");

#[test]
fn changed_define_is_reported_at_its_define_line() {
    let buggy = DEFINE.replace("LIMIT 10", "LIMIT 12");
    let r = explain(DEFINE, &buggy, &["--", "11"]);
    r.assert_names("buggy", line_of(&buggy, "DEFINE"));
    assert!(r.lines("buggy").contains(&line_of(DEFINE, "DEFINE")));
    let files: BTreeSet<String> = r.all_lines().into_iter().map(|l| l.0).collect();
    assert_eq!(
        files.len(),
        2,
        "the #define line of each program:\n{}",
        r.stdout
    );
    assert!(r.stdout.contains("#define LIMIT 12"), "{}", r.stdout);
}

/// An access check with two sub-conditions.
const ACCESS: &str = include_str!("programs/explain/access.c");

#[test]
fn dropped_sub_condition_is_reported_at_the_buggy_line() {
    let buggy = ACCESS.replace("!guest || (guest && invited)", "guest && invited");
    let r = explain(ACCESS, &buggy, &["--", "0", "0"]);
    r.assert_names("buggy", line_of(&buggy, "CHECK"));
    assert!(
        r.reports("golden.c", line_of(ACCESS, "CHECK")),
        "{}",
        r.stdout
    );
}

/// A fee charged on every call but the first, the first call told by an argument: a
/// wrong argument decides which call skips the store.
const FEES: &str = include_str!("programs/explain/fees.c");

#[test]
fn wrong_argument_deciding_a_store_is_reported() {
    let buggy = FEES.replace("k == 0); /* FIRST */", "k == 2); /* FIRST */");
    let r = explain(FEES, &buggy, &["--", "5"]);
    r.assert_names("buggy", line_of(&buggy, "FIRST"));
}

/// Two independent implementations of `tr SET1 SET2`: a table built from the expanded
/// sets (coreutils' way) and a walk of SET1 for every input byte (BusyBox's way, which
/// decodes `\n` but not `\t`).
const TR_TABLE: &str = include_str!("programs/explain/tr/table.c");
const TR_WALK: &str = include_str!("programs/explain/tr/walk.c");

impl Explained {
    /// The lines the report leads with, as (file name, line).
    fn lead(&self) -> Vec<(String, u64)> {
        self.report["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let file = l["file"].as_str().unwrap();
                let name = file.rsplit('/').next().unwrap().to_string();
                (name, l["line"].as_u64().unwrap())
            })
            .collect()
    }
}

/// Explain `tr SET1 SET2` of the two implementations on `input`.
fn explain_tr(walk: &str, input: &str, sets: [&str; 2]) -> Explained {
    let dir = tempfile::tempdir().unwrap();
    let stdin = dir.path().join("input");
    std::fs::write(&stdin, input).unwrap();
    let stdin = stdin.to_str().unwrap();
    explain_named(
        ("table.c", "walk.c"),
        TR_TABLE,
        walk,
        &["--stdin", stdin, "--", sets[0], sets[1]],
    )
}

#[test]
fn independent_implementations_a_missing_case_has_no_counterpart() {
    let r = explain_tr(TR_WALK, "ab\tz\nq", ["\\t", "_"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.report["difference"], "behaviour");
    // The golden case decoding `\t`, and the buggy test decoding only `\n`, lead.
    let at = |name: &str, src: &str, marker: &str| (name.to_string(), line_of(src, marker));
    assert_eq!(
        r.lead(),
        vec![
            at("table.c", TR_TABLE, "return '\\t';"),
            at("walk.c", TR_WALK, "if (c == 'n')"),
            at("walk.c", TR_WALK, "if (c == lo)"),
            at("table.c", TR_TABLE, "putchar(map[c]);"),
        ],
        "{}",
        r.stdout
    );
    let golden = r.report["unexplained"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["side"] == "golden" && u["constraint"] == "arg00[1] == 't'")
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert_eq!(
        golden["no_counterpart_at"][0]["line"],
        line_of(TR_WALK, "if (c == 'n')")
    );
    assert!(
        r.stdout.contains(
            "this code exists in the golden implementation and has no counterpart in the buggy one"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn independent_implementations_wrong_range_bound_is_the_buggy_line() {
    let walk = TR_WALK.replace("c <= hi) /* RANGE */", "c < hi) /* RANGE */");
    let r = explain_tr(&walk, "ab\tz\nq", ["a-z", "A-Z"]);
    assert_eq!(r.report["difference"], "behaviour");
    let at = |name: &str, src: &str, marker: &str| (name.to_string(), line_of(src, marker));
    assert_eq!(
        r.lead(),
        vec![
            at("walk.c", &walk, "RANGE"),
            at("table.c", TR_TABLE, "putchar(map[c]);"),
            at("walk.c", &walk, "putchar(k < 0"),
        ],
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("has no counterpart"), "{}", r.stdout);
}

/// `wc -lw` written twice: a class table and columns seven wide (coreutils' way), a loop
/// of comparisons and no padding (BusyBox's way).
const WC_COLUMNS: &str = include_str!("programs/explain/wc/columns.c");
const WC_PLAIN: &str = include_str!("programs/explain/wc/plain.c");

#[test]
fn independent_implementations_output_format_is_told_from_behaviour() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input");
    let run = |text: &str, buggy: &str| {
        std::fs::write(&input, text).unwrap();
        explain_named(
            ("columns.c", "plain.c"),
            WC_COLUMNS,
            buggy,
            &["--stdin", input.to_str().unwrap()],
        )
    };
    // The same counts, padded differently: the two printf calls.
    let r = run("ab cd\nef\n", WC_PLAIN);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(r.report["difference"], "format");
    assert!(
        r.stdout.starts_with("different output format"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("\nwritten by the buggy program:"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.lead(),
        vec![
            ("columns.c".to_string(), line_of(WC_COLUMNS, "PRINT")),
            ("plain.c".to_string(), line_of(WC_PLAIN, "PRINT")),
        ],
        "{}",
        r.stdout
    );
    // A word count that differs too (a carriage return no longer separates words): the
    // criterion is the count, past the padding, and the missing case leads.
    let no_cr = WC_PLAIN.replace(" || c == '\\r'", "");
    let r = run("ab\rcd\n", &no_cr);
    assert_eq!(r.report["difference"], "behaviour", "{}", r.stdout);
    assert!(
        r.report["observed"]["golden"]
            .as_str()
            .unwrap()
            .ends_with("printf's argument 3 = 2"),
        "{}",
        r.stdout
    );
    assert!(
        r.lead()
            .contains(&("plain.c".to_string(), line_of(&no_cr, "SPACE"))),
        "{}",
        r.stdout
    );
}

/// Counting to N; the buggy loop stops one short.
const COUNT_TO: &str = include_str!("programs/explain/count_to.c");

#[test]
fn run_stopping_early_is_observed_at_its_decision_to_stop() {
    let buggy = COUNT_TO.replace("i <= n; i++) /* LOOP */", "i < n; i++) /* LOOP */");
    let r = explain(COUNT_TO, &buggy, &["--", "3"]);
    r.assert_names("buggy", line_of(&buggy, "LOOP"));
    r.assert_observed("buggy", &format!("/buggy.c:{}", line_of(&buggy, "LOOP")));
    assert!(
        r.stdout.contains("stopped writing after 4 bytes of output"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.lead()[0],
        ("buggy.c".to_string(), line_of(&buggy, "LOOP"))
    );
}
