use super::*;
use std::process::Command;
use tempfile::TempDir;

const PROG: &str = "#include <stdio.h>\n\
int twice(int x) {\n\
  return 2 * x;\n\
}\n\
\n\
int cube(int x) {\n\
  int y = x;\n\
  y = y * x;\n\
  y = y * x;\n\
  return y;\n\
}\n\
\n\
int square(int x) {\n\
  return x * x;\n\
}\n\
\n\
int main(void) {\n\
  int x = 3;\n\
  printf(\"%d %d\\n\", twice(x), square(x));\n\
  return 0;\n\
}\n";

/// Writes `files` (relative path, contents) below `dir`.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

/// Runs `diff <args>` in `dir` and saves its output as `dir/name`.
fn diff(dir: &Path, args: &[&str], name: &str) -> PathBuf {
    let out = Command::new("diff")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "diff {args:?} found no difference"
    );
    let patch = dir.join(name);
    fs::write(&patch, out.stdout).unwrap();
    patch
}

/// The contents of `path`.
fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

/// Writes `PROG` as `dir/old` and, with two functions changed, as `dir/new`; returns the
/// changed text and `diff -u old new` (two hunks) saved as `dir/p.diff`.
fn two_hunk_patch(dir: &Path, old: &str, new: &str) -> (String, PathBuf) {
    let fixed = PROG.replace("2 * x", "x + x").replace("x * x", "x * x + 0");
    write_files(dir, &[(old, PROG), (new, &fixed)]);
    let patch = diff(dir, &["-u", old, new], "p.diff");
    assert_eq!(read(&patch).matches("\n@@ ").count(), 2, "want two hunks");
    (fixed, patch)
}

#[test]
fn single_file_patch_with_two_hunks() {
    let dir = TempDir::new().unwrap();
    let (fixed, patch) = two_hunk_patch(dir.path(), "prog.c", "prog_fixed.c");
    let out = dir.path().join("rev1");
    let written = apply_patch(&dir.path().join("prog.c"), &patch, &out).unwrap();
    assert_eq!(written, vec![out.join("prog.c")]);
    assert_eq!(read(&written[0]), fixed);
}

#[test]
fn hunks_apply_at_an_offset_to_a_lone_base_file_of_another_name() {
    let dir = TempDir::new().unwrap();
    let (fixed, patch) = two_hunk_patch(dir.path(), "old.c", "new.c");
    // The base has grown 3 lines at the top since the patch was made.
    let header = "/* one */\n/* two */\n/* three */\n";
    write_files(dir.path(), &[("base/prog.c", &format!("{header}{PROG}"))]);
    let out = dir.path().join("out");
    let written = apply_patch(&dir.path().join("base/prog.c"), &patch, &out);
    let written = written.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read(&written[0]), format!("{header}{fixed}"));
}

#[test]
fn no_newline_at_end_of_file_is_kept_and_added() {
    let dir = TempDir::new().unwrap();
    let base = "int main(void) {\n  return 0;\n}";
    let changed = "int main(void) {\n  return 1;\n}";
    let terminated = "int main(void) {\n  return 1;\n}\n";
    write_files(
        dir.path(),
        &[("prog.c", base), ("a.c", changed), ("b.c", terminated)],
    );
    let keep = diff(dir.path(), &["-u", "prog.c", "a.c"], "keep.diff");
    let add = diff(dir.path(), &["-u", "prog.c", "b.c"], "add.diff");
    assert!(read(&keep).contains("\\ No newline at end of file"));
    let prog = dir.path().join("prog.c");
    let kept = apply_patch(&prog, &keep, &dir.path().join("keep")).unwrap();
    assert_eq!(read(&kept[0]), changed);
    let added = apply_patch(&prog, &add, &dir.path().join("add")).unwrap();
    assert_eq!(read(&added[0]), terminated);
}

#[test]
fn directory_patch_from_diff_run() {
    let dir = TempDir::new().unwrap();
    let lib = "int add(int a, int b) {\n  return a + b;\n}\n";
    let lib_fixed = "int add(int a, int b) {\n  return b + a;\n}\n";
    let header = "int add(int a, int b);\n";
    let extra = "int extra(void) { return 7; }\n";
    write_files(
        dir.path(),
        &[
            ("base/main.c", PROG),
            ("base/src/lib.c", lib),
            ("base/src/lib.h", header),
            ("base/gone.c", extra),
            ("rev/main.c", PROG),
            ("rev/src/lib.c", lib_fixed),
            ("rev/src/lib.h", header),
            ("rev/src/new.c", extra),
        ],
    );
    let patch = diff(dir.path(), &["-ruN", "base", "rev"], "dir.diff");
    let out = dir.path().join("out");
    let base = dir.path().join("base");
    assert_eq!(
        base_files(&base).unwrap(),
        ["gone.c", "main.c", "src/lib.c", "src/lib.h"].map(|r| base.join(r))
    );
    let written = apply_patch(&base, &patch, &out).unwrap();
    assert_eq!(
        written,
        ["main.c", "src/lib.c", "src/lib.h", "src/new.c"].map(|r| out.join(r))
    );
    assert_eq!(read(&out.join("main.c")), PROG);
    assert_eq!(read(&out.join("src/lib.c")), lib_fixed);
    assert_eq!(read(&out.join("src/new.c")), extra);
    assert!(!out.join("gone.c").exists());
}

