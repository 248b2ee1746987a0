//! The two programs' sources as versions of one program: which buggy file corresponds to
//! which golden one (the same file name, or the only user file of each), and line by
//! line, through a line diff (Myers', by `diffy`), which lines correspond and
//! which changed. A changed line corresponds to the line at the same position of the
//! other side's changed block; a deleted one to the line where it would be. Two files
//! that share too few lines are not versions of one another but two implementations
//! (BusyBox's `tr.c` and coreutils'): their lines are not paired.

use crate::{SrcLine, Which};
use diffy::DiffOptions;
use rustc_hash::FxHashMap;
use std::path::Path;

/// The line of the other version corresponding to one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counterpart {
    /// 1-based line of the other file.
    pub line: u32,
    /// Is its text the same?
    pub same: bool,
}

/// One golden file and the buggy file that is its other version.
struct FilePair {
    golden: String,
    buggy: String,
    /// Per golden line (0-based): its counterpart.
    g2b: Vec<Counterpart>,
    /// Per buggy line (0-based): its counterpart.
    b2g: Vec<Counterpart>,
}

/// The source files of both programs, read once, and their correspondence.
#[derive(Default)]
pub struct Versions {
    texts: FxHashMap<String, Vec<String>>,
    golden: Vec<String>,
    pairs: Vec<FilePair>,
}

