//! Revisions given as unified diffs over a base (`augur diff BASE --patch P.diff`).
//!
//! The base is one file or a directory of files. A patch may touch several files, as `diff -u`,
//! `diff -ruN` (directory prefixes, new and removed files as changes from and to an empty file)
//! and `git diff` (`a/`, `b/` prefixes, `/dev/null` for new files) write them. Each target is
//! matched to a base file by stripping leading path components as `patch -pN` would, trying
//! N = 0, 1, ... until the rest names a file of the base (relative to the base directory, or
//! the base file's own name). Hunks apply in order without fuzz; as GNU patch does, a hunk whose
//! context is not at the line its header names is looked for at the nearest offset, the offset
//! carried on to the following hunks.
//!
//! Parsing is diffy's ([`diffy::patch_set::PatchSet`]); applying is done here because diffy's
//! [`diffy::ApplyError`] does not say which hunk failed, and a failing patch must be one line
//! naming the patch, the hunk and the file.

use diffy::patch_set::{FileOperation, ParseOptions, PatchKind, PatchSet};
use diffy::{Hunk, Line, Patch};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a patched revision could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PatchError {
    /// Reading the base or the patch, or writing the revision, failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The patch file is not a unified diff.
    #[error("{}: not a unified diff: {message}", patch.display())]
    Parse {
        /// The patch file.
        patch: PathBuf,
        /// What the parser reported.
        message: String,
    },
    /// A hunk's context or removed lines are nowhere in the target file.
    #[error("{}: hunk {hunk} ({header}) does not apply to {target}", patch.display())]
    HunkFailed {
        /// The patch file.
        patch: PathBuf,
        /// The target file, relative to the base.
        target: String,
        /// The hunk's number in the target's section of the patch, from 1.
        hunk: usize,
        /// The hunk's header, e.g. `@@ -10,3 +10,4 @@`.
        header: String,
    },
    /// The patch changes a file the base does not have.
    #[error("{}: patches {target}, which is not a file of {}", patch.display(), base.display())]
    UnknownTarget {
        /// The patch file.
        patch: PathBuf,
        /// The target as the patch names it.
        target: String,
        /// The base file or directory.
        base: PathBuf,
    },
    /// The patch creates a file the base already has.
    #[error("{}: creates {target}, which {} already has", patch.display(), base.display())]
    AlreadyExists {
        /// The patch file.
        patch: PathBuf,
        /// The created file, relative to the base.
        target: String,
        /// The base file or directory.
        base: PathBuf,
    },
    /// The patch renames, copies or binary-patches a file.
    #[error("{}: {what} of {target} is not supported", patch.display())]
    Unsupported {
        /// The patch file.
        patch: PathBuf,
        /// The file concerned, as the patch names it.
        target: String,
        /// What the patch does to it (`a rename`, `a binary patch`, ...).
        what: &'static str,
    },
}

/// The input files of `base`: the file itself, or every file below the directory, sorted by
/// path relative to it.
pub fn base_files(base: &Path) -> Result<Vec<PathBuf>, PatchError> {
    Ok(base_entries(base)?
        .into_iter()
        .map(|(_, source)| source)
        .collect())
}

/// Writes the revision `patch` makes of `base` into `out_dir`, with the base's relative layout
/// (a base file keeps its file name): patched files as patched, the others copied. Returns the
/// paths written: the base's files in [`base_files`] order (less those the patch deletes), then
/// the files the patch creates, in patch order.
pub fn apply_patch(base: &Path, patch: &Path, out_dir: &Path) -> Result<Vec<PathBuf>, PatchError> {
    let text = fs::read_to_string(patch).map_err(|source| io_error(patch, source))?;
    let mut tree = load_base(base)?;
    let file_patches = parse(&text, patch)?;
    let ctx = Context {
        patch,
        base,
        strip: strip_level(&tree, &file_patches),
        lone_file: !base.is_dir() && file_patches.len() == 1,
    };
    for file_patch in &file_patches {
        ctx.apply_file(&mut tree, file_patch)?;
    }
    tree.write(out_dir)
}

