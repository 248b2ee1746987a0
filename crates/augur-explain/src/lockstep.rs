//! Lockstep data-dependence alignment: where two runs compute a differing value the same
//! way except for a constant. From the criterion, the dynamic data dependences of both
//! runs are walked backwards in parallel (the value printed ← the load ← the store ← the
//! call's return ← the `ret` ...), pairing the defining instructions operand position by
//! operand position and following only the operands whose concrete values differ. The
//! walk stops at the first pair whose values differ because of something that is not a
//! differing dependence: an immediate or constant operand, another operation, memory
//! nobody stored to (a global's initial value), or a structural divergence (the two
//! values are defined by different kinds of instruction; the last matching pair is
//! reported with it, as for a value computed on one side and constant on the other).

use crate::compare::Unexplained;
use crate::uses::operands;
use crate::wp::Kind;
use crate::{Execution, SrcLine, Which};
use augur_engine::Value;
use augur_ir::{AddrBase, Callee, Const, Inst, Operand, Program, Reg};
use rustc_hash::FxHashSet;
use std::collections::BTreeSet;
use std::mem::discriminant;

/// Pairs of definitions visited at most.
const MAX_STEPS: usize = 10_000;

/// A value of one run: the entry defining it and, when that entry is a jump assigning
/// phi nodes, the register read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    def: u32,
    reg: Option<Reg>,
}

/// A concrete value and its width in bits.
type Known = Option<(u128, u32)>;

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
}

/// What one pair of definitions leads to.
#[derive(Default)]
struct Step {
    /// Pairs of dependences whose values differ.
    next: Vec<Pair>,
    /// Why the pair differs by itself, if it does.
    origin: Option<Why>,
}

/// One run, as the walk reads it.
struct Run<'a> {
    x: &'a Execution,
}

