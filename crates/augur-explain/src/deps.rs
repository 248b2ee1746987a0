//! The dynamic dependence graph of a trace: for every executed instruction, the
//! instructions whose results it read (through registers, memory bytes, call arguments,
//! returned values, phi nodes) and the branch instance it is control dependent on
//! (from the static control-dependence graph; the call instance for code that runs
//! whenever its function does).
//!
//! Copies that only move bytes (`llvm.memcpy`/`memmove`, variadic arguments) are
//! transparent: a copied byte keeps the instruction that defined it.

use crate::trace::{Entry, Trace};
use augur_engine::Value;
use augur_expr::{Assignment, ExprPool};
use augur_ir::{block_containing, ControlDeps};
use augur_ir::{BlockId, FuncId, Inst, Operand, Program};
use rustc_hash::FxHashMap;

/// Where one byte of standard output came from.
#[derive(Clone, Copy, Debug)]
pub struct OutByte {
    /// The entry that wrote it (the `augur_sys_write` call).
    pub writer: u32,
    /// The entry that defined the byte in memory (None: an input byte or a constant
    /// laid out by the environment).
    pub def: Option<u32>,
}

/// A set of memory bytes whose definitions are wanted at some point of the trace.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The entry before which the definitions are taken.
    pub entry: u32,
    /// First byte.
    pub addr: u64,
    /// Number of bytes.
    pub size: u64,
}

/// The dynamic dependence graph.
pub struct Graph {
    /// Per entry: the entries whose values it read.
    pub data: Vec<Vec<u32>>,
    /// Per entry: the entry it is dynamically control dependent on.
    pub control: Vec<Option<u32>>,
    /// Per byte of standard output: its writer and definition.
    pub output: Vec<OutByte>,
    /// Per probe: the definitions of its bytes.
    pub probes: Vec<Vec<u32>>,
    /// Per entry: the entry defining each register operand (in [`operands`] order; None
    /// for an immediate or an undefined register), for a jump followed by the incoming
    /// value of each phi node of the block it enters (in the phis' order).
    pub operands: Vec<Vec<Option<u32>>>,
}

/// Builds a [`Graph`] in one forward pass over the trace.
struct Builder<'a> {
    prog: &'a Program,
    pool: &'a ExprPool,
    seed: &'a Assignment,
    trace: &'a Trace,
    cds: FxHashMap<FuncId, ControlDeps>,
    regs: FxHashMap<(u32, u32), u32>,
    mem: FxHashMap<u64, u32>,
    last_term: FxHashMap<(u32, BlockId), u32>,
    caller: FxHashMap<u32, u32>,
    graph: Graph,
}

/// Where variadic argument values are in the variadic-argument area, as (offset, size):
/// the x86-64 overflow-area layout the executor builds, 8-byte slots, 16-byte (16-aligned)
/// slots for values wider than 64 bits.
pub fn vararg_slots(pool: &ExprPool, values: &[Value]) -> Vec<(u64, u64)> {
    let mut offset = 0u64;
    values
        .iter()
        .map(|v| {
            let width = match v {
                Value::Con { width, .. } | Value::Wide { width, .. } => *width,
                Value::Sym(e) => pool.width(*e),
                Value::Agg(_) => 64,
            };
            let slot = if width > 64 { 16 } else { 8 };
            offset = offset.next_multiple_of(slot);
            let at = offset;
            offset += slot;
            (at, slot)
        })
        .collect()
}

/// The concrete value of `v` on the recorded path (aggregates: 0).
pub(crate) fn concrete(pool: &ExprPool, seed: &Assignment, v: &Value) -> u128 {
    match v {
        Value::Con { bits, .. } => *bits,
        Value::Sym(e) => pool.eval(*e, seed),
        Value::Agg(_) | Value::Wide { .. } => 0,
    }
}

