//! Which local variables are definitely assigned before an instruction: a forward
//! must-analysis (the intersection over predecessors) on one function's CFG, over the
//! stack slots of source variables. A slot is assigned by a store into it, or by a call
//! given its address (an out-parameter: `scanf("%d", &x)`, `augur_make_symbolic(&x, ..)`).
//! A predicate may only read a local there when every path from the function's entry
//! assigns it first; otherwise it reads indeterminate stack bytes, which differ from
//! build to build.

use augur_ir::{block_containing, predecessors, BlockId, Callee, Function, Inst, Operand, Reg};
use rustc_hash::FxHashMap;

/// The analysis of one function over some of its stack slots.
pub struct Assigned {
    /// Each register holding a slot's address (the slot or a cast or offset-free GEP
    /// of it) with the slot's index.
    alias: FxHashMap<Reg, usize>,
    /// Per block: which slots are assigned on every path to its start.
    at_start: Vec<Vec<bool>>,
    slots: usize,
}

/// The register `op` names, if any.
fn reg(op: &Operand) -> Option<Reg> {
    match op {
        Operand::Reg(r) => Some(*r),
        _ => None,
    }
}

/// The registers holding the address of one of `slots`, with the slot's index.
fn aliases(f: &Function, slots: &[Reg]) -> FxHashMap<Reg, usize> {
    let mut alias: FxHashMap<Reg, usize> = slots.iter().enumerate().map(|(i, r)| (*r, i)).collect();
    loop {
        let before = alias.len();
        for inst in &f.insts {
            let (dst, src) = match inst {
                Inst::Cast { dst, a, .. } => (*dst, reg(a)),
                Inst::Gep {
                    dst,
                    base,
                    offset: 0,
                    indices,
                } if indices.is_empty() => (*dst, reg(base)),
                _ => continue,
            };
            if let Some(slot) = src.and_then(|s| alias.get(&s).copied()) {
                alias.entry(dst).or_insert(slot);
            }
        }
        if alias.len() == before {
            return alias;
        }
    }
}

impl Assigned {
    /// Analyse `f` for the stack slots whose addresses are `slots`.
    pub fn new(f: &Function, slots: &[Reg]) -> Assigned {
        let mut a = Assigned {
            alias: aliases(f, slots),
            at_start: Vec::new(),
            slots: slots.len(),
        };
        let n = f.blocks.len();
        let preds = predecessors(f);
        // Optimistic start (everything assigned) except at the entry; iterate to the
        // greatest fixed point.
        let mut at_start = vec![vec![true; a.slots]; n];
        if n > 0 {
            at_start[0] = vec![false; a.slots];
        }
        loop {
            let mut changed = false;
            for b in 1..n {
                let mut meet = vec![true; a.slots];
                for p in &preds[b] {
                    let out = a.after_block(f, *p, &at_start[p.0 as usize]);
                    for (m, o) in meet.iter_mut().zip(out) {
                        *m &= o;
                    }
                }
                if meet != at_start[b] {
                    at_start[b] = meet;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        a.at_start = at_start;
        a
    }

    /// The slots one instruction assigns.
    fn assigns<'a>(&'a self, inst: &'a Inst) -> Box<dyn Iterator<Item = usize> + 'a> {
        let slot = |op: &Operand| reg(op).and_then(|r| self.alias.get(&r).copied());
        match inst {
            Inst::Store { addr, .. } => Box::new(slot(addr).into_iter()),
            Inst::Call { callee, args, .. } if !matches!(callee, Callee::Asm(_)) => {
                Box::new(args.iter().filter_map(slot))
            }
            _ => Box::new(std::iter::empty()),
        }
    }

    /// `start` updated by the instructions of `f` in `range`.
    fn through(&self, f: &Function, range: std::ops::Range<u32>, start: &[bool]) -> Vec<bool> {
        let mut set = start.to_vec();
        for inst in &f.insts[range.start as usize..range.end as usize] {
            for s in self.assigns(inst) {
                set[s] = true;
            }
        }
        set
    }

    fn after_block(&self, f: &Function, b: BlockId, start: &[bool]) -> Vec<bool> {
        let block = &f.blocks[b.0 as usize];
        self.through(f, block.start..block.end, start)
    }

    /// Which slots (in the order given to [`Assigned::new`]) are assigned on every path
    /// from the entry of `f` to instruction `pc`, before it runs.
    pub fn before(&self, f: &Function, pc: u32) -> Vec<bool> {
        let b = block_containing(f, pc);
        let start = f.blocks[b.0 as usize].start;
        self.through(f, start..pc, &self.at_start[b.0 as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur_ir::{compile_c, CompileOptions, Program};

    const SRC: &str = "int g(int *p);
int f(int a) {
  int x, y, z, w;
  x = a;
  if (a > 0)
    y = 1;
  else
    y = 2;
  if (a > 5)
    z = 3;
  g(&w);
  return x + y + z + w;
}
";

    fn program() -> Program {
        let dir = tempfile::tempdir().unwrap();
        let (c, bc) = (dir.path().join("f.c"), dir.path().join("f.bc"));
        std::fs::write(&c, SRC).unwrap();
        compile_c(&c, &bc, &CompileOptions::default()).unwrap();
        augur_ir::load_program(&bc).unwrap()
    }

    #[test]
    fn locals_are_assigned_only_where_every_path_assigns_them() {
        let prog = program();
        let f = prog.func(prog.func_named("f").unwrap());
        let slots: Vec<(Reg, String)> = f
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::Alloca {
                    dst, var: Some(v), ..
                } => Some((*dst, v.to_string())),
                _ => None,
            })
            .collect();
        let regs: Vec<Reg> = slots.iter().map(|(r, _)| *r).collect();
        let a = Assigned::new(f, &regs);
        let at_line = |line: u32| -> Vec<&str> {
            let pc = (0..f.insts.len() as u32)
                .find(|&pc| {
                    prog.loc(f.locs[pc as usize])
                        .is_some_and(|l| l.line == line)
                })
                .unwrap();
            let set = a.before(f, pc);
            let mut names: Vec<&str> = slots
                .iter()
                .zip(set)
                .filter(|(_, s)| *s)
                .map(|((_, n), _)| n.as_str())
                .collect();
            names.sort_unstable();
            names
        };
        assert_eq!(at_line(4), ["a.addr"]);
        assert_eq!(at_line(5), ["a.addr", "x"]);
        // y is assigned on both branches; z on one only; w by the call taking its address.
        assert_eq!(at_line(11), ["a.addr", "x", "y"]);
        assert_eq!(at_line(12), ["a.addr", "w", "x", "y"]);
    }
}