/// An [`io::Error`] on `path` as a [`PatchError`].
fn io_error(path: &Path, source: io::Error) -> PatchError {
    PatchError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One file of a revision being built.
struct File {
    /// Path relative to the base, `/`-separated.
    rel: String,
    /// Where the base's copy is (for a created file: the patch).
    source: PathBuf,
    /// Current contents; `None` once deleted.
    bytes: Option<Vec<u8>>,
}

/// The files of a revision being built, the base's first.
struct FileTree {
    files: Vec<File>,
}

/// The files of `base` as (path relative to the base, path): a file is its own file name, a
/// directory's files are sorted by relative path.
fn base_entries(base: &Path) -> Result<Vec<(String, PathBuf)>, PatchError> {
    let meta = fs::metadata(base).map_err(|source| io_error(base, source))?;
    if !meta.is_dir() {
        let name = base.file_name().unwrap_or(base.as_os_str());
        return Ok(vec![(
            name.to_string_lossy().into_owned(),
            base.to_path_buf(),
        )]);
    }
    let mut rels = Vec::new();
    walk(base, "", &mut rels)?;
    rels.sort();
    Ok(rels
        .into_iter()
        .map(|rel| {
            let source = base.join(&rel);
            (rel, source)
        })
        .collect())
}

/// Reads every file of `base` into memory (C sources are small).
fn load_base(base: &Path) -> Result<FileTree, PatchError> {
    let files = base_entries(base)?
        .into_iter()
        .map(|(rel, source)| {
            let bytes = fs::read(&source).map_err(|e| io_error(&source, e))?;
            Ok(File {
                rel,
                source,
                bytes: Some(bytes),
            })
        })
        .collect::<Result<_, PatchError>>()?;
    Ok(FileTree { files })
}

/// Collects the relative paths of the files below `dir` (itself at `prefix`) into `rels`.
fn walk(dir: &Path, prefix: &str, rels: &mut Vec<String>) -> Result<(), PatchError> {
    let entries = fs::read_dir(dir).map_err(|source| io_error(dir, source))?;
    for entry in entries {
        let entry = entry.map_err(|source| io_error(dir, source))?;
        let path = entry.path();
        let rel = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if path.is_dir() {
            walk(&path, &format!("{rel}/"), rels)?;
        } else {
            rels.push(rel);
        }
    }
    Ok(())
}

impl FileTree {
    /// The index of the live file at relative path `rel`.
    fn find(&self, rel: &str) -> Option<usize> {
        self.files
            .iter()
            .position(|f| f.rel == rel && f.bytes.is_some())
    }

    /// Whether some file lies below directory `dir`.
    fn has_dir(&self, dir: &str) -> bool {
        let prefix = format!("{dir}/");
        self.files.iter().any(|f| f.rel.starts_with(&prefix))
    }

    /// The first of `names`, stripped of the fewest leading components, that names a live
    /// file: its index and the number of components stripped.
    fn locate(&self, names: &[&str]) -> Option<(usize, usize)> {
        let most = names.iter().map(|n| components(n).len()).max()?;
        (0..most).find_map(|strip| {
            names.iter().find_map(|name| {
                let index = self.find(&stripped(name, strip)?)?;
                Some((index, strip))
            })
        })
    }

    /// Writes the live files below `out_dir`; returns their paths in order.
    fn write(&self, out_dir: &Path) -> Result<Vec<PathBuf>, PatchError> {
        let mut written = Vec::new();
        for file in &self.files {
            let Some(bytes) = &file.bytes else { continue };
            let path = out_dir.join(&file.rel);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).map_err(|e| io_error(parent, e))?;
            }
            fs::write(&path, bytes).map_err(|e| io_error(&path, e))?;
            written.push(path);
        }
        Ok(written)
    }
}

