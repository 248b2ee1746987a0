//! Pairing a branch of one run with the same branch of the other: the k-th conditional
//! branch executed on a line is paired with the k-th (or the last) executed on the
//! corresponding line of the other program (see [`Versions`]; the same line of the
//! same-named file when the sources do not correspond).

use crate::compare::Unexplained;
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

/// The branches of both runs by line.
pub struct Pairing {
    golden: Branches,
    buggy: Branches,
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

impl Pairing {
    /// Index the branches of both runs.
    pub fn new(golden: &Execution, buggy: &Execution) -> Pairing {
        Pairing {
            golden: branches(golden),
            buggy: branches(buggy),
        }
    }

    /// For an unexplained branch condition: the definitions of the branch's condition
    /// in the golden and the buggy run (its own run's and its counterpart's).
    pub fn branch_pair(
        &self,
        golden: &Execution,
        buggy: &Execution,
        versions: &Versions,
        u: &Unexplained,
    ) -> Option<(u32, u32)> {
        let ((mine, mb), (other, ob)) = match u.side {
            Which::Golden => ((golden, &self.golden), (buggy, &self.buggy)),
            Which::Buggy => ((buggy, &self.buggy), (golden, &self.golden)),
        };
        let e = u.entry?;
        let line = mine.line(e)?;
        let k = mb.get(&line)?.iter().position(|&i| i == e)?;
        let theirs = ob.get(&other_line(versions, other, &line)?)?;
        let f = *theirs.get(k).or(theirs.last())?;
        let cond = |x: &Execution, i: u32| *x.graph.operands[i as usize].first()?;
        let (a, b) = (cond(mine, e)?, cond(other, f)?);
        Some(match u.side {
            Which::Golden => (a, b),
            Which::Buggy => (b, a),
        })
    }
}
