//! Which local variables are definitely assigned before an instruction: a forward
//! must-analysis (the intersection over predecessors) on one function's CFG (or, asked
//! for [`Paths::Some`], which may be: the union), over the
//! stack slots of source variables and elements of local aggregates (a struct's field,
//! an array's element at a constant byte offset). A slot is assigned by a store into it,
//! or by a call given its address (an out-parameter: `scanf("%d", &x)`,
//! `augur_make_symbolic(&x, ..)`); an element likewise at its own address (a call
//! given `&s` may mean `&s.first` only), or by `memset`, `memcpy` or `memmove` of a
//! constant length covering it (`memset(&s, 0, sizeof s)`, an initializer). A predicate may only read a local there when every
//! path from the function's entry assigns it first; otherwise it reads indeterminate
//! stack bytes, which differ from build to build.

use augur_ir::{
    block_containing, predecessors, BlockId, Callee, Function, Inst, Operand, Program, Reg,
};
use rustc_hash::FxHashMap;

/// What the analysis follows: a stack slot (the register holding its address) as a
/// whole, or the element of it at a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The register holding the stack slot's address.
    pub base: Reg,
    /// None: the slot itself (a scalar); Some(offset): the element at that byte offset.
    pub element: Option<u64>,
}

/// On which paths from the function's entry an assignment must lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paths {
    /// On every path (the slot holds a value written by the program).
    Every,
    /// On some path (the slot may hold one).
    Some,
}

/// The analysis of one function over some of its stack slots.
pub struct Assigned {
    /// Each register holding an address inside a slot (the slot, a cast of it, a GEP
    /// of it by a constant offset): the slot's base index and the offset.
    alias: FxHashMap<Reg, (usize, u64)>,
    /// The slots analysed, by base index.
    slots: Vec<(usize, Option<u64>)>,
    /// Per block: which slots are assigned on every (or some) path to its start.
    at_start: Vec<Vec<bool>>,
    /// The slots each instruction that assigns any assigns, by instruction index.
    assigning: FxHashMap<u32, Vec<usize>>,
}

/// The register `op` names, if any.
fn reg(op: &Operand) -> Option<Reg> {
    match op {
        Operand::Reg(r) => Some(*r),
        _ => None,
    }
}

/// Does `callee` fill its first argument's bytes, as many as its third says (`memset`,
/// `memcpy`, `memmove`, or their LLVM intrinsics)?
fn fills(prog: &Program, callee: &Callee) -> bool {
    let Callee::Direct(f) = callee else {
        return false;
    };
    let name = prog.func(*f).name.as_str();
    let name = name.strip_prefix("llvm.").unwrap_or(name);
    ["memset", "memcpy", "memmove"]
        .iter()
        .any(|m| name == *m || name.starts_with(&format!("{m}.")))
}

/// The registers holding an address inside one of `bases`: (base index, byte offset).
pub fn addresses(f: &Function, bases: &[Reg]) -> FxHashMap<Reg, (usize, u64)> {
    let mut alias: FxHashMap<Reg, (usize, u64)> = bases
        .iter()
        .enumerate()
        .map(|(i, r)| (*r, (i, 0)))
        .collect();
    loop {
        let before = alias.len();
        for inst in &f.insts {
            let (dst, src, by) = match inst {
                Inst::Cast { dst, a, .. } => (*dst, reg(a), 0),
                Inst::Gep {
                    dst,
                    base,
                    offset,
                    indices,
                } if indices.is_empty() && *offset >= 0 => (*dst, reg(base), *offset as u64),
                _ => continue,
            };
            if let Some((b, off)) = src.and_then(|s| alias.get(&s).copied()) {
                alias.entry(dst).or_insert((b, off + by));
            }
        }
        if alias.len() == before {
            return alias;
        }
    }
}