impl Builder<'_> {
    fn block(&self, e: &Entry) -> BlockId {
        block_containing(self.prog.func(e.func), e.pc)
    }

    fn value(&self, v: &Value) -> u64 {
        concrete(self.pool, self.seed, v) as u64
    }

    fn reg_def(&self, act: u32, op: &Operand) -> Option<u32> {
        match op {
            Operand::Reg(r) => self.regs.get(&(act, r.0)).copied(),
            _ => None,
        }
    }

    fn control_parent(&mut self, e: &Entry) -> Option<u32> {
        let b = self.block(e);
        let act = e.act;
        let prog = self.prog;
        let cd = self
            .cds
            .entry(e.func)
            .or_insert_with(|| ControlDeps::compute(prog.func(e.func)));
        cd.of(b)
            .iter()
            .filter_map(|a| self.last_term.get(&(act, *a)).copied())
            .max()
            .or_else(|| self.caller.get(&act).copied())
    }

    fn mem_defs(&self, addr: u64, size: u64) -> Vec<u32> {
        (0..size)
            .filter_map(|k| self.mem.get(&addr.wrapping_add(k)).copied())
            .collect()
    }

    /// Move the definitions of `len` bytes from `src` to `dst` (a copy keeps them).
    fn copy_bytes(&mut self, dst: u64, src: u64, len: u64) {
        let defs: Vec<Option<u32>> = (0..len)
            .map(|k| self.mem.get(&src.wrapping_add(k)).copied())
            .collect();
        for (k, d) in defs.into_iter().enumerate() {
            let a = dst.wrapping_add(k as u64);
            match d {
                Some(d) => self.mem.insert(a, d),
                None => self.mem.remove(&a),
            };
        }
    }

    fn define_bytes(&mut self, addr: u64, size: u64, i: u32) {
        for k in 0..size {
            self.mem.insert(addr.wrapping_add(k), i);
        }
    }

    /// The effects on memory and outputs of calls to the functions that matter.
    fn special_call(&mut self, i: u32, name: &str, args: &[Value]) {
        let arg = |k: usize| args.get(k).map(|v| self.value(v)).unwrap_or(0);
        let intrinsic = name.strip_prefix("llvm.").unwrap_or("");
        if intrinsic.starts_with("memcpy") || intrinsic.starts_with("memmove") {
            self.copy_bytes(arg(0), arg(1), arg(2));
        } else if intrinsic.starts_with("memset") {
            self.define_bytes(arg(0), arg(2), i);
        } else if name == "augur_sys_write" && arg(0) == 1 {
            let (buf, n) = (arg(1), arg(2));
            for k in 0..n {
                let def = self.mem.get(&buf.wrapping_add(k)).copied();
                self.graph.output.push(OutByte { writer: i, def });
            }
        }
    }

    /// Entering a function body from call entry `i`: parameters and variadic arguments
    /// are defined by the arguments' definitions.
    fn enter(&mut self, i: u32, call: &Entry, callee: &Entry) {
        let Inst::Call { args, .. } = &self.prog.func(call.func).insts[call.pc as usize] else {
            return;
        };
        self.caller.insert(callee.act, i);
        let f = self.prog.func(callee.func);
        for ((r, _), op) in f.params.iter().zip(args) {
            match self.reg_def(call.act, op) {
                Some(d) => self.regs.insert((callee.act, r.0), d),
                None => self.regs.remove(&(callee.act, r.0)),
            };
        }
        let Some(base) = self.trace.varargs.get(&callee.act).copied() else {
            return;
        };
        let values = call.call.as_ref().map(|c| c.1.as_slice()).unwrap_or(&[]);
        let variadic = values.get(f.params.len()..).unwrap_or(&[]);
        let slots = vararg_slots(self.pool, variadic);
        for (op, (offset, size)) in args.iter().skip(f.params.len()).zip(slots) {
            let def = self.reg_def(call.act, op);
            for k in 0..size {
                let a = base + offset + k;
                match def {
                    Some(d) => self.mem.insert(a, d),
                    None => self.mem.remove(&a),
                };
            }
        }
    }

    fn step(&mut self, i: u32, probes: &[Probe]) {
        let trace = self.trace;
        let e = &trace.entries[i as usize];
        for (k, p) in probes.iter().enumerate() {
            if p.entry == i {
                self.graph.probes[k] = self.mem_defs(p.addr, p.size);
            }
        }
        let control = self.control_parent(e);
        self.graph.control.push(control);
        let prog = self.prog;
        let inst = &prog.func(e.func).insts[e.pc as usize];
        let mut defs: Vec<Option<u32>> = inst
            .operands()
            .into_iter()
            .map(|op| self.reg_def(e.act, op))
            .collect();
        let mut data: Vec<u32> = defs.iter().flatten().copied().collect();
        let next = trace.entries.get(i as usize + 1);
        match inst {
            Inst::Load { dst, .. } => {
                if let Some((a, size)) = &e.mem {
                    data.extend(self.mem_defs(self.value(a), *size));
                }
                self.regs.insert((e.act, dst.0), i);
            }
            Inst::Store { .. } => {
                if let Some((a, size)) = &e.mem {
                    self.define_bytes(self.value(a), *size, i);
                }
            }
            Inst::Call { dst, .. } => {
                if let Some((f, args)) = &e.call {
                    self.special_call(i, &prog.func(*f).name, args);
                }
                match next.filter(|n| n.depth > e.depth) {
                    Some(n) => self.enter(i, e, n),
                    None => {
                        if let Some(d) = dst {
                            self.regs.insert((e.act, d.0), i);
                        }
                    }
                }
            }
            Inst::Ret { .. } => {
                if let Some(&c) = self.caller.get(&e.act) {
                    let call = &trace.entries[c as usize];
                    if let Some(d) = prog.func(call.func).insts[call.pc as usize].dst() {
                        self.regs.insert((call.act, d.0), i);
                    }
                }
            }
            Inst::Br { .. } | Inst::CondBr { .. } | Inst::Switch { .. } => {
                let from = self.block(e);
                self.last_term.insert((e.act, from), i);
                if let Some(n) = next.filter(|n| n.act == e.act) {
                    let to = self.block(n);
                    let f = prog.func(e.func);
                    let start = f.blocks[to.0 as usize].start as usize;
                    let mut assigned = Vec::new();
                    for p in &f.insts[start..] {
                        let Inst::Phi { dst, incoming } = p else {
                            break;
                        };
                        let def = incoming
                            .iter()
                            .find(|(b, _)| *b == from)
                            .and_then(|(_, op)| self.reg_def(e.act, op));
                        data.extend(def);
                        defs.push(def);
                        assigned.push(*dst);
                    }
                    for d in assigned {
                        self.regs.insert((e.act, d.0), i);
                    }
                }
            }
            _ => {
                if let Some(d) = inst.dst() {
                    self.regs.insert((e.act, d.0), i);
                }
            }
        }
        self.graph.operands.push(defs);
        data.sort_unstable();
        data.dedup();
        self.graph.data.push(data);
    }
}

impl Graph {
    /// Build the dependence graph of `trace` (a run of `prog` whose expressions live in
    /// `pool`, on input `seed`), with the definitions of the `probes`' bytes.
    pub fn build(
        prog: &Program,
        pool: &ExprPool,
        seed: &Assignment,
        trace: &Trace,
        probes: &[Probe],
    ) -> Graph {
        let n = trace.entries.len();
        let mut b = Builder {
            prog,
            pool,
            seed,
            trace,
            cds: FxHashMap::default(),
            regs: FxHashMap::default(),
            mem: FxHashMap::default(),
            last_term: FxHashMap::default(),
            caller: FxHashMap::default(),
            graph: Graph {
                data: Vec::with_capacity(n),
                control: Vec::with_capacity(n),
                output: Vec::new(),
                probes: vec![Vec::new(); probes.len()],
                operands: Vec::with_capacity(n),
            },
        };
        for i in 0..n {
            b.step(i as u32, probes);
        }
        b.graph
    }
}
