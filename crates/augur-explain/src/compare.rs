//! Comparing the two weakest preconditions: drop tautologies (one solver query each),
//! then keep the conjuncts of each side that no conjunct of the other side implies (the
//! paper's pairwise approximation), or, exactly, that the whole other side does not imply.

use crate::import::Importer;
use crate::show;
use crate::wp::{Conjunct, Kind};
use crate::{SrcLine, Which};
use augur_expr::{ExprId, ExprPool};
use augur_solver::SolverChain;
use std::collections::BTreeSet;

/// Expressions longer than this many characters are shortened in report files.
const MAX_TEXT: usize = 2000;

/// Expressions are shortened to this many characters on the terminal.
const SHORT_TEXT: usize = 120;

/// One side's weakest precondition and the pool its expressions live in.
pub struct Side<'a> {
    /// The pool.
    pub pool: &'a ExprPool,
    /// The conjuncts.
    pub conjuncts: &'a [Conjunct],
}

/// A conjunct the other side does not explain.
#[derive(Clone, Debug)]
pub struct Unexplained {
    /// The program it comes from.
    pub side: Which,
    /// The constraint, readable (input bytes by name; very long ones shortened).
    pub constraint: String,
    /// The same, shortened for the terminal.
    pub short: String,
    /// Where it comes from.
    pub kind: Kind,
    /// The user's source lines that produced it.
    pub lines: BTreeSet<SrcLine>,
}

/// What the comparison found.
pub struct Comparison {
    /// Unexplained conjuncts, buggy side first.
    pub unexplained: Vec<Unexplained>,
    /// Conjuncts left after dropping tautologies: (golden, buggy).
    pub kept: (usize, usize),
    /// Solver queries made.
    pub queries: u64,
}

/// The solver and the common pool of a comparison, counting queries.
struct Checker {
    pool: ExprPool,
    solver: SolverChain,
    queries: u64,
}

impl Checker {
    /// Do `premises` imply `c`?
    fn implies(&mut self, premises: &[ExprId], c: ExprId) -> Result<bool, String> {
        self.queries += 1;
        self.solver
            .must_be_true(&mut self.pool, premises, c)
            .map_err(|e| format!("solver: {e}"))
    }

    /// The non-tautological conjuncts of a side, imported into the common pool.
    fn import_side(
        &mut self,
        side: &Side,
    ) -> Result<Vec<(ExprId, Kind, BTreeSet<SrcLine>)>, String> {
        let mut imp = Importer::new(side.pool);
        let mut kept = Vec::new();
        for c in side.conjuncts {
            let e = imp.import(&mut self.pool, c.expr);
            let tautology = match self.pool.as_const(e) {
                Some(v) => v != 0,
                None => self.implies(&[], e)?,
            };
            if !tautology {
                kept.push((e, c.kind, c.lines.clone()));
            }
        }
        Ok(kept)
    }

    /// The conjuncts of `mine` that `theirs` does not explain.
    fn unexplained(
        &mut self,
        which: Which,
        mine: &[(ExprId, Kind, BTreeSet<SrcLine>)],
        theirs: &[(ExprId, Kind, BTreeSet<SrcLine>)],
        exact: bool,
    ) -> Result<Vec<Unexplained>, String> {
        let all: Vec<ExprId> = theirs.iter().map(|t| t.0).collect();
        let mut out = Vec::new();
        for (c, kind, lines) in mine {
            let explained = if all.contains(c) {
                true
            } else if exact {
                self.implies(&all, *c)?
            } else {
                let mut any = false;
                for d in &all {
                    if self.implies(&[*d], *c)? {
                        any = true;
                        break;
                    }
                }
                any
            };
            if !explained {
                out.push(Unexplained {
                    side: which,
                    constraint: show::constraint(&self.pool, *c, MAX_TEXT),
                    short: show::constraint(&self.pool, *c, SHORT_TEXT),
                    kind: *kind,
                    lines: lines.clone(),
                });
            }
        }
        Ok(out)
    }
}

/// Compare the golden and buggy weakest preconditions (solver queries limited to
/// `timeout_ms` each).
pub fn compare(
    golden: &Side,
    buggy: &Side,
    exact: bool,
    timeout_ms: Option<u64>,
) -> Result<Comparison, String> {
    let mut ck = Checker {
        pool: ExprPool::new(),
        solver: SolverChain::new(timeout_ms),
        queries: 0,
    };
    let g = ck.import_side(golden)?;
    let b = ck.import_side(buggy)?;
    let mut unexplained = ck.unexplained(Which::Buggy, &b, &g, exact)?;
    unexplained.extend(ck.unexplained(Which::Golden, &g, &b, exact)?);
    Ok(Comparison {
        unexplained,
        kept: (g.len(), b.len()),
        queries: ck.queries,
    })
}
