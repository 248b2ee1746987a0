//! One run as the lockstep walk reads it: the instruction of an entry, the concrete
//! values of its operands, the operands that carry the value it defines, the stores its
//! bytes come from, constants comparable across programs.

use crate::Execution;
use augur_engine::Value;
use augur_ir::{AddrBase, Callee, Const, Inst, Operand, Program, Reg};

/// A value of one run: the entry defining it and, when that entry is a jump assigning
/// phi nodes, the register read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Node {
    /// The defining entry.
    pub def: u32,
    /// The register read, when a jump assigning phi nodes defines it.
    pub reg: Option<Reg>,
}

/// A concrete value and its width in bits.
pub(super) type Known = Option<(u128, u32)>;

/// One run, as the walk reads it.
pub(super) struct Run<'a> {
    pub x: &'a Execution,
}

impl Run<'_> {
    pub(super) fn inst(&self, i: u32) -> &Inst {
        let e = &self.x.trace.entries[i as usize];
        &self.x.prog.func(e.func).insts[e.pc as usize]
    }

    pub(super) fn known(&self, v: &Value) -> Known {
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
    pub(super) fn operand_value(&self, i: u32, k: usize, op: &Operand) -> Known {
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

    /// The value defined by entry `def`, as the first entry reading it saw it.
    pub(super) fn consumed_value(&self, def: u32) -> Known {
        let g = &self.x.graph;
        (def as usize + 1..g.operands.len()).find_map(|i| {
            let k = g.operands[i].iter().position(|d| *d == Some(def))?;
            self.known(self.x.trace.entries[i].ops.get(k)?.as_ref()?)
        })
    }

    /// The operand slots of `n`'s definition that carry its value: (index into the
    /// graph's operand definitions, the operand).
    pub(super) fn slots(&self, n: Node) -> Vec<(usize, Operand)> {
        let inst = self.inst(n.def);
        let ops: Vec<Operand> = inst.operands().into_iter().cloned().collect();
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
        let from = augur_ir::block_containing(f, e.pc);
        let to = augur_ir::block_containing(f, next.pc);
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
    pub(super) fn memory_defs(&self, i: u32) -> Vec<u32> {
        let g = &self.x.graph;
        let regs: Vec<u32> = g.operands[i as usize].iter().flatten().copied().collect();
        g.data[i as usize]
            .iter()
            .copied()
            .filter(|d| !regs.contains(d))
            .collect()
    }

    /// Where memory access `i` is: the size of the object it falls in and its offset
    /// there (comparable across programs, unlike addresses); None if unknown.
    pub(super) fn place(&self, i: u32) -> Option<(u64, u64)> {
        let (addr, _) = self.x.trace.entries[i as usize].mem.as_ref()?;
        let addr = self.known(addr)?.0 as u64;
        let obj = self.x.end.mem.find(addr)?;
        Some((obj.size, addr - obj.base))
    }

    /// The conditional branch entry `i` is control dependent on, if it is one.
    pub(super) fn deciding_branch(&self, i: u32) -> Option<u32> {
        let c = self.x.graph.control[i as usize]?;
        match self.inst(c) {
            Inst::CondBr { .. } | Inst::Switch { .. } => Some(c),
            _ => None,
        }
    }

    /// The value a memory definition stored, if it is a store.
    pub(super) fn stored_value(&self, d: u32) -> Known {
        match self.inst(d) {
            Inst::Store { val, .. } => self.operand_value(d, 1, val),
            _ => None,
        }
    }

    /// A constant operand, comparable across programs (addresses by the name of what
    /// they point to).
    pub(super) fn constant(&self, op: &Operand) -> Option<(String, i64)> {
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
    pub(super) fn global_read(&self, i: u32) -> Option<(String, Known)> {
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
