//! The weakest precondition of a criterion's postcondition along the backward dynamic
//! slice: the postcondition (values already over the input bytes, as seeded execution
//! keeps them, so substitution along data dependences is done) conjoined with the
//! conditions of the branches in the slice, each conjunct tagged with the source lines
//! of the slice statements that produced it.

use crate::criterion::Criterion;
use crate::slice::{backward, Follow};
use crate::{Execution, SrcLine};
use augur_engine::Value;
use augur_expr::ExprId;
use augur_ir::block_containing;
use augur_ir::{BlockId, Inst};
use std::collections::BTreeSet;

/// Where a conjunct comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The postcondition at the criterion.
    Postcondition,
    /// The condition of a branch in the slice.
    Branch,
    /// Where the two runs' computations of the observed value part (see
    /// [`crate::lockstep`]).
    Value,
    /// The output call that wrote the first differing byte, when the two outputs differ
    /// only in format (see [`crate::difference`]).
    Format,
}

impl Kind {
    /// "postcondition", "branch", "value" or "format".
    pub fn name(self) -> &'static str {
        match self {
            Kind::Postcondition => "postcondition",
            Kind::Branch => "branch",
            Kind::Value => "value",
            Kind::Format => "format",
        }
    }
}

/// One conjunct of a weakest precondition.
#[derive(Clone, Debug)]
pub struct Conjunct {
    /// The constraint over the input (width 1).
    pub expr: ExprId,
    /// Where it comes from.
    pub kind: Kind,
    /// The user's source lines that produced it.
    pub lines: BTreeSet<SrcLine>,
    /// The lines it points at most strongly: of a postcondition, where its value's
    /// computation departs from the other program's (see [`crate::align`]; empty if
    /// unknown); of a branch condition, the branch's line.
    pub focus: BTreeSet<SrcLine>,
    /// Of a branch condition: the (first) branch entry it comes from.
    pub entry: Option<u32>,
}

/// A weakest precondition along a slice.
pub struct Wp {
    /// Its conjuncts (distinct).
    pub conjuncts: Vec<Conjunct>,
    /// Number of trace entries in the slice.
    pub slice_size: usize,
}

/// The user's lines of the input-dependent entries in the data slice of `roots`, plus
/// the line of `at`.
fn lines_of(x: &Execution, at: u32, roots: &[u32]) -> BTreeSet<SrcLine> {
    let data = backward(&x.graph, roots, Follow::Data);
    let mut lines: BTreeSet<SrcLine> = x.line(at).into_iter().collect();
    for (i, _) in data.iter().enumerate().filter(|(_, d)| **d) {
        if x.trace.entries[i].sym {
            lines.extend(x.line(i as u32));
        }
    }
    lines
}

/// The condition under which the branch entry `i` went where it went, if it depends
/// on the input.
fn branch_condition(x: &mut Execution, i: u32) -> Option<ExprId> {
    let e = &x.trace.entries[i as usize];
    let next = x.trace.entries.get(i as usize + 1)?;
    let f = x.prog.func(e.func);
    let to: BlockId = block_containing(f, next.pc);
    let Some(Some(Value::Sym(c))) = e.ops.first() else {
        return None;
    };
    let c = *c;
    match &f.insts[e.pc as usize] {
        Inst::CondBr { t, f: fb, .. } if t != fb => Some(if to == *t { c } else { x.pool.not(c) }),
        Inst::Switch { cases, default, .. } => {
            let cases = cases.clone();
            let w = x.pool.width(c);
            let mut cond = x.pool.bool_const(false);
            let mut none = x.pool.bool_const(true);
            for (v, target) in cases {
                let k = x.pool.constant(v, w);
                let eq = x.pool.eq(c, k);
                if target == to {
                    cond = x.pool.bool_or(cond, eq);
                }
                let ne = x.pool.not(eq);
                none = x.pool.bool_and(none, ne);
            }
            if *default == to {
                cond = x.pool.bool_or(cond, none);
            }
            Some(cond)
        }
        _ => None,
    }
}

