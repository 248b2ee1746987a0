//! Lockstep data-dependence alignment: where two runs compute a differing value the same
//! way except for a constant. From the criterion, the dynamic data dependences of both
//! runs are walked backwards in parallel (the value printed ← the load ← the store ← the
//! call's return ← the `ret` ...), pairing the defining instructions operand position by
//! operand position and following only the operands whose concrete values differ; two
//! loads of the same place (object size and offset) follow the stores that wrote it, in
//! whatever function and however long before, two loads of different places follow
//! their addresses. The walk starts from the criterion's definitions, or from the
//! conditions of a pair of branches (see [`crate::pairing`]). The
//! walk stops at the first pair whose values differ because of something that is not a
//! differing dependence: an immediate or constant operand, another operation, memory
//! nobody stored to (a global's initial value), or a structural divergence (the two
//! values are defined by different kinds of instruction; the last matching pair is
//! reported with it, as for a value computed on one side and constant on the other).

mod finding;
mod run;

use crate::compare::Unexplained;
use crate::pairing::Pairing;
use crate::Which;
use augur_ir::{Callee, Inst, Operand};
use run::{Known, Node, Run};
use rustc_hash::FxHashSet;
use std::collections::BTreeSet;
use std::mem::discriminant;

/// Pairs of definitions visited at most.
const MAX_STEPS: usize = 10_000;

/// A pair of definitions (golden, buggy) and the values they gave (if known).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pair {
    g: Node,
    b: Node,
    gv: Known,
    bv: Known,
}

/// Why two paired definitions give different values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// An immediate or constant operand differs.
    Constant,
    /// Same kind of instruction, another operation.
    Operation,
    /// A load of memory no instruction stored to (a global's or literal's initial value).
    InitialMemory,
    /// Different kinds of instruction define the two values.
    Divergence,
    /// The two values are defined at lines that are not versions of one line: a
    /// branch decided which definition reaches the use (see [`crate::versions`]).
    Control,
}

/// What one pair of definitions leads to.
#[derive(Default)]
struct Step {
    /// Pairs of dependences whose values differ.
    next: Vec<Pair>,
    /// Why the pair differs by itself, if it does.
    origin: Option<Why>,
}

/// Do two instructions perform the same operation (operands aside)?
fn same_operation(g: &Run, gi: &Inst, b: &Run, bi: &Inst) -> bool {
    use Inst::*;
    match (gi, bi) {
        (
            Bin { op, width, .. },
            Bin {
                op: o, width: w, ..
            },
        ) => (op, width) == (o, w),
        (FBin { op, kind, .. }, FBin { op: o, kind: k, .. }) => (op, kind) == (o, k),
        (ICmp { pred, .. }, ICmp { pred: p, .. }) => pred == p,
        (FCmp { pred, .. }, FCmp { pred: p, .. }) => pred == p,
        (
            Cast { op, width, .. },
            Cast {
                op: o, width: w, ..
            },
        ) => (op, width) == (o, w),
        (FpCast { op, .. }, FpCast { op: o, .. }) => op == o,
        (Gep { offset, .. }, Gep { offset: o, .. }) => offset == o,
        (ExtractValue { path, .. }, ExtractValue { path: p, .. })
        | (InsertValue { path, .. }, InsertValue { path: p, .. }) => path == p,
        (
            Call {
                callee: Callee::Direct(f),
                ..
            },
            Call {
                callee: Callee::Direct(h),
                ..
            },
        ) => g.x.prog.func(*f).name == b.x.prog.func(*h).name,
        _ => discriminant(gi) == discriminant(bi),
    }
}

/// Do two known values differ (an unknown one may)?
fn differ(a: Known, b: Known) -> bool {
    a.is_none() || b.is_none() || a.map(|v| v.0) != b.map(|v| v.0)
}

/// The walk over both runs.
struct Walk<'a> {
    g: Run<'a>,
    b: Run<'a>,
    pairing: &'a Pairing<'a>,
}

