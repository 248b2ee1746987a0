//! Comparing the two weakest preconditions: drop tautologies (one solver query each),
//! then keep the conjuncts of each side that no branch conjunct of the other side implies
//! (the paper's pairwise approximation), or, exactly, that the other side's branch
//! conjuncts together do not imply. The other side's postcondition is no premise: it
//! says that side's output has the value it showed, not the value shown here.

use crate::import::Importer;
use crate::rank::weight;
use crate::reads::Reads;
use crate::show;
use crate::wp::{Conjunct, Kind};
use crate::{SrcLine, Which};
use augur_expr::{ExprId, ExprPool};
use augur_solver::{SolverChain, SolverConfig};
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
    /// The user's source lines pointing at it: where its value departs from the other
    /// program's when that is known, else every line of its slice.
    pub lines: BTreeSet<SrcLine>,
    /// Every user's source line of its slice.
    pub context: BTreeSet<SrcLine>,
    /// How strongly it points at its `lines` (see [`crate::rank::weight`]).
    pub weight: u32,
    /// Of a branch condition: the branch entry (in its side's run) it comes from.
    pub entry: Option<u32>,
}

/// What the comparison found.
pub struct Comparison {
    /// Unexplained conjuncts, buggy side first.
    pub unexplained: Vec<Unexplained>,
    /// Conjuncts left after dropping tautologies: (golden, buggy).
    pub kept: (usize, usize),
    /// Solver queries made.
    pub queries: u64,
    /// Queries the solver could not decide in time (counted as "not implied").
    pub undecided: u64,
}

/// A non-tautological conjunct in the common pool.
struct Kept {
    expr: ExprId,
    /// Number of expression nodes (small premises are tried first).
    size: usize,
    kind: Kind,
    lines: BTreeSet<SrcLine>,
    focus: BTreeSet<SrcLine>,
    entry: Option<u32>,
    reads: Reads,
}

/// The solver and the common pool of a comparison, counting queries.
struct Checker {
    pool: ExprPool,
    solver: SolverChain,
    queries: u64,
    undecided: u64,
}

impl Checker {
    /// Do `premises` imply `c`? A query the solver cannot decide answers no: the
    /// conjunct stays in the report rather than being explained away.
    fn implies(&mut self, premises: &[ExprId], c: ExprId) -> bool {
        self.queries += 1;
        match self.solver.must_be_true(&mut self.pool, premises, c) {
            Ok(yes) => yes,
            Err(e) => {
                tracing::debug!("explain: implication query undecided ({e})");
                self.undecided += 1;
                false
            }
        }
    }

    /// The non-tautological conjuncts of a side, imported into the common pool.
    fn import_side(&mut self, side: &Side) -> Vec<Kept> {
        let mut imp = Importer::new(side.pool);
        let mut kept = Vec::new();
        for c in side.conjuncts {
            let e = imp.import(&mut self.pool, c.expr);
            let tautology = match self.pool.as_const(e) {
                Some(v) => v != 0,
                None => self.implies(&[], e),
            };
            if !tautology {
                kept.push(Kept {
                    expr: e,
                    size: self.pool.post_order(&[e], |_| false).len(),
                    kind: c.kind,
                    lines: c.lines.clone(),
                    focus: c.focus.clone(),
                    entry: c.entry,
                    reads: Reads::of(&self.pool, e),
                });
            }
        }
        kept
    }

    /// The conjuncts of `mine` that `theirs` does not explain. Pairwise, only
    /// conjuncts reading a common input byte can imply one another (see [`Reads`]).
    fn unexplained(
        &mut self,
        which: Which,
        mine: &[Kept],
        theirs: &[Kept],
        exact: bool,
    ) -> Vec<Unexplained> {
        // Only path conditions explain: the other side's postcondition states that its
        // output has the value it showed, which differs from this side's by
        // construction; when it pins the input it would imply everything here.
        let premises: Vec<&Kept> = theirs.iter().filter(|t| t.kind == Kind::Branch).collect();
        let all: Vec<ExprId> = premises.iter().map(|t| t.expr).collect();
        let mut by_size = premises;
        by_size.sort_by_key(|k| k.size);
        let mut out = Vec::new();
        for c in mine {
            let explained = theirs.iter().any(|t| t.expr == c.expr)
                || if exact {
                    self.implies(&all, c.expr)
                } else {
                    by_size
                        .iter()
                        .filter(|d| d.reads.overlaps(&c.reads))
                        .any(|d| self.implies(&[d.expr], c.expr))
                };
            if !explained {
                out.push(Unexplained {
                    side: which,
                    constraint: show::constraint(&self.pool, c.expr, MAX_TEXT),
                    short: show::constraint(&self.pool, c.expr, SHORT_TEXT),
                    kind: c.kind,
                    lines: if c.focus.is_empty() {
                        c.lines.clone()
                    } else {
                        c.focus.clone()
                    },
                    context: c.lines.clone(),
                    weight: match (c.focus.is_empty(), c.kind) {
                        (true, _) => weight::SLICE,
                        (false, Kind::Branch) => weight::BRANCH,
                        (false, _) => weight::FOCUS,
                    },
                    entry: c.entry,
                });
            }
        }
        out
    }
}

/// Compare the golden and buggy weakest preconditions (solver queries through the chain
/// `solver` describes).
pub fn compare(golden: &Side, buggy: &Side, exact: bool, solver: &SolverConfig) -> Comparison {
    let mut ck = Checker {
        pool: ExprPool::new(),
        solver: SolverChain::new(solver.clone()),
        queries: 0,
        undecided: 0,
    };
    let g = ck.import_side(golden);
    let b = ck.import_side(buggy);
    let mut unexplained = ck.unexplained(Which::Buggy, &b, &g, exact);
    unexplained.extend(ck.unexplained(Which::Golden, &g, &b, exact));
    Comparison {
        unexplained,
        kept: (g.len(), b.len()),
        queries: ck.queries,
        undecided: ck.undecided,
    }
}
