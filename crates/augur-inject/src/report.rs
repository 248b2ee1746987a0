//! The corpus on disk: `bugNNN/` per bug (buggy sources under their own names, or of a
//! project the changed files under their paths in the tree and `bug.patch`,
//! `trigger.json`, `trigger.ktest`, the trigger's command line and stdin, `bug.json`),
//! `program/` in one-program mode, `summary.json`; and the terminal table.

use crate::driver::{Bug, Outcome};
use crate::verify::{Source, Verification};
use augur_engine::{write_file, KTest};
use serde_json::{json, Value as Json};
use std::path::Path;

/// A share of `n` out of `of`, for JSON (null when nothing was tried).
fn share(n: usize, of: usize) -> Json {
    if of == 0 {
        Json::Null
    } else {
        json!(n as f64 / of as f64)
    }
}

/// `bug.json`.
fn bug_json(b: &Bug) -> Json {
    let last = b.points.last().expect("a bug has a point");
    let v = &b.verification;
    let t = v.total();
    let sources: serde_json::Map<String, Json> = v
        .tallies
        .iter()
        .map(|(s, t)| {
            let counts = json!({
                "tried": t.tried, "fired": t.fired, "same_as_original": t.same,
                "fired_another_bug": t.fired_other,
                "differed": t.differed, "fraction_fired": share(t.fired, t.tried),
            });
            (s.name().to_string(), counts)
        })
        .collect();
    json!({
        "id": b.id,
        "kind": b.kind.name(),
        "error": b.kind.error(),
        "file": last.file,
        "line": last.line,
        "points": b.points.iter().map(|p| json!({
            "file": p.file, "line": p.line, "instance": p.instance,
            "call_depth": p.call_depth, "branches_before": p.branches, "predicate": p.pred,
        })).collect::<Vec<_>>(),
        "depth": {"branches": last.branches, "calls": last.call_depth},
        "seed_path": b.seed_path + 1,
        "path_inputs": {"count": b.path_count, "exact": b.path_exact},
        "trigger_inputs": {"count": b.bug_count, "exact": b.bug_exact, "upper_bound": b.bug_bound},
        "input_bits": b.bits,
        "fraction_of_path_inputs": b.path_fraction(),
        "fraction_of_all_inputs": b.input_fraction(),
        "verification": {
            "trigger_fires": v.trigger_fires, "trigger_run": v.trigger_run,
            "builds": v.builds.iter().map(|(name, r)| match r {
                Ok(how) => json!({"build": name, "fires": true, "outcome": how}),
                Err(why) => json!({"build": name, "fires": false, "outcome": why}),
            }).collect::<Vec<_>>(),
            "inputs": t.tried, "same_as_original": t.same, "fired": t.fired,
            "fired_another_bug": t.fired_other, "differed": t.differed, "other_bugs_fired_by_trigger": v.crossed,
            "by_source": sources,
        },
    })
}

/// `summary.json`.
pub fn summary_json(o: &Outcome, requested: usize) -> Json {
    json!({
        "requested": requested,
        "emitted": o.bugs.len(),
        "failed": o.failed.len(),
        "failures": o.failed.iter().map(|(id, why)| json!({"id": id, "reason": why})).collect::<Vec<_>>(),
        "seed_paths": o.seed_paths,
        "one_program": o.program.is_some(),
        "bugs": o.bugs.iter().map(bug_json).collect::<Vec<_>>(),
    })
}

fn io(path: &Path, r: std::io::Result<()>) -> Result<(), String> {
    r.map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Write `sources` (name or path in the tree, text) under `dir`, and a project's
/// `patch` as `dir/NAME.patch`.
fn write_sources(
    dir: &Path,
    sources: &[(String, String)],
    patch: Option<(&str, &String)>,
) -> Result<(), String> {
    io(dir, std::fs::create_dir_all(dir))?;
    for (name, text) in sources {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            io(parent, std::fs::create_dir_all(parent))?;
        }
        io(&p, write_file(&p, text.as_bytes()))?;
    }
    if let Some((name, diff)) = patch {
        let p = dir.join(format!("{name}.patch"));
        io(&p, write_file(&p, diff.as_bytes()))?;
    }
    Ok(())
}