/// The line a branch entry `i` points at: a `switch` that went to one of its cases
/// points at that case's first line (the case label is what decided), any other branch
/// at its own line.
fn decision_line(x: &Execution, i: u32) -> Option<SrcLine> {
    let e = &x.trace.entries[i as usize];
    let f = x.prog.func(e.func);
    if let (Inst::Switch { default, .. }, Some(next)) =
        (&f.insts[e.pc as usize], x.trace.entries.get(i as usize + 1))
    {
        if block_containing(f, next.pc) != *default && next.func == e.func {
            return x.line(i + 1).or_else(|| x.line(i));
        }
    }
    x.line(i)
}

/// Add `c` to `out`, merging the lines of an equal conjunct already there.
fn add(out: &mut Vec<Conjunct>, c: Conjunct) {
    match out.iter_mut().find(|o| o.expr == c.expr) {
        Some(o) => {
            o.lines.extend(c.lines);
            o.focus.extend(c.focus);
        }
        None => out.push(c),
    }
}

/// The conditions of every branch of `x` that depends on the input (one conjunct per
/// distinct condition), sliced or not, each at its line (a branch of augur's libc
/// models at the user's call: `getopt`'s tests of an option at the call naming the
/// options).
pub fn trace_branches(x: &mut Execution) -> Vec<Conjunct> {
    let mut out = Vec::new();
    for i in 0..x.trace.entries.len() as u32 {
        if !x.trace.entries[i as usize].sym {
            continue;
        }
        if let Some(cond) = branch_condition(x, i) {
            let at: BTreeSet<SrcLine> = decision_line(x, i).into_iter().collect();
            add(
                &mut out,
                Conjunct {
                    expr: cond,
                    kind: Kind::Branch,
                    lines: at.clone(),
                    focus: at,
                    entry: Some(i),
                },
            );
        }
    }
    out
}

/// The weakest precondition of `crit`'s postcondition along its backward slice in `x`;
/// `focus` holds the lines singled out for each of the criterion's values (if known).
pub fn compute(x: &mut Execution, crit: &Criterion, focus: &[BTreeSet<SrcLine>]) -> Wp {
    let mut roots = crit.deps.clone();
    roots.extend(crit.control);
    let mut slice = backward(&x.graph, &roots, Follow::All);
    slice[crit.entry as usize] = true;
    let mut conjuncts = Vec::new();
    let post_lines = lines_of(x, crit.entry, &crit.deps);
    for (k, &v) in crit.values.iter().enumerate() {
        // The value is what it was on the run.
        let c = x.pool.eval(v, &x.end.seed_values);
        let c = x.pool.constant(c, x.pool.width(v));
        add(
            &mut conjuncts,
            Conjunct {
                expr: x.pool.eq(v, c),
                kind: Kind::Postcondition,
                lines: post_lines.clone(),
                focus: focus.get(k).cloned().unwrap_or_default(),
                entry: None,
            },
        );
    }
    if let Some(outside) = crit.outside {
        add(
            &mut conjuncts,
            Conjunct {
                expr: outside,
                kind: Kind::Postcondition,
                lines: post_lines.clone(),
                focus: BTreeSet::new(),
                entry: None,
            },
        );
    }
    for i in (0..slice.len() as u32).filter(|i| slice[*i as usize]) {
        if let Some(cond) = branch_condition(x, i) {
            let lines = lines_of(x, i, &[i]);
            add(
                &mut conjuncts,
                Conjunct {
                    expr: cond,
                    kind: Kind::Branch,
                    lines,
                    // A branch of augur's libc models is not the user's decision.
                    focus: match x.user_call_site(i) == i {
                        true => decision_line(x, i).into_iter().collect(),
                        false => BTreeSet::new(),
                    },
                    entry: Some(i),
                },
            );
        }
    }
    Wp {
        conjuncts,
        slice_size: slice.iter().filter(|s| **s).count(),
    }
}
