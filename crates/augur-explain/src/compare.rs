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

/// The largest buggy test (in expression nodes) asked whether a golden case is stricter:
/// a test of input characters is small, and the many large conditions of augur's libc
/// models (floating-point conversions) would each cost a solver query of seconds.
const LOOSER_SIZE: usize = 64;

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
    /// Of a golden branch condition that has no counterpart in the buggy program: the
    /// buggy lines that test the same input bytes only more loosely (conditions it
    /// implies), where the golden program's case is missing. Empty otherwise.
    pub missing_at: BTreeSet<SrcLine>,
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
        let all = self.import(side.pool, side.conjuncts);
        all.into_iter()
            .filter(|k| match self.pool.as_const(k.expr) {
                Some(v) => v == 0,
                None => !self.implies(&[], k.expr),
            })
            .collect()
    }

    /// `conjuncts` of `pool`, imported into the common pool.
    fn import(&mut self, pool: &ExprPool, conjuncts: &[Conjunct]) -> Vec<Kept> {
        let mut imp = Importer::new(pool);
        conjuncts
            .iter()
            .map(|c| {
                let e = imp.import(&mut self.pool, c.expr);
                Kept {
                    expr: e,
                    size: self.pool.post_order(&[e], |_| false).len(),
                    kind: c.kind,
                    lines: c.lines.clone(),
                    focus: c.focus.clone(),
                    entry: c.entry,
                    reads: Reads::of(&self.pool, e),
                }
            })
            .collect()
    }

    /// The conjuncts of `mine` that `theirs` does not explain. Pairwise, only
    /// conjuncts reading a common input byte can imply one another (see [`Reads`]).
    fn unexplained(
        &mut self,
        which: Which,
        mine: &[Kept],
        theirs: &[Kept],
        (exact, their_branches): (bool, &[Kept]),
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
                let missing_at = match (which, c.kind) {
                    (Which::Golden, Kind::Branch) => self.looser(c, their_branches),
                    _ => BTreeSet::new(),
                };
                let (lines, weight) = match (missing_at.is_empty(), c.focus.is_empty(), c.kind) {
                    // A branch of augur's libc models (no focus) is at its call.
                    (false, true, _) => (
                        c.lines.union(&missing_at).cloned().collect(),
                        weight::MISSING,
                    ),
                    (false, false, _) => (
                        c.focus.union(&missing_at).cloned().collect(),
                        weight::MISSING,
                    ),
                    (true, true, _) => (c.lines.clone(), weight::SLICE),
                    (true, false, Kind::Branch) => (c.focus.clone(), weight::BRANCH),
                    (true, false, _) => (c.focus.clone(), weight::FOCUS),
                };
                out.push(Unexplained {
                    side: which,
                    constraint: show::constraint(&self.pool, c.expr, MAX_TEXT),
                    short: show::constraint(&self.pool, c.expr, SHORT_TEXT),
                    kind: c.kind,
                    lines,
                    context: c.lines.clone(),
                    weight,
                    entry: c.entry,
                    missing_at,
                });
            }
        }
        out
    }
}

impl Checker {
    /// The lines of the branch conditions of `theirs` (the buggy program's) that read an
    /// input byte `c` reads and that `c` implies without being `c`: there the buggy
    /// program tests those bytes more loosely than the golden program's `c`, which thus
    /// has no counterpart (`\t` among the escapes where only `\n` is decoded: the
    /// golden `s[1] == 't'` implies the buggy `s[1] != 'n'`). Tests of where a string
    /// ends do not count.
    fn looser(&mut self, c: &Kept, theirs: &[Kept]) -> BTreeSet<SrcLine> {
        let mut at = BTreeSet::new();
        for t in theirs {
            if t.kind == Kind::Branch
                && t.size <= LOOSER_SIZE
                && t.expr != c.expr
                && !t.focus.is_empty()
                && t.reads.overlaps(&c.reads)
                && self.implies(&[c.expr], t.expr)
                && !self.end_of_string_test(t)
            {
                at.extend(t.focus.iter().cloned());
            }
        }
        at
    }

    /// Does any string whose bytes `t` reads are not its end satisfy `t` (`s[1] != 0`,
    /// a loop over a string asking where it ends)? Such a test says nothing about which
    /// characters the program handles.
    fn end_of_string_test(&mut self, t: &Kept) -> bool {
        let bytes = t.reads.bytes(&mut self.pool);
        let not_end: Vec<ExprId> = bytes
            .into_iter()
            .map(|b| {
                let zero = self.pool.constant(0, self.pool.width(b));
                let end = self.pool.eq(b, zero);
                self.pool.not(end)
            })
            .collect();
        !not_end.is_empty() && self.implies(&not_end, t.expr)
    }
}

/// Compare the golden and buggy weakest preconditions (solver queries through the chain
/// `solver` describes).
/// `buggy_branches` are the conditions of every branch of the buggy run that depends on
/// the input, sliced or not: where it tests a golden condition's bytes more loosely.
pub fn compare(
    golden: &Side,
    buggy: &Side,
    buggy_branches: &[Conjunct],
    exact: bool,
    solver: &SolverConfig,
) -> Comparison {
    let mut ck = Checker {
        pool: ExprPool::new(),
        solver: SolverChain::new(solver.clone()),
        queries: 0,
        undecided: 0,
    };
    let g = ck.import_side(golden);
    let b = ck.import_side(buggy);
    let branches = ck.import(buggy.pool, buggy_branches);
    let mut unexplained = ck.unexplained(Which::Buggy, &b, &g, (exact, &[]));
    unexplained.extend(ck.unexplained(Which::Golden, &g, &b, (exact, &branches)));
    Comparison {
        unexplained,
        kept: (g.len(), b.len()),
        queries: ck.queries,
        undecided: ck.undecided,
    }
}