/// Write the corpus into `out`; `argv` is the program's argv[0] and concrete arguments.
pub(crate) fn write_corpus(
    out: &Path,
    o: &Outcome,
    requested: usize,
    argv: &[String],
) -> Result<(), String> {
    io(out, std::fs::create_dir_all(out))?;
    if let Some(program) = &o.program {
        let patch = o.program_patch.as_ref().map(|d| ("program", d));
        write_sources(&out.join("program"), program, patch)?;
    }
    for b in &o.bugs {
        let dir = out.join(format!("bug{:03}", b.id));
        write_sources(&dir, &b.sources, b.patch.as_ref().map(|d| ("bug", d)))?;
        let last = b.points.last().expect("a bug has a point");
        let trigger = json!({
            "objects": b.trigger.iter().map(|(n, v)| json!({"name": n, "bytes": v})).collect::<Vec<_>>(),
            "outcome": {"kind": "error", "error": b.kind.error(), "file": last.file, "line": last.line},
        });
        let files: Vec<(&str, Vec<u8>)> = vec![
            (
                "trigger.json",
                serde_json::to_vec_pretty(&trigger).expect("json"),
            ),
            (
                "trigger.ktest",
                KTest {
                    args: argv.to_vec(),
                    sym_argvs: 0,
                    sym_argv_len: 0,
                    objects: b.trigger.clone(),
                }
                .to_bytes(),
            ),
            (
                "bug.json",
                serde_json::to_vec_pretty(&bug_json(b)).expect("json"),
            ),
        ];
        let env = augur_env::environment(&b.trigger);
        let mut files = files;
        if !env.arg_objects.is_empty() {
            let line: Vec<String> = argv
                .iter()
                .cloned()
                .chain(env.args().into_iter().map(shell_quote))
                .collect();
            files.push((
                "trigger.cmdline",
                format!("{}\n", line.join(" ")).into_bytes(),
            ));
        }
        if let Some(stdin) = env.stdin {
            files.push(("trigger.stdin", stdin));
        }
        for (name, data) in files {
            let p = dir.join(name);
            io(&p, write_file(&p, &data))?;
        }
    }
    let p = out.join("summary.json");
    let s = serde_json::to_vec_pretty(&summary_json(o, requested)).expect("json");
    io(&p, write_file(&p, &s))
}

/// An argument as a POSIX shell word.
fn shell_quote(a: &[u8]) -> String {
    let s = String::from_utf8_lossy(a);
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A fraction for the table: `<` marks an upper bound.
fn fraction(f: f64, bound: bool) -> String {
    format!("{}{f:.3e}", if bound { "<" } else { "" })
}

/// How often a bug fired among the inputs of `source`: `fired/tried`, `-` if none.
fn fired_cell(v: &Verification, source: Source) -> String {
    let t = v.tally(source);
    if t.tried == 0 {
        "-".into()
    } else {
        format!("{}/{}", t.fired, t.tried)
    }
}

/// The terminal table: one row per emitted bug (fractions of the seed path's inputs and
/// of all inputs that trigger it, by model counting; how many of the program's own tests
/// (`--pool`), random inputs, mutations of the program's own inputs and mutations of
/// its trigger fired it natively; the independent builds it fired on).
pub fn table(o: &Outcome) -> String {
    let mut t = format!(
        "{:<6} {:<14} {:<16} {:>6} {:>5} {:>5} {:>12} {:>12} {:>11} {:>11} {:>11} {:>12}  {}\n",
        "bug",
        "kind",
        "at",
        "points",
        "brs",
        "calls",
        "path frac",
        "input frac",
        "pool",
        "random",
        "mutated",
        "near trigger",
        "verified"
    );
    for b in &o.bugs {
        let last = b.points.last().expect("a bug has a point");
        let v = &b.verification;
        let total = v.total();
        t.push_str(&format!(
            "{:<6} {:<14} {:<16} {:>6} {:>5} {:>5} {:>12} {:>12} {:>11} {:>11} {:>11} {:>12}  fires on {}/{} builds, {}/{} inputs as original\n",
            format!("bug{:03}", b.id),
            b.kind.name(),
            format!("{}:{}", last.file, last.line),
            b.points.len(),
            last.branches,
            last.call_depth,
            fraction(b.path_fraction(), b.bug_bound),
            fraction(b.input_fraction(), b.bug_bound),
            fired_cell(v, Source::Pool),
            fired_cell(v, Source::Random),
            fired_cell(v, Source::Mutated),
            fired_cell(v, Source::NearTrigger),
            v.builds_ok() + 1,
            v.builds.len() + 1,
            total.same,
            total.tried,
        ));
    }
    for (id, why) in &o.failed {
        t.push_str(&format!("bug{id:03} not emitted: {why}\n"));
    }
    t
}