/// The text of `file` as lines (empty if it cannot be read).
pub fn read_lines(file: &str) -> Vec<String> {
    std::fs::read_to_string(file)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Per line of `a` and of `b`: the corresponding line of the other (through a line
/// diff: lines outside its hunks match one to one, a hunk's lines are changed).
fn correspond(a: &[String], b: &[String]) -> (Vec<Counterpart>, Vec<Counterpart>) {
    let (ta, tb) = (a.join("\n") + "\n", b.join("\n") + "\n");
    let patch = DiffOptions::new().set_context_len(0).create_patch(&ta, &tb);
    let mut g2b = vec![None; a.len()];
    let mut b2g = vec![None; b.len()];
    let (mut x, mut y) = (0, 0);
    for h in patch.hunks() {
        // Unified-diff ranges: 1-based, an empty one names the line before it.
        let start = |r: diffy::HunkRange| r.start() - usize::from(!r.is_empty());
        let (o, n) = (h.old_range(), h.new_range());
        let (os, ns) = (start(o), start(n));
        same_run(&mut g2b, &mut b2g, (x, y), os.saturating_sub(x));
        changed_block(&mut g2b, os..os + o.len(), ns..ns + n.len(), b.len());
        changed_block(&mut b2g, ns..ns + n.len(), os..os + o.len(), a.len());
        (x, y) = (os + o.len(), ns + n.len());
    }
    same_run(&mut g2b, &mut b2g, (x, y), a.len().saturating_sub(x));
    let done = |v: Vec<Option<Counterpart>>, other: usize| {
        v.into_iter()
            .map(|c| {
                c.unwrap_or(Counterpart {
                    line: other.max(1) as u32,
                    same: false,
                })
            })
            .collect()
    };
    (done(g2b, b.len()), done(b2g, a.len()))
}

/// Lines `x..x + count` of one side and `y..y + count` of the other are the same.
fn same_run(
    g2b: &mut [Option<Counterpart>],
    b2g: &mut [Option<Counterpart>],
    (x, y): (usize, usize),
    count: usize,
) {
    for k in 0..count {
        let (Some(g), Some(b)) = (g2b.get_mut(x + k), b2g.get_mut(y + k)) else {
            return;
        };
        *g = Some(Counterpart {
            line: (y + k) as u32 + 1,
            same: true,
        });
        *b = Some(Counterpart {
            line: (x + k) as u32 + 1,
            same: true,
        });
    }
}

/// Map the changed lines `from` of one side onto the changed lines `to` of the other
/// (position by position, the last one for the surplus; the line where they would be
/// when `to` is empty).
fn changed_block(
    map: &mut [Option<Counterpart>],
    from: std::ops::Range<usize>,
    to: std::ops::Range<usize>,
    other_len: usize,
) {
    for (k, x) in from.enumerate() {
        let y = if to.is_empty() {
            to.start.min(other_len.saturating_sub(1))
        } else {
            (to.start + k).min(to.end - 1)
        };
        map[x] = Some(Counterpart {
            line: y as u32 + 1,
            same: false,
        });
    }
}

/// A line that says something: not blank, not a lone brace or `else` (two
/// implementations share those).
fn telling(line: &str) -> bool {
    let t = line.trim();
    t.len() > 2 && !matches!(t, "else" | "} else {" | "return 0;" | "break;")
}

/// Are `a` and `b` (with `a2b`, `a`'s correspondence) versions of one file: do at least
/// half the telling lines of the shorter one appear unchanged in the other?
fn are_versions(a: &[String], a2b: &[Counterpart], b: &[String]) -> bool {
    let same = a
        .iter()
        .zip(a2b)
        .filter(|(l, c)| c.same && telling(l))
        .count();
    let telling_lines = |x: &[String]| x.iter().filter(|l| telling(l)).count();
    let shorter = telling_lines(a).min(telling_lines(b));
    2 * same >= shorter
}

impl Versions {
    /// The correspondence of the golden program's user files `golden` and the buggy
    /// program's `buggy` (paths as [`SrcLine`]s name them).
    pub fn new(golden: &[String], buggy: &[String]) -> Versions {
        let mut v = Versions {
            golden: golden.to_vec(),
            ..Versions::default()
        };
        for f in golden.iter().chain(buggy) {
            v.texts.entry(f.clone()).or_insert_with(|| read_lines(f));
        }
        let name = |f: &String| Path::new(f).file_name().map(|n| n.to_owned());
        for g in golden {
            let same_name: Vec<&String> = buggy.iter().filter(|b| name(b) == name(g)).collect();
            let b = match (same_name.as_slice(), golden.len(), buggy.len()) {
                ([b], _, _) => *b,
                ([], 1, 1) => &buggy[0],
                _ => continue,
            };
            let (g2b, b2g) = correspond(&v.texts[g], &v.texts[b]);
            if !are_versions(&v.texts[g], &g2b, &v.texts[b]) {
                continue;
            }
            v.pairs.push(FilePair {
                golden: g.clone(),
                buggy: b.clone(),
                g2b,
                b2g,
            });
        }
        v
    }

    /// Are no files of the two programs versions of one another (two implementations of
    /// one job)?
    pub fn independent(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Which program `l` belongs to (golden unless it is a buggy file only).
    pub fn side(&self, l: &SrcLine) -> Which {
        match self.golden.contains(&l.file) {
            true => Which::Golden,
            false => Which::Buggy,
        }
    }

    /// The line of the other program corresponding to `l`, if its file has a version
    /// there, and whether the two lines read the same.
    pub fn counterpart(&self, l: &SrcLine) -> Option<(SrcLine, bool)> {
        let side = self.side(l);
        let (pair, map) = self.pairs.iter().find_map(|p| match side {
            Which::Golden if p.golden == l.file => Some((p, &p.g2b)),
            Which::Buggy if p.buggy == l.file => Some((p, &p.b2g)),
            _ => None,
        })?;
        let c = map.get(l.line.checked_sub(1)? as usize)?;
        let file = match side {
            Which::Golden => &pair.buggy,
            Which::Buggy => &pair.golden,
        };
        Some((
            SrcLine {
                file: file.clone(),
                line: c.line,
            },
            c.same,
        ))
    }

    /// The text of `l` (None if its file could not be read or is shorter).
    pub fn text(&self, l: &SrcLine) -> Option<&str> {
        let lines = self.texts.get(&l.file)?;
        lines
            .get(l.line.checked_sub(1)? as usize)
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    #[test]
    fn changed_and_deleted_lines_have_counterparts() {
        let a = lines("a\nb\nc\nd\ne");
        let b = lines("a\nB\nc\ne");
        let (g2b, b2g) = correspond(&a, &b);
        let at = |v: &[Counterpart]| v.iter().map(|c| (c.line, c.same)).collect::<Vec<_>>();
        assert_eq!(
            at(&g2b),
            vec![(1, true), (2, false), (3, true), (4, false), (4, true)]
        );
        assert_eq!(at(&b2g), vec![(1, true), (2, false), (3, true), (5, true)]);
    }

    #[test]
    fn two_implementations_are_not_versions() {
        let a = lines("int f(int x)\n{\n    return x * 2;\n}\nint g(void)\n{\n    return 0;\n}");
        let b = lines("int f(int y)\n{\n    int r = y + y;\n    return r;\n}");
        let (a2b, _) = correspond(&a, &b);
        assert!(!are_versions(&a, &a2b, &b));
        let c = lines("int f(int x)\n{\n    return x * 3;\n}\nint g(void)\n{\n    return 0;\n}");
        let (a2c, _) = correspond(&a, &c);
        assert!(are_versions(&a, &a2c, &c));
    }

    #[test]
    fn inserted_line_points_where_it_would_be() {
        let (g2b, b2g) = correspond(&lines("a\nc"), &lines("a\nb\nc"));
        let at = |v: &[Counterpart]| v.iter().map(|c| (c.line, c.same)).collect::<Vec<_>>();
        assert_eq!(at(&g2b), vec![(1, true), (3, true)]);
        assert_eq!(at(&b2g), vec![(1, true), (2, false), (2, true)]);
    }
}
