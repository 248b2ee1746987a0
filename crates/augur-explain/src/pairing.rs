//! Pairing a branch of one run with the same branch of the other: the k-th conditional
//! branch executed on a line is paired with the k-th (or the last) executed on the
//! corresponding line of the other program (see [`Versions`]; the same line of the
//! same-named file when the sources do not correspond).

use crate::versions::Versions;
use crate::{Execution, SrcLine, Which};
use augur_ir::Inst;
use rustc_hash::FxHashMap;
use std::path::Path;

/// Per line: the conditional branches of a run executed on it, in order.
type Branches = FxHashMap<SrcLine, Vec<u32>>;

fn branches(x: &Execution) -> Branches {
    let mut out = Branches::default();
    for (i, e) in x.trace.entries.iter().enumerate() {
        if matches!(
            x.prog.func(e.func).insts[e.pc as usize],
            Inst::CondBr { .. } | Inst::Switch { .. }
        ) {
            if let Some(l) = x.line(i as u32) {
                out.entry(l).or_default().push(i as u32);
            }
        }
    }
    out
}

/// Both runs, their sources' correspondence, and their branches by line.
pub struct Pairing<'a> {
    /// The golden run.
    pub golden: &'a Execution,
    /// The buggy run.
    pub buggy: &'a Execution,
    /// How their sources correspond.
    pub versions: &'a Versions,
    golden_branches: Branches,
    buggy_branches: Branches,
}

/// The line of the other program standing for `l`.
fn other_line(versions: &Versions, other: &Execution, l: &SrcLine) -> Option<SrcLine> {
    if let Some((c, _)) = versions.counterpart(l) {
        return Some(c);
    }
    let name = Path::new(&l.file).file_name();
    let file = other
        .user_files()
        .into_iter()
        .find(|f| Path::new(f).file_name() == name)?;
    Some(SrcLine { file, line: l.line })
}

impl<'a> Pairing<'a> {
    /// Index the branches of both runs.
    pub fn new(golden: &'a Execution, buggy: &'a Execution, versions: &'a Versions) -> Self {
        Pairing {
            golden,
            buggy,
            versions,
            golden_branches: branches(golden),
            buggy_branches: branches(buggy),
        }
    }

    /// For branch entry `e` of the `side` run: the definitions of its condition and of
    /// its counterpart's in the other run, as (golden, buggy).
    pub fn conditions(&self, side: Which, e: u32) -> Option<(u32, u32)> {
        let ((mine, mb), (other, ob)) = match side {
            Which::Golden => (
                (self.golden, &self.golden_branches),
                (self.buggy, &self.buggy_branches),
            ),
            Which::Buggy => (
                (self.buggy, &self.buggy_branches),
                (self.golden, &self.golden_branches),
            ),
        };
        let line = mine.line(e)?;
        let k = mb.get(&line)?.iter().position(|&i| i == e)?;
        let theirs = ob.get(&other_line(self.versions, other, &line)?)?;
        let f = *theirs.get(k).or(theirs.last())?;
        let cond = |x: &Execution, i: u32| *x.graph.operands[i as usize].first()?;
        let (a, b) = (cond(mine, e)?, cond(other, f)?);
        Some(match side {
            Which::Golden => (a, b),
            Which::Buggy => (b, a),
        })
    }
}