/// The non-empty `/`-separated components of a path named in a patch.
fn components(name: &str) -> Vec<&str> {
    name.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

/// `name` less its first `strip` components, as `patch -p<strip>`; `None` if nothing is left.
fn stripped(name: &str, strip: usize) -> Option<String> {
    let parts = components(name);
    (strip < parts.len()).then(|| parts[strip..].join("/"))
}

/// The file sections of the patch text, parsed as a git diff when it has `diff --git` lines.
fn parse<'a>(
    text: &'a str,
    patch: &Path,
) -> Result<Vec<diffy::patch_set::FilePatch<'a, str>>, PatchError> {
    let options = if text.lines().any(|l| l.starts_with("diff --git ")) {
        ParseOptions::gitdiff()
    } else {
        ParseOptions::unidiff()
    };
    PatchSet::parse(text, options)
        .collect::<Result<_, _>>()
        .map_err(|e| PatchError::Parse {
            patch: patch.to_path_buf(),
            message: e.to_string(),
        })
}

/// The `-p` level of the patch: that of the first section whose target is a base file; for a
/// patch that only creates files, 1 when its first path starts with a directory the base does
/// not have (`b/`, `rev/`), else 0.
fn strip_level(tree: &FileTree, file_patches: &[diffy::patch_set::FilePatch<'_, str>]) -> usize {
    let located = file_patches
        .iter()
        .find_map(|fp| tree.locate(&names(fp.operation())));
    if let Some((_, strip)) = located {
        return strip;
    }
    let first = file_patches.first().map(|fp| names(fp.operation()));
    let parts = first
        .as_deref()
        .and_then(|n| n.first())
        .map(|n| components(n));
    match parts.as_deref() {
        Some([dir, _, ..]) if !tree.has_dir(dir) => 1,
        _ => 0,
    }
}

/// The paths a section names, the original first, without `/dev/null`.
fn names<'o>(operation: &'o FileOperation<'_, str>) -> Vec<&'o str> {
    let names: Vec<&str> = match operation {
        FileOperation::Create(path) | FileOperation::Delete(path) => vec![path],
        FileOperation::Modify { original, modified } => vec![original, modified],
        FileOperation::Rename { from, to } | FileOperation::Copy { from, to } => vec![from, to],
    };
    names.into_iter().filter(|n| *n != "/dev/null").collect()
}

/// What applying one patch needs to know besides the files.
struct Context<'p> {
    patch: &'p Path,
    base: &'p Path,
    /// The patch's `-p` level, for the names of files it creates.
    strip: usize,
    /// The base is one file and the patch has one section, which then targets that file.
    lone_file: bool,
}

