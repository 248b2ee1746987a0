//! The meta program: which functions are shared, dispatched and observed when revisions
//! are merged, on small C programs compiled here (without the libc models).

use augur_diff::{hand_written_revisions, RevisionProgram, META_DISPATCH};
use augur_ir::{CompileOptions, Inst, Program};
use rustc_hash::FxHashSet;

fn lower(dir: &std::path::Path, name: &str, src: &str) -> (Program, String) {
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).unwrap();
    let c = sub.join(format!("{name}.c"));
    std::fs::write(&c, src).unwrap();
    let bc = augur_ir::build_bitcode(
        std::slice::from_ref(&c),
        &[],
        &CompileOptions::default(),
        &sub,
    )
    .unwrap();
    let canonical = std::fs::canonicalize(&c).unwrap().display().to_string();
    (augur_ir::load_program(&bc).unwrap(), canonical)
}

/// Merge the sources; `observe` says whether each file counts as changed.
fn merge(srcs: &[&str], observe: bool) -> augur_diff::MetaProgram {
    let dir = tempfile::tempdir().unwrap();
    let lowered: Vec<(Program, String)> = srcs
        .iter()
        .enumerate()
        .map(|(i, s)| lower(dir.path(), &format!("r{i}"), s))
        .collect();
    let revs: Vec<RevisionProgram> = lowered
        .iter()
        .map(|(p, file)| RevisionProgram {
            program: p,
            changed_files: if observe {
                FxHashSet::from_iter([file.clone()])
            } else {
                FxHashSet::default()
            },
        })
        .collect();
    augur_diff::merge(&revs).unwrap()
}

const BASE: &str = include_str!("programs/meta/base.c");

#[test]
fn functions_moved_by_a_change_above_them_are_still_shared() {
    // Two blank lines and a new comment shift every line: no function differs.
    let shifted = format!("/* a comment */\n\n{BASE}");
    let m = merge(&[BASE, &shifted], false);
    assert!(m.sites.dispatched.is_empty(), "{:?}", m.sites.dispatched);
    assert!(m.program.func_named(META_DISPATCH).is_some());
}

#[test]
fn only_the_changed_function_and_users_of_a_changed_global_are_dispatched() {
    let changed_body = BASE.replace("return 2 * x;", "return x + x + 1;");
    let m = merge(&[BASE, &changed_body], false);
    assert_eq!(m.sites.dispatched, vec!["twice".to_string()]);
    let changed_global = BASE.replace("int counter = 3;", "int counter = 4;");
    let m = merge(&[BASE, &changed_global], false);
    assert_eq!(m.sites.dispatched, vec!["bump".to_string()]);
}

#[test]
fn renumbered_string_literals_are_matched_by_contents() {
    // A new literal before the others renumbers `.str`: the users of the old ones stay shared.
    let extra = BASE.replace(
        "int counter = 3;",
        "const char *unused(void) { return \"new\"; }\nint counter = 3;",
    );
    let m = merge(&[BASE, &extra], false);
    assert!(m.sites.dispatched.is_empty(), "{:?}", m.sites.dispatched);
    assert!(m.program.func_named("unused").is_some());
    let other_text = BASE.replace("\"hello\"", "\"howdy\"");
    let m = merge(&[BASE, &other_text], false);
    assert_eq!(m.sites.dispatched, vec!["greeting".to_string()]);
}

#[test]
fn three_revisions_share_identical_versions_and_stubs_dispatch_on_a_mask() {
    let a = BASE.replace("return 2 * x;", "return x << 1;");
    let m = merge(&[BASE, &a, &a], true);
    assert_eq!(m.sites.dispatched, vec!["twice".to_string()]);
    // One body per distinct version: the base's and the one revisions 1 and 2 share.
    let versions: Vec<&str> = m
        .program
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("twice@"))
        .collect();
    assert_eq!(versions.len(), 2, "{versions:?}");
    let stub = m.program.func(m.program.func_named("twice").unwrap());
    let mask = stub.insts.iter().find_map(|i| match i {
        Inst::Call { args, .. } if args.len() == 2 => match &args[1] {
            augur_ir::Operand::Imm { value, .. } => Some(*value),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(mask, Some(0b110));
    // Observed (the file changed): every defined function of the file.
    assert_eq!(m.sites.observed, vec!["bump", "greeting", "main", "twice"]);
}

#[test]
fn revision_count_of_a_hand_written_meta_program() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = lower(
        dir.path(),
        "m",
        "int augur_meta(int);\nint main(void) { int m = augur_meta(1);\n\
         switch (augur_meta(2)) { case 3: return 1; default: break; }\n\
         return m == 1; }\n",
    );
    assert_eq!(hand_written_revisions(&p), Some(4));
    let (p, _) = lower(dir.path(), "n", "int main(void) { return 0; }\n");
    assert_eq!(hand_written_revisions(&p), None);
}

#[test]
fn a_patch_after_shared_blocks_is_dispatched_inside_the_function() {
    let main = "int g(int);\nint main(int argc, char **argv) {\n  int s = 0;\n\
                for (int i = 0; i < argc; i++) s += g(i);\n  if (s > 3) return 1;\n  return 0;\n}\n";
    let later = main.replace("if (s > 3)", "if (s > 4)");
    let m = merge(&[main, &later], false);
    assert_eq!(m.sites.dispatched, vec!["main".to_string()]);
    assert_eq!(m.sites.dispatched_inside, vec!["main".to_string()]);
    // A change in the first block leaves nothing to share: the whole function is dispatched.
    let first = main.replace("int s = 0;", "int s = 1;");
    let m = merge(&[main, &first], false);
    assert_eq!(m.sites.dispatched, vec!["main".to_string()]);
    assert!(m.sites.dispatched_inside.is_empty());
}