/// A two-file patch as `git diff` writes it: `a/`, `b/` prefixes, a new file from /dev/null.
const GIT_PATCH: &str = "\
diff --git a/main.c b/main.c
index 3b18e51..a5e2f1c 100644
--- a/main.c
+++ b/main.c
@@ -1,3 +1,4 @@
+#include \"util.h\"
 int main(void) {
-  return 0;
+  return util();
 }
diff --git a/util.h b/util.h
new file mode 100644
index 0000000..5f1e0c2
--- /dev/null
+++ b/util.h
@@ -0,0 +1 @@
+static int util(void) { return 4; }
";

#[test]
fn git_patch_with_prefixes_and_a_new_file() {
    let dir = TempDir::new().unwrap();
    write_files(
        dir.path(),
        &[("base/main.c", "int main(void) {\n  return 0;\n}\n")],
    );
    write_files(dir.path(), &[("git.diff", GIT_PATCH)]);
    let out = dir.path().join("out");
    let written = apply_patch(&dir.path().join("base"), &dir.path().join("git.diff"), &out);
    assert_eq!(
        written.unwrap(),
        vec![out.join("main.c"), out.join("util.h")]
    );
    let main = "#include \"util.h\"\nint main(void) {\n  return util();\n}\n";
    assert_eq!(read(&out.join("main.c")), main);
    assert_eq!(
        read(&out.join("util.h")),
        "static int util(void) { return 4; }\n"
    );
}

#[test]
fn a_failing_hunk_is_one_line_naming_patch_hunk_and_file() {
    let dir = TempDir::new().unwrap();
    let (_, patch) = two_hunk_patch(dir.path(), "prog.c", "fixed.c");
    let hunk2 = read(&patch)
        .lines()
        .filter(|l| l.starts_with("@@"))
        .nth(1)
        .unwrap()
        .to_string();
    // The base no longer has the second hunk's context.
    write_files(
        dir.path(),
        &[("base/prog.c", &PROG.replace("x * x", "x * x * 1"))],
    );
    let err = apply_patch(
        &dir.path().join("base/prog.c"),
        &patch,
        &dir.path().join("out"),
    )
    .unwrap_err();
    let expected = format!(
        "{}: hunk 2 ({hunk2}) does not apply to prog.c",
        patch.display()
    );
    assert_eq!(err.to_string(), expected);
    assert!(!expected.contains('\n'));
    assert_eq!(hunk2, "@@ -11,7 +11,7 @@");
}

#[test]
fn a_patch_naming_a_file_not_in_the_base_is_an_error() {
    let dir = TempDir::new().unwrap();
    write_files(
        dir.path(),
        &[
            ("base/prog.c", PROG),
            ("other.c", "int a;\n"),
            ("b.c", "int b;\n"),
        ],
    );
    let patch = diff(dir.path(), &["-u", "other.c", "b.c"], "p.diff");
    let err = apply_patch(&dir.path().join("base"), &patch, &dir.path().join("out")).unwrap_err();
    let base = dir.path().join("base");
    let expected = format!(
        "{}: patches b.c, which is not a file of {}",
        patch.display(),
        base.display()
    );
    assert_eq!(err.to_string(), expected);
}

#[test]
fn text_that_is_no_patch_is_an_error() {
    let dir = TempDir::new().unwrap();
    write_files(
        dir.path(),
        &[("prog.c", PROG), ("junk.diff", "just some words\n")],
    );
    let err = apply_patch(
        &dir.path().join("prog.c"),
        &dir.path().join("junk.diff"),
        dir.path(),
    )
    .unwrap_err();
    assert!(matches!(err, PatchError::Parse { .. }), "{err}");
}

#[test]
fn find_hunk_prefers_the_nearest_position_after_the_floor() {
    let lines = ["a\n", "x\n", "b\n", "x\n", "c\n", "x\n"];
    assert_eq!(find_hunk(&lines, &["x\n"], 3, 0), Some(3));
    assert_eq!(find_hunk(&lines, &["x\n"], 2, 0), Some(1));
    assert_eq!(find_hunk(&lines, &["x\n"], 2, 2), Some(3));
    assert_eq!(find_hunk(&lines, &["x\n"], 0, 4), Some(5));
    assert_eq!(find_hunk(&lines, &["y\n"], 0, 0), None);
    assert_eq!(find_hunk(&lines, &[], 9, 0), Some(6));
}

#[test]
fn creating_a_file_the_base_has_is_an_error() {
    let dir = TempDir::new().unwrap();
    let base = dir.path().join("base");
    write_files(
        &base,
        &[
            ("main.c", "int main(void) {\n  return 0;\n}\n"),
            ("util.h", "\n"),
        ],
    );
    write_files(dir.path(), &[("git.diff", GIT_PATCH)]);
    let patch = dir.path().join("git.diff");
    let err = apply_patch(&base, &patch, &dir.path().join("out")).unwrap_err();
    let expected = format!(
        "{}: creates util.h, which {} already has",
        patch.display(),
        base.display()
    );
    assert_eq!(err.to_string(), expected);
}