impl Context<'_> {
    /// Applies one file section of the patch to `tree`.
    fn apply_file(
        &self,
        tree: &mut FileTree,
        file_patch: &diffy::patch_set::FilePatch<'_, str>,
    ) -> Result<(), PatchError> {
        let operation = file_patch.operation();
        let names = names(operation);
        let target = names.last().copied().unwrap_or_default();
        let patch = match file_patch.patch() {
            PatchKind::Text(patch) => patch,
            PatchKind::Binary(_) => return Err(self.unsupported(target, "a binary patch")),
        };
        match operation {
            FileOperation::Create(path) => self.create(tree, path, patch),
            FileOperation::Rename { .. } => Err(self.unsupported(target, "a rename")),
            FileOperation::Copy { .. } => Err(self.unsupported(target, "a copy")),
            FileOperation::Delete(_) | FileOperation::Modify { .. } => {
                let creates = patch.hunks().iter().all(|h| h.old_range().is_empty());
                match tree.locate(&names) {
                    Some((index, _)) => self.modify(&mut tree.files[index], operation, patch),
                    // `diff -N` writes a new file as a change from an empty one.
                    None if creates => self.create(tree, target, patch),
                    // As `patch FILE`: a lone section patches a lone base file, whatever its name.
                    None if self.lone_file => self.modify(&mut tree.files[0], operation, patch),
                    None => Err(PatchError::UnknownTarget {
                        patch: self.patch.to_path_buf(),
                        target: target.to_string(),
                        base: self.base.to_path_buf(),
                    }),
                }
            }
        }
    }

    /// Adds the file `path` (stripped to the patch's level) that `patch` creates.
    fn create(
        &self,
        tree: &mut FileTree,
        path: &str,
        patch: &Patch<'_, str>,
    ) -> Result<(), PatchError> {
        let rel = stripped(path, self.strip).unwrap_or_else(|| path.to_string());
        if tree.find(&rel).is_some() {
            return Err(PatchError::AlreadyExists {
                patch: self.patch.to_path_buf(),
                target: rel,
                base: self.base.to_path_buf(),
            });
        }
        let text = self.apply_hunks("", patch, &rel)?;
        tree.files.push(File {
            rel,
            source: self.patch.to_path_buf(),
            bytes: Some(text.into_bytes()),
        });
        Ok(())
    }

    /// Patches `file` in place; deletes it when the patch deletes it (`+++ /dev/null`, or every
    /// hunk leaving nothing, as `diff -N` writes a removed file).
    fn modify(
        &self,
        file: &mut File,
        operation: &FileOperation<'_, str>,
        patch: &Patch<'_, str>,
    ) -> Result<(), PatchError> {
        let bytes = file.bytes.take().unwrap_or_default();
        let text = String::from_utf8(bytes)
            .map_err(|e| io_error(&file.source, io::Error::new(io::ErrorKind::InvalidData, e)))?;
        let patched = self.apply_hunks(&text, patch, &file.rel)?;
        let removed = patch.hunks().iter().all(|h| h.new_range().is_empty());
        if !(operation.is_delete() || (removed && patched.is_empty())) {
            file.bytes = Some(patched.into_bytes());
        }
        Ok(())
    }

    /// `text` with every hunk of `patch` applied, or the failing hunk's error on `target`.
    fn apply_hunks(
        &self,
        text: &str,
        patch: &Patch<'_, str>,
        target: &str,
    ) -> Result<String, PatchError> {
        let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mut drift = 0isize;
        let mut floor = 0usize;
        for (index, hunk) in patch.hunks().iter().enumerate() {
            let (old, new) = images(hunk);
            let expected = expected_line(hunk).saturating_add_signed(drift);
            let at =
                find_hunk(&lines, &old, expected, floor).ok_or_else(|| PatchError::HunkFailed {
                    patch: self.patch.to_path_buf(),
                    target: target.to_string(),
                    hunk: index + 1,
                    header: format!("@@ -{} +{} @@", hunk.old_range(), hunk.new_range()),
                })?;
            drift = at as isize - expected_line(hunk) as isize;
            floor = at + new.len();
            lines.splice(at..at + old.len(), new);
        }
        Ok(lines.concat())
    }

    /// The error for an operation this module does not perform.
    fn unsupported(&self, target: &str, what: &'static str) -> PatchError {
        PatchError::Unsupported {
            patch: self.patch.to_path_buf(),
            target: target.to_string(),
            what,
        }
    }
}

/// The hunk's lines before and after it applies, each with its line ending (none on a last
/// line marked `\ No newline at end of file`).
fn images<'a>(hunk: &Hunk<'a, str>) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut old = Vec::new();
    let mut new = Vec::new();
    for line in hunk.lines() {
        match *line {
            Line::Context(l) => {
                old.push(l);
                new.push(l);
            }
            Line::Delete(l) => old.push(l),
            Line::Insert(l) => new.push(l),
        }
    }
    (old, new)
}

/// The 0-based line of the current text where the hunk's header says it starts, earlier hunks
/// applied: its start in the new file, or the line after it when the hunk leaves no line there.
fn expected_line(hunk: &Hunk<'_, str>) -> usize {
    let range = hunk.new_range();
    if range.is_empty() {
        range.start()
    } else {
        range.start().saturating_sub(1)
    }
}

/// Where `old` occurs in `lines` at or after `floor`, nearest to `expected` (earlier first
/// on ties), as GNU patch searches without fuzz.
fn find_hunk(lines: &[&str], old: &[&str], expected: usize, floor: usize) -> Option<usize> {
    let last = lines.len().checked_sub(old.len())?;
    if floor > last {
        return None;
    }
    let expected = expected.clamp(floor, last);
    let fits = |at: usize| lines[at..at + old.len()] == *old;
    (0..=last.max(expected - floor)).find_map(|distance| {
        let before = expected.checked_sub(distance).filter(|&at| at >= floor);
        let after = Some(expected + distance).filter(|&at| distance > 0 && at <= last);
        before
            .filter(|&at| fits(at))
            .or(after.filter(|&at| fits(at)))
    })
}

#[cfg(test)]
mod tests;