impl Assigned {
    /// Analyse `f` for `slots`: which are assigned on `paths` to each instruction.
    pub fn new(prog: &Program, f: &Function, slots: &[Slot], paths: Paths) -> Assigned {
        let mut bases: Vec<Reg> = slots.iter().map(|s| s.base).collect();
        bases.sort_unstable();
        bases.dedup();
        let index = |r: Reg| bases.binary_search(&r).expect("a base");
        let mut a = Assigned {
            alias: addresses(f, &bases),
            slots: slots.iter().map(|s| (index(s.base), s.element)).collect(),
            at_start: Vec::new(),
            assigning: FxHashMap::default(),
        };
        a.assigning = (0..f.insts.len() as u32)
            .map(|pc| (pc, a.assigns(prog, &f.insts[pc as usize])))
            .filter(|(_, s)| !s.is_empty())
            .collect();
        let count = a.slots.len();
        let n = f.blocks.len();
        let preds = predecessors(f);
        // Every path: an optimistic start (everything assigned) except at the entry,
        // iterated to the greatest fixed point of the intersection. Some path: nothing
        // assigned, to the least fixed point of the union.
        let every = paths == Paths::Every;
        let mut at_start = vec![vec![every; count]; n];
        if n > 0 {
            at_start[0] = vec![false; count];
        }
        loop {
            let mut changed = false;
            for b in 1..n {
                let mut meet = vec![every; count];
                for p in &preds[b] {
                    let out = a.after_block(f, *p, &at_start[p.0 as usize]);
                    for (m, o) in meet.iter_mut().zip(out) {
                        *m = if every { *m && o } else { *m || o };
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

    /// The slots one instruction assigns (indices into the slots given to
    /// [`Assigned::new`]).
    fn assigns(&self, prog: &Program, inst: &Inst) -> Vec<usize> {
        let at = |op: &Operand| reg(op).and_then(|r| self.alias.get(&r).copied());
        // Each target: (base index, offset, bytes it covers; None: only its own slot).
        let targets: Vec<(usize, u64, Option<u64>)> = match inst {
            Inst::Store { addr, .. } => at(addr).map(|(b, o)| (b, o, None)).into_iter().collect(),
            Inst::Call { callee, args, .. } if !matches!(callee, Callee::Asm(_)) => {
                match (fills(prog, callee), args.first().and_then(at), args.get(2)) {
                    (true, Some((b, o)), Some(Operand::Imm { value, .. })) => {
                        vec![(b, o, Some(*value as u64))]
                    }
                    _ => args
                        .iter()
                        .filter_map(at)
                        .map(|(b, o)| (b, o, None))
                        .collect(),
                }
            }
            _ => return Vec::new(),
        };
        (0..self.slots.len())
            .filter(|&i| {
                let (b, element) = self.slots[i];
                let e = element.unwrap_or(0);
                targets.iter().any(|&(tb, off, len)| {
                    tb == b && (off == e || len.is_some_and(|n| off <= e && e < off + n))
                })
            })
            .collect()
    }

    /// `start` updated by the instructions of `f` in `range`.
    fn through(&self, range: std::ops::Range<u32>, start: &[bool]) -> Vec<bool> {
        let mut set = start.to_vec();
        for pc in range {
            for &s in self.assigning.get(&pc).into_iter().flatten() {
                set[s] = true;
            }
        }
        set
    }

    fn after_block(&self, f: &Function, b: BlockId, start: &[bool]) -> Vec<bool> {
        let block = &f.blocks[b.0 as usize];
        self.through(block.start..block.end, start)
    }

    /// Which slots (in the order given to [`Assigned::new`]) are assigned on every (or
    /// some) path from the entry of `f` to instruction `pc`, before it runs.
    pub fn before(&self, f: &Function, pc: u32) -> Vec<bool> {
        let b = block_containing(f, pc);
        let start = f.blocks[b.0 as usize].start;
        self.through(start..pc, &self.at_start[b.0 as usize])
    }
}

#[cfg(test)]
pub(crate) mod tests {
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
        compiled(SRC)
    }

    /// `src` compiled and lowered.
    pub(crate) fn compiled(src: &str) -> Program {
        let dir = tempfile::tempdir().unwrap();
        let (c, bc) = (dir.path().join("f.c"), dir.path().join("f.bc"));
        std::fs::write(&c, src).unwrap();
        compile_c(&c, &bc, &CompileOptions::default()).unwrap();
        augur_ir::load_program(&bc).unwrap()
    }

    /// The stack slot of `f`'s variable `name` (`p.addr` for a parameter `p`).
    pub(crate) fn slot_named(f: &Function, name: &str) -> Reg {
        f.insts
            .iter()
            .find_map(|i| match i {
                Inst::Alloca {
                    dst, var: Some(v), ..
                } if &**v == name => Some(*dst),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no variable {name}"))
    }

    #[test]
    fn locals_are_assigned_where_every_path_or_some_path_assigns_them() {
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
        let regs: Vec<Slot> = slots
            .iter()
            .map(|(r, _)| Slot {
                base: *r,
                element: None,
            })
            .collect();
        let every = Assigned::new(&prog, f, &regs, Paths::Every);
        let some = Assigned::new(&prog, f, &regs, Paths::Some);
        let at_line = |a: &Assigned, line: u32| -> Vec<&str> {
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
        assert_eq!(at_line(&every, 4), ["a.addr"]);
        assert_eq!(at_line(&every, 5), ["a.addr", "x"]);
        // y is assigned on both branches; z on one only; w by the call taking its address.
        assert_eq!(at_line(&every, 11), ["a.addr", "x", "y"]);
        assert_eq!(at_line(&every, 12), ["a.addr", "w", "x", "y"]);
        // On some path, z too.
        assert_eq!(at_line(&some, 4), ["a.addr"]);
        assert_eq!(at_line(&some, 11), ["a.addr", "x", "y", "z"]);
    }

    #[test]
    fn an_element_is_assigned_at_its_own_address_or_by_a_memset_covering_it() {
        let prog = compiled(
            "struct P { int a; int b; };
void fill(int *p);
int f(int v) {
  struct P s, t, u;
  int arr[3];
  s.a = v;
  arr[1] = v;
  fill(&t.a);
  __builtin_memset(&u, 0, sizeof u);
  return s.a + s.b + arr[1] + arr[0] + t.a + t.b + u.b;
}
",
        );
        let f = prog.func(prog.func_named("f").unwrap());
        let base = |name: &str| slot_named(f, name);
        let slots = [
            ("s", 0),
            ("s", 4),
            ("arr", 0),
            ("arr", 4),
            ("t", 0),
            ("t", 4),
            ("u", 4),
        ];
        let which: Vec<Slot> = slots
            .iter()
            .map(|&(n, off)| Slot {
                base: base(n),
                element: Some(off),
            })
            .collect();
        let a = Assigned::new(&prog, f, &which, Paths::Every);
        let pc = (0..f.insts.len() as u32)
            .find(|&pc| prog.loc(f.locs[pc as usize]).is_some_and(|l| l.line == 10))
            .unwrap();
        let set = a.before(f, pc);
        let got: Vec<(&str, u64)> = slots
            .iter()
            .zip(set)
            .filter(|(_, s)| *s)
            .map(|(s, _)| *s)
            .collect();
        // s.b and arr[0] are never assigned; t.a by the call given its address (which
        // may be all the callee writes: t.b is not), u.b by the memset of all of u.
        assert_eq!(got, [("s", 0), ("arr", 4), ("t", 0), ("u", 4)]);
    }
}
