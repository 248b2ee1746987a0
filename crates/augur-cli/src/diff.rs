//! `augur diff`: tell N revisions of a program apart with differential tests and a decision
//! tree. Revisions are whole files or directories, unified diffs over a base, or one
//! hand-written meta program.

use crate::progress::Progress;
use crate::session::{self, ExploreArgs};
use augur_diff::{
    DiffConfig, DiffOutcome, DiffProgress, LazyNative, Natives, OutputSelection, RevisionProgram,
    Sites, Start, MAX_REVISIONS,
};
use augur_engine::Executor;
use clap::Args;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Options of `augur diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// BASE then each revision (C files or directories of C files); or BASE alone with
    /// --patch; or one hand-written meta program using `augur_meta(site)`.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// A revision given as a unified diff over BASE (repeatable).
    #[arg(long = "patch", value_name = "FILE")]
    patches: Vec<PathBuf>,
    /// Output directory (default: a new augur-out-N, linked as augur-out-last).
    #[arg(short = 'o', long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// Outputs compared, comma-separated: annotations, stdout, exit, returns, all.
    #[arg(long, default_value = "all")]
    outputs: String,
    /// Differential tests to solve for per pair of revisions.
    #[arg(long, default_value_t = 1)]
    tests_per_pair: usize,
    /// Time limit of each native run of a test, in seconds.
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// Number of revisions of a hand-written meta program (default: inferred from the
    /// revision numbers its code compares `augur_meta` results with).
    #[arg(long)]
    revisions: Option<u32>,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Arguments passed to the program (after `--`).
    #[arg(last = true)]
    program_args: Vec<String>,
}

/// One revision: its name as given and its source files.
struct Revision {
    name: String,
    files: Vec<PathBuf>,
    /// The directory its files are relative to (for matching files between revisions).
    root: Option<PathBuf>,
}

fn is_source(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("c" | "bc" | "ll")
    )
}

/// A revision from a file or a directory of files.
fn revision_at(path: &Path) -> Result<Revision, String> {
    let files = if path.is_dir() {
        augur_diff::base_files(path)
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|f| is_source(f))
            .collect()
    } else if path.exists() {
        vec![path.to_path_buf()]
    } else {
        return Err(format!("{}: no such file or directory", path.display()));
    };
    let files: Vec<PathBuf> = files;
    if files.is_empty() {
        return Err(format!("{}: no C files in this directory", path.display()));
    }
    Ok(Revision {
        name: path.display().to_string(),
        files,
        root: path.is_dir().then(|| path.to_path_buf()),
    })
}

/// The revisions asked for: BASE and REV..., or BASE and its patches (written into `work`).
fn revisions(a: &DiffArgs, work: &Path) -> Result<Vec<Revision>, String> {
    let base = revision_at(&a.inputs[0])?;
    let mut revs = Vec::new();
    for p in &a.patches {
        let dir = work.join(format!("patched{}", revs.len() + 1));
        let files = augur_diff::apply_patch(&a.inputs[0], p, &dir).map_err(|e| e.to_string())?;
        revs.push(Revision {
            name: p.display().to_string(),
            files: files.into_iter().filter(|f| is_source(f)).collect(),
            root: a.inputs[0].is_dir().then_some(dir),
        });
    }
    for r in &a.inputs[1..] {
        revs.push(revision_at(r)?);
    }
    revs.insert(0, base);
    Ok(revs)
}

/// The files of each revision whose contents are not the same in every revision
/// (files are matched by their path under a directory revision, or are the one file).
fn changed_files(revs: &[Revision]) -> Vec<FxHashSet<String>> {
    let key = |r: &Revision, f: &Path| match &r.root {
        Some(root) => f.strip_prefix(root).unwrap_or(f).display().to_string(),
        None => String::new(),
    };
    // Each revision's files by key, read once.
    let contents: Vec<FxHashMap<String, Option<Vec<u8>>>> = revs
        .iter()
        .map(|r| {
            r.files
                .iter()
                .map(|f| (key(r, f), std::fs::read(f).ok()))
                .collect()
        })
        .collect();
    revs.iter()
        .zip(&contents)
        .map(|(r, mine)| {
            r.files
                .iter()
                .filter(|f| {
                    let k = key(r, f);
                    contents.iter().any(|o| o.get(&k) != mine.get(&k))
                })
                .filter_map(|f| std::fs::canonicalize(f).ok())
                .map(|f| f.display().to_string())
                .collect()
        })
        .collect()
}

struct Bar(Progress);

impl DiffProgress for Bar {
    fn exploring(&mut self, ex: &Executor) {
        self.0.update(ex);
    }
    fn pairing(&mut self, done: usize, total: usize, tests: usize) {
        self.0.message(format!(
            "pairing halted paths {done}/{total} | differential tests {tests}"
        ));
    }
}

/// Run `augur diff`.
pub fn run(a: DiffArgs) -> Result<(), String> {
    let opts = a.explore.options()?;
    let spec = a.explore.env_spec()?;
    let selected = OutputSelection::parse(&a.outputs)?;
    if !(a.timeout.is_finite() && a.timeout > 0.0) {
        return Err(format!(
            "--timeout must be a positive number of seconds, not {}",
            a.timeout
        ));
    }
    if a.tests_per_pair == 0 {
        return Err("--tests-per-pair must be at least 1".into());
    }
    let work = session::workdir()?;
    let hand_written = a.inputs.len() == 1 && a.patches.is_empty();
    let p = if hand_written {
        hand_written_meta(&a, work.path())?
    } else {
        merged_meta(&a, work.path())?
    };
    let entry = session::entry_function(&p.program, &a.explore.entry, &a.inputs[0])?;
    let out = augur_engine::prepare_output_dir(a.output_dir.as_deref())?;
    let mut argv = vec![p.argv0];
    argv.extend(a.program_args.iter().cloned());
    let cfg = DiffConfig {
        names: p.names,
        program: p.program,
        opts,
        meta_revisions: p.meta_revisions,
        start: Start { entry, argv, spec },
        natives: p.natives,
        native_timeout: Duration::from_secs_f64(a.timeout),
        selected,
        tests_per_pair: a.tests_per_pair,
        out: out.clone(),
        sites: p.sites,
    };
    let interrupt = session::ctrl_c_flag();
    let mut bar = Bar(Progress::new());
    let outcome = augur_diff::run(cfg, interrupt, &mut bar)?;
    bar.0.finish();
    print_result(&out, &outcome)
}

/// The meta program to explore and what goes with it.
struct Prepared {
    /// Revision names, base first.
    names: Vec<String>,
    /// The meta program.
    program: augur_ir::Program,
    /// Its dispatched and observed functions.
    sites: Sites,
    /// The revisions compiled natively.
    natives: Natives,
    /// Revisions of a hand-written meta program (1 for a merged one).
    meta_revisions: u32,
    /// argv[0].
    argv0: String,
}

/// The meta program merged from the revisions given as files, directories or patches.
fn merged_meta(a: &DiffArgs, work: &Path) -> Result<Prepared, String> {
    let revs = revisions(a, work)?;
    if revs.len() < 2 {
        return Err("augur diff needs at least two revisions".into());
    }
    let changed = changed_files(&revs);
    let mut programs = Vec::new();
    for (k, r) in revs.iter().enumerate() {
        let dir = work.join(format!("rev{k}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        programs.push(session::load_inputs(&r.files, a.explore.cflags(), &dir)?);
    }
    let parts: Vec<RevisionProgram> = programs
        .iter()
        .zip(changed)
        .map(|(program, changed_files)| RevisionProgram {
            program,
            changed_files,
        })
        .collect();
    let m = augur_diff::merge(&parts).map_err(|e| format!("{}: {e}", revs[0].name))?;
    let natives = Natives::PerRevision(
        revs.iter()
            .map(|r| LazyNative::new(r.files.clone(), a.explore.cflags()))
            .collect(),
    );
    let argv0 = session::program_name(&revs[0].files[0]);
    Ok(Prepared {
        names: revs.into_iter().map(|r| r.name).collect(),
        program: m.program,
        sites: m.sites,
        natives,
        meta_revisions: 1,
        argv0,
    })
}

/// A hand-written meta program (one file using `augur_meta(site)`).
fn hand_written_meta(a: &DiffArgs, work: &Path) -> Result<Prepared, String> {
    let input = &a.inputs[0];
    let program = session::load_inputs(std::slice::from_ref(input), a.explore.cflags(), work)?;
    let n = match a.revisions {
        Some(n) if (2..=MAX_REVISIONS as u32).contains(&n) => n,
        Some(n) => {
            return Err(format!(
                "--revisions {n}: give between 2 and {}",
                MAX_REVISIONS
            ))
        }
        None => augur_diff::hand_written_revisions(&program).ok_or_else(|| {
            format!(
                "{}: one file is a hand-written meta program, but no `augur_meta(site)` result \
                 is compared with a revision number (give --revisions N, or BASE and REV files)",
                input.display()
            )
        })?,
    };
    if n < 2 {
        return Err(format!(
            "{}: a meta program needs at least two revisions",
            input.display()
        ));
    }
    let stem = session::program_name(input);
    let names = (0..n).map(|r| format!("{stem}@rev{r}")).collect();
    let natives = Natives::Meta(LazyNative::new(vec![input.clone()], a.explore.cflags()));
    Ok(Prepared {
        names,
        program,
        sites: Sites::default(),
        natives,
        meta_revisions: n,
        argv0: stem,
    })
}

/// The classes and the tree on the terminal.
fn print_result(out: &Path, o: &DiffOutcome) -> Result<(), String> {
    let summary: serde_json::Value = std::fs::read(out.join("summary.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    eprintln!("augur: output directory is {}", out.display());
    eprintln!(
        "augur: done: {} differential tests, {} paths explored ({}), {} instructions",
        o.tests.len(),
        summary["paths_completed"],
        if o.complete { "complete" } else { "cut short" },
        summary["instructions"]
    );
    println!("classes:");
    for c in summary["classes"].as_array().into_iter().flatten() {
        let names: Vec<&str> = c
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str())
            .collect();
        println!("  {{{}}}", names.join(", "));
    }
    if let Some(e) = summary["equivalence"].as_str() {
        println!("({e})");
    }
    println!("{}", o.tree.to_text());
    for (k, t) in o.tests.iter().enumerate() {
        let objects: Vec<String> = t
            .input
            .objects
            .iter()
            .map(|(n, b)| format!("{n} = {}", show_object(b)))
            .collect();
        println!("difftest {:03}: {}", k + 1, objects.join(", "));
    }
    Ok(())
}

/// An input object for people: text when it looks like text (printable, then perhaps
/// NULs; at least two printable bytes in an object of up to 8), a little-endian integer
/// when it has at most 8 bytes, else hexadecimal bytes.
fn show_object(bytes: &[u8]) -> String {
    let text_len = bytes
        .iter()
        .take_while(|b| b.is_ascii_graphic() || **b == b' ')
        .count();
    // A short object with a single printable byte is more likely a number (100 is 'd').
    let min_text = if bytes.len() <= 8 { 2 } else { 1 };
    if text_len >= min_text && bytes[text_len..].iter().all(|b| *b == 0) {
        return format!("{:?}", augur_engine::escape_bytes(bytes));
    }
    if bytes.is_empty() || bytes.len() > 8 {
        return augur_diff::show_output("", bytes);
    }
    augur_engine::signed_le(bytes).to_string()
}
