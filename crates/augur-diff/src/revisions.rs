//! The revisions of an `augur diff` as one meta program: whole files or directories,
//! unified diffs over a base (materialised into the work directory), or one hand-written
//! meta program; each revision compiled, the changed files found, the programs merged.

use crate::driver::Config;
use crate::{LazyNative, Natives, RevisionProgram, Sites, MAX_REVISIONS};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};

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
        crate::base_files(path)
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
fn revisions(c: &Config, work: &Path) -> Result<Vec<Revision>, String> {
    let base = revision_at(&c.inputs[0])?;
    let mut revs = Vec::new();
    for p in &c.patches {
        let dir = work.join(format!("patched{}", revs.len() + 1));
        let files = crate::apply_patch(&c.inputs[0], p, &dir).map_err(|e| e.to_string())?;
        revs.push(Revision {
            name: p.display().to_string(),
            files: files.into_iter().filter(|f| is_source(f)).collect(),
            root: c.inputs[0].is_dir().then_some(dir),
        });
    }
    for r in &c.inputs[1..] {
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

/// The meta program to explore and what goes with it.
pub(crate) struct Prepared {
    /// Revision names, base first.
    pub names: Vec<String>,
    /// The meta program.
    pub program: augur_ir::Program,
    /// Its dispatched and observed functions.
    pub sites: Sites,
    /// The revisions compiled natively.
    pub natives: Natives,
    /// Revisions of a hand-written meta program (1 for a merged one).
    pub meta_revisions: u32,
    /// argv[0].
    pub argv0: String,
}

/// The meta program merged from the revisions given as files, directories or patches.
pub(crate) fn merged_meta(c: &Config, work: &Path) -> Result<Prepared, String> {
    let revs = revisions(c, work)?;
    if revs.len() < 2 {
        return Err("augur diff needs at least two revisions".into());
    }
    let changed = changed_files(&revs);
    let mut programs = Vec::new();
    for (k, r) in revs.iter().enumerate() {
        let dir = work.join(format!("rev{k}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        programs.push(augur_env::load_program(
            &r.files,
            c.common.cflags.clone(),
            &dir,
        )?);
    }
    let parts: Vec<RevisionProgram> = programs
        .iter()
        .zip(changed)
        .map(|(program, changed_files)| RevisionProgram {
            program,
            changed_files,
        })
        .collect();
    let m = crate::merge(&parts).map_err(|e| format!("{}: {e}", revs[0].name))?;
    let natives = Natives::PerRevision(
        revs.iter()
            .map(|r| LazyNative::new(r.files.clone(), c.common.cflags.clone()))
            .collect(),
    );
    let argv0 = augur_env::program_name(&revs[0].files[0]);
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
pub(crate) fn hand_written_meta(c: &Config, work: &Path) -> Result<Prepared, String> {
    let input = &c.inputs[0];
    let program =
        augur_env::load_program(std::slice::from_ref(input), c.common.cflags.clone(), work)?;
    let n = match c.revisions {
        Some(n) if (2..=MAX_REVISIONS as u32).contains(&n) => n,
        Some(n) => {
            return Err(format!(
                "--revisions {n}: give between 2 and {}",
                MAX_REVISIONS
            ))
        }
        None => crate::hand_written_revisions(&program).ok_or_else(|| {
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
    let stem = augur_env::program_name(input);
    let names = (0..n).map(|r| format!("{stem}@rev{r}")).collect();
    let natives = Natives::Meta(LazyNative::new(
        vec![input.clone()],
        c.common.cflags.clone(),
    ));
    Ok(Prepared {
        names,
        program,
        sites: Sites::default(),
        natives,
        meta_revisions: n,
        argv0: stem,
    })
}