impl Walk<'_> {
    /// Are the two definitions of `p` at lines that are not versions of one line?
    fn misplaced(&self, p: &Pair) -> bool {
        let (Some(gl), Some(bl)) = (self.g.x.line(p.g.def), self.b.x.line(p.b.def)) else {
            return false;
        };
        self.pairing
            .versions
            .counterpart(&bl)
            .is_some_and(|(c, _)| c != gl)
    }

    /// The pairs of conditions of the branches that decided the golden entries `g` and
    /// the buggy entries `b` (each paired with its counterpart in the other run).
    fn deciding_conditions(&self, g: &[u32], b: &[u32]) -> Vec<Pair> {
        let golden = g
            .iter()
            .map(|&i| (Which::Golden, self.g.deciding_branch(i)));
        let buggy = b.iter().map(|&i| (Which::Buggy, self.b.deciding_branch(i)));
        golden
            .chain(buggy)
            .filter_map(|(side, br)| self.pairing.conditions(side, br?))
            .map(|(g, b)| Pair {
                g: Node { def: g, reg: None },
                b: Node { def: b, reg: None },
                gv: self.g.consumed_value(g),
                bv: self.b.consumed_value(b),
            })
            .collect()
    }

    /// The pairs of dependences of `p` whose values differ, and whether `p` differs by
    /// itself.
    fn step(&self, p: &Pair) -> Step {
        if self.misplaced(p) {
            return Step {
                origin: Some(Why::Control),
                next: self.deciding_conditions(&[p.g.def], &[p.b.def]),
            };
        }
        let (gi, bi) = (self.g.inst(p.g.def), self.b.inst(p.b.def));
        if discriminant(gi) != discriminant(bi) {
            return Step {
                origin: Some(Why::Divergence),
                ..Step::default()
            };
        }
        if !same_operation(&self.g, gi, &self.b, bi) {
            return Step {
                origin: Some(Why::Operation),
                ..Step::default()
            };
        }
        // A load of the same place follows the stores to it; loads of different
        // places part where their addresses are computed.
        if matches!(gi, Inst::Load { .. }) && self.g.place(p.g.def) == self.b.place(p.b.def) {
            return self.load(p);
        }
        let (gs, bs) = (self.g.slots(p.g), self.b.slots(p.b));
        if gs.len() != bs.len() {
            return Step {
                origin: Some(Why::Divergence),
                ..Step::default()
            };
        }
        let mut out = Step::default();
        for ((gk, gop), (bk, bop)) in gs.iter().zip(&bs) {
            let (gv, bv) = (
                self.g.operand_value(p.g.def, *gk, gop),
                self.b.operand_value(p.b.def, *bk, bop),
            );
            match (gop, bop) {
                (Operand::Reg(gr), Operand::Reg(br)) => {
                    let defs = (
                        self.g.x.graph.operands[p.g.def as usize].get(*gk),
                        self.b.x.graph.operands[p.b.def as usize].get(*bk),
                    );
                    if let (Some(Some(gd)), Some(Some(bd)), true) = (defs.0, defs.1, differ(gv, bv))
                    {
                        out.next.push(Pair {
                            g: Node {
                                def: *gd,
                                reg: Some(*gr),
                            },
                            b: Node {
                                def: *bd,
                                reg: Some(*br),
                            },
                            gv: gv.or(p.gv.filter(|_| gs.len() == 1)),
                            bv: bv.or(p.bv.filter(|_| bs.len() == 1)),
                        });
                    }
                }
                // A computed value on one side, a constant on the other.
                (Operand::Reg(_), _) | (_, Operand::Reg(_)) => out.origin = Some(Why::Divergence),
                _ if self.g.constant(gop) != self.b.constant(bop) => {
                    out.origin = Some(Why::Constant)
                }
                _ => {}
            }
        }
        out
    }

    /// A pair of loads: the stores that defined the bytes read, paired in order; memory
    /// no instruction stored to on both sides is where the values come from. When one
    /// side stored where the other did not (or more often), the branches that decided
    /// the stores are followed into their conditions.
    fn load(&self, p: &Pair) -> Step {
        let (gm, bm) = (self.g.memory_defs(p.g.def), self.b.memory_defs(p.b.def));
        if gm.len() != bm.len() {
            return Step {
                origin: Some(Why::Divergence),
                next: self.deciding_conditions(&gm, &bm),
            };
        }
        let origin = (gm.is_empty() && bm.is_empty()).then_some(Why::InitialMemory);
        let next = gm
            .iter()
            .zip(&bm)
            .map(|(&gd, &bd)| Pair {
                g: Node { def: gd, reg: None },
                b: Node { def: bd, reg: None },
                gv: self.g.stored_value(gd),
                bv: self.b.stored_value(bd),
            })
            .filter(|q| origin.is_none() && differ(q.gv, q.bv))
            .collect();
        Step { next, origin }
    }
}

/// One place where the computations part.
struct Origin {
    pair: Pair,
    why: Why,
    /// The pair it was reached from.
    parent: Option<Pair>,
}

/// Where the values defined by `golden` and `buggy` (the criterion's definitions in
/// each run, paired in order) part, as unexplained findings of the buggy program (kind
/// [`Kind::Value`]), each singling out the lines of the two instructions (and, for a
/// structural divergence, of the last pair that still matched).
pub fn localise(pairing: &Pairing, gdeps: &[u32], bdeps: &[u32]) -> Vec<Unexplained> {
    let (golden, buggy) = (pairing.golden, pairing.buggy);
    let w = Walk {
        g: Run { x: golden },
        b: Run { x: buggy },
        pairing,
    };
    let mut stack: Vec<(Pair, Option<Pair>)> = gdeps
        .iter()
        .zip(bdeps)
        .map(|(&g, &b)| {
            let node = |def| Node { def, reg: None };
            let pair = Pair {
                g: node(g),
                b: node(b),
                gv: w.g.consumed_value(g),
                bv: w.b.consumed_value(b),
            };
            (pair, None)
        })
        .collect();
    let mut seen = FxHashSet::default();
    let mut walked = FxHashSet::default();
    let mut origins = Vec::new();
    while let Some((pair, parent)) = stack.pop() {
        if seen.len() >= MAX_STEPS || !seen.insert(pair) {
            continue;
        }
        walked.insert((pair.g.def, pair.b.def));
        let step = w.step(&pair);
        if let Some(why) = step.origin {
            origins.push(Origin { pair, why, parent });
        }
        stack.extend(step.next.into_iter().map(|n| (n, Some(pair))));
    }
    let mut context = BTreeSet::new();
    for (g, b) in &walked {
        context.extend(golden.line(*g));
        context.extend(buggy.line(*b));
    }
    let mut out: Vec<Unexplained> = Vec::new();
    for o in origins {
        let u = finding::finding(golden, buggy, &o, &context);
        if !u.lines.is_empty() && !out.iter().any(|v| v.lines == u.lines) {
            out.push(u);
        }
    }
    out
}