impl Run<'_> {
    fn inst(&self, i: u32) -> &Inst {
        let e = &self.x.trace.entries[i as usize];
        &self.x.prog.func(e.func).insts[e.pc as usize]
    }

    fn known(&self, v: &Value) -> Known {
        match v {
            Value::Con { bits, width } => Some((*bits, *width)),
            Value::Sym(e) => Some((
                self.x.pool.eval(*e, &self.x.end.seed_values),
                self.x.pool.width(*e),
            )),
            Value::Agg(_) | Value::Wide { .. } => None,
        }
    }

    /// The value of operand `k` of entry `i` (`op` is the operand).
    fn operand_value(&self, i: u32, k: usize, op: &Operand) -> Known {
        match (self.x.trace.entries[i as usize].ops.get(k), op) {
            (Some(Some(v)), _) => self.known(v),
            (_, Operand::Imm { width, value }) => Some((*value, *width)),
            (_, Operand::Const(c)) => match **c {
                Const::Int { width, value } => Some((value, width)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The operand slots of `n`'s definition that carry its value: (index into the
    /// graph's operand definitions, the operand).
    fn slots(&self, n: Node) -> Vec<(usize, Operand)> {
        let inst = self.inst(n.def);
        let ops: Vec<Operand> = operands(inst).into_iter().cloned().collect();
        match inst {
            Inst::Store { val, .. } => vec![(1, val.clone())],
            Inst::Ret { val } => val.iter().map(|v| (0, v.clone())).collect(),
            Inst::Br { .. } | Inst::CondBr { .. } | Inst::Switch { .. } => {
                self.phi_slot(n, ops.len()).into_iter().collect()
            }
            Inst::Call {
                callee: Callee::Indirect(_),
                ..
            } => ops.into_iter().enumerate().skip(1).collect(),
            _ => ops.into_iter().enumerate().collect(),
        }
    }

    /// For a jump defining phi `n.reg`: that phi's slot (after the `base` operands) and
    /// its incoming operand.
    fn phi_slot(&self, n: Node, base: usize) -> Option<(usize, Operand)> {
        let e = &self.x.trace.entries[n.def as usize];
        let next = self.x.trace.entries.get(n.def as usize + 1)?;
        let f = self.x.prog.func(e.func);
        let from = augur_ir::cfg::block_containing(f, e.pc);
        let to = augur_ir::cfg::block_containing(f, next.pc);
        let start = f.blocks[to.0 as usize].start as usize;
        f.insts[start..]
            .iter()
            .map_while(|p| match p {
                Inst::Phi { dst, incoming } => Some((dst, incoming)),
                _ => None,
            })
            .enumerate()
            .find(|(_, (dst, _))| Some(**dst) == n.reg)
            .and_then(|(p, (_, incoming))| {
                let op = incoming.iter().find(|(b, _)| *b == from)?.1.clone();
                Some((base + p, op))
            })
    }

    /// The entries that defined the bytes load `i` read.
    fn memory_defs(&self, i: u32) -> Vec<u32> {
        let g = &self.x.graph;
        let regs: Vec<u32> = g.operands[i as usize].iter().flatten().copied().collect();
        g.data[i as usize]
            .iter()
            .copied()
            .filter(|d| !regs.contains(d))
            .collect()
    }

    /// The value a memory definition stored, if it is a store.
    fn stored_value(&self, d: u32) -> Known {
        match self.inst(d) {
            Inst::Store { val, .. } => self.operand_value(d, 1, val),
            _ => None,
        }
    }

    /// A constant operand, comparable across programs (addresses by the name of what
    /// they point to).
    fn constant(&self, op: &Operand) -> Option<(String, i64)> {
        match op {
            Operand::Reg(_) => None,
            Operand::Imm { value, .. } => Some((String::new(), *value as i64)),
            Operand::Const(c) => Some(match &**c {
                Const::Int { value, .. } => (String::new(), *value as i64),
                Const::Addr { base, offset } => (self.name(*base), *offset),
                // Aggregates: compared by their values where they are read.
                Const::Agg(_) | Const::Zero(_) | Const::Undef(_) => ("{}".into(), 0),
            }),
        }
    }

    /// The global load `i` reads at a constant address, and its initial value when that
    /// is an integer read whole.
    fn global_read(&self, i: u32) -> Option<(String, Known)> {
        let Inst::Load {
            addr: Operand::Const(c),
            ..
        } = self.inst(i)
        else {
            return None;
        };
        let Const::Addr {
            base: AddrBase::Global(g),
            offset,
        } = **c
        else {
            return None;
        };
        let global = &self.x.prog.globals[g.0 as usize];
        let init = match (&global.init, offset) {
            (Some(Const::Int { width, value }), 0) => Some((*value, *width)),
            _ => None,
        };
        Some((global.name.clone(), init))
    }

    fn name(&self, base: AddrBase) -> String {
        let p: &Program = &self.x.prog;
        match base {
            AddrBase::Global(g) => p.globals[g.0 as usize].name.clone(),
            AddrBase::Func(f) => p.func(f).name.clone(),
        }
    }
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
}

impl Walk<'_> {
    /// The pairs of dependences of `p` whose values differ, and whether `p` differs by
    /// itself.
    fn step(&self, p: &Pair) -> Step {
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
        if let Inst::Load { .. } = gi {
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
    /// no instruction stored to on both sides is where the values come from.
    fn load(&self, p: &Pair) -> Step {
        let (gm, bm) = (self.g.memory_defs(p.g.def), self.b.memory_defs(p.b.def));
        let origin = match (gm.is_empty(), bm.is_empty(), gm.len() == bm.len()) {
            (true, true, _) => Some(Why::InitialMemory),
            (_, _, false) => Some(Why::Divergence),
            _ => None,
        };
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

/// A value for people: signed decimal at its width.
fn show(v: Known) -> String {
    match v {
        Some((bits, width)) if width > 0 && width <= 128 => {
            augur_expr::bits::to_signed(bits, width).to_string()
        }
        _ => "?".into(),
    }
}

/// Where the values defined by `golden` and `buggy` (the criterion's definitions in
/// each run, paired in order) part, as unexplained findings of the buggy program (kind
/// [`Kind::Value`]), each singling out the lines of the two instructions (and, for a
/// structural divergence, of the last pair that still matched).
pub fn localise(
    golden: &Execution,
    gdeps: &[u32],
    buggy: &Execution,
    bdeps: &[u32],
) -> Vec<Unexplained> {
    let w = Walk {
        g: Run { x: golden },
        b: Run { x: buggy },
    };
    let mut stack: Vec<(Pair, Option<Pair>)> = gdeps
        .iter()
        .zip(bdeps)
        .map(|(&g, &b)| {
            let node = |def| Node { def, reg: None };
            let pair = Pair {
                g: node(g),
                b: node(b),
                gv: None,
                bv: None,
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
        let u = finding(golden, buggy, &o, &context);
        if !u.lines.is_empty() && !out.iter().any(|v| v.lines == u.lines) {
            out.push(u);
        }
    }
    out
}

/// The finding of one origin.
fn finding(
    golden: &Execution,
    buggy: &Execution,
    o: &Origin,
    context: &BTreeSet<SrcLine>,
) -> Unexplained {
    let (g, b) = (o.pair.g.def, o.pair.b.def);
    let (gr, br) = (Run { x: golden }, Run { x: buggy });
    let global = match o.why {
        Why::InitialMemory => gr.global_read(g).zip(br.global_read(b)),
        _ => None,
    };
    let (gv, bv) = match &global {
        Some(((_, gi), (_, bi))) => (o.pair.gv.or(*gi), o.pair.bv.or(*bi)),
        None => (o.pair.gv, o.pair.bv),
    };
    let mut lines: BTreeSet<SrcLine> = buggy.line(b).into_iter().collect();
    lines.extend(golden.line(g));
    let value = format!(
        "value at {} is {}, {} is {}",
        buggy.line_text(b),
        show(bv),
        golden.line_text(g),
        show(gv)
    );
    let constraint = match o.why {
        Why::Constant => format!("{value} (another constant)"),
        Why::Operation => format!("{value} (another operation)"),
        Why::InitialMemory => match global {
            Some(((gn, _), (bn, _))) if gn == bn => {
                format!("{value} (read from global `{bn}`, initialised differently)")
            }
            _ => format!("{value} (read from memory the programs initialise differently)"),
        },
        Why::Divergence => {
            let last = o.parent.map(|p| {
                lines.extend(buggy.line(p.b.def));
                lines.extend(golden.line(p.g.def));
                format!(
                    "; last matching step: {} / {}",
                    buggy.line_text(p.b.def),
                    golden.line_text(p.g.def)
                )
            });
            format!("{value} (computed differently{})", last.unwrap_or_default())
        }
    };
    Unexplained {
        side: Which::Buggy,
        short: constraint.clone(),
        constraint,
        kind: Kind::Value,
        context: context.union(&lines).cloned().collect(),
        lines,
    }
}
