//! Elements a function reads at an index an integer variable holds (`buf[i]`, `p[i]`,
//! the bytes of `argv[i]`, `argv[optind]`), found on the IR: a load through a GEP of one
//! variable index, the index loaded whole from an integer local's stack slot or from a
//! global (perhaps plus a constant), the base a local aggregate's slot or a pointer
//! loaded whole from a local's slot, all in one basic block. Each read is the program's
//! own: a predicate may read the element at a line only where the program reads the same
//! element later in the same block, with no store or call before its loads of the
//! variables, so that whatever input reaches the predicate, the index is one the program
//! itself reads at (not one past an array's end).

use augur_ir::{
    block_containing, AddrBase, BlockId, CastOp, Const, Function, GlobalId, Inst, IntOp, Operand,
    Program, Reg, Ty,
};
use rustc_hash::FxHashMap;

/// What a named stack slot holds, as the function reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// An integer of this many bytes, loaded whole only.
    Int(u8),
    /// A pointer, loaded whole only.
    Pointer,
    /// An aggregate (or anything else).
    Aggregate,
}

/// What the program reads of an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// An integer at a byte offset in it, of a size in bytes.
    Int(u64, u8),
    /// The string it points at (it is a pointer, through which a byte is read at 0).
    String,
}

/// Where the integer an index is computed from is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexVar {
    /// In a local's stack slot.
    Local(Reg),
    /// In a global (`argv[optind]`).
    Global(GlobalId),
}

/// How the program computes an element's index from the integer variable it loads (a
/// local or a global): its value, perhaps widened and a constant added (`argv[i + 1]`,
/// `buf[c - 1]` with a `char c` promoted to `int`), extended to 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index {
    /// The variable.
    pub var: IndexVar,
    /// Its size in bytes.
    pub size: u8,
    /// The width in bytes it is widened to before the constant is added, and whether
    /// signed (else zero-extended).
    pub promoted: Option<(u8, bool)>,
    /// The constant added, in that width (the local's own when not widened).
    pub delta: i64,
    /// Is the sum sign-extended (else zero-extended) to 64 bits?
    pub signed: bool,
}

/// `v`'s low `bytes` bytes, extended to 64 bits (signed or not).
fn extended(v: u64, bytes: u8, signed: bool) -> u64 {
    let unused = 64 - 8 * u32::from(bytes.min(8));
    match signed {
        true => ((v << unused) as i64 >> unused) as u64,
        false => (v << unused) >> unused,
    }
}

impl Index {
    /// The 64-bit index when the local's bytes hold `raw`.
    pub fn value(&self, raw: u64) -> u64 {
        let (width, v) = match self.promoted {
            Some((to, signed)) => (to, extended(raw, self.size, signed)),
            None => (self.size, raw),
        };
        extended(v.wrapping_add(self.delta as u64), width, self.signed)
    }
}

/// An element at an index, and where the program reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedElement {
    /// The stack slot of the aggregate, or of the pointer to the elements.
    pub base: Reg,
    /// Does `base` hold a pointer to the elements (else they are its own bytes)?
    pub pointer: bool,
    /// How the index is computed from the integer local indexing.
    pub index: Index,
    /// The element's size in bytes.
    pub scale: u64,
    /// What is read of the element.
    pub element: Element,
    /// The program's reads of it: each one's block, and its loads of `base`'s slot and
    /// of the index's variable (the first and the last).
    pub reads: Vec<(BlockId, (u32, u32))>,
}

impl IndexedElement {
    /// Does the program, from instruction `pc` on, load the slots of one of its reads
    /// before any store or call (so a predicate at `pc` reads the element the program is
    /// about to read)?
    pub fn ahead_of(&self, f: &Function, pc: u32) -> bool {
        let block = block_containing(f, pc);
        self.reads.iter().any(|&(b, (first, last))| {
            b == block
                && pc <= first
                && f.insts[pc as usize..last as usize]
                    .iter()
                    .all(|i| !matches!(i, Inst::Store { .. } | Inst::Call { .. }))
        })
    }
}

/// The register `op` names, if any.
fn reg(op: &Operand) -> Option<Reg> {
    match op {
        Operand::Reg(r) => Some(*r),
        _ => None,
    }
}

/// The elements `f` reads at an index, over its named stack slots `slots` (each slot's
/// register and what it holds), each with every read of it.
pub fn elements(prog: &Program, f: &Function, slots: &[(Reg, Held)]) -> Vec<IndexedElement> {
    let def: FxHashMap<Reg, u32> = f
        .insts
        .iter()
        .enumerate()
        .filter_map(|(k, i)| Some((i.dst()?, k as u32)))
        .collect();
    let held: FxHashMap<Reg, Held> = slots.iter().copied().collect();
    let aggregates: Vec<Reg> = slots
        .iter()
        .filter(|(_, h)| *h == Held::Aggregate)
        .map(|(r, _)| *r)
        .collect();
    let inside = crate::assigned::addresses(f, &aggregates);
    let inst = |r: Reg| def.get(&r).map(|&pc| (pc, &f.insts[pc as usize]));
    // A register loaded from a named slot: the slot, what it holds, where.
    let loaded = |r: Reg| match inst(r)? {
        (pc, Inst::Load { addr, .. }) => {
            let slot = reg(addr)?;
            Some((slot, *held.get(&slot)?, pc))
        }
        _ => None,
    };
    // A register loaded whole from an integer variable: a named local's slot or a
    // global of a C name, its size, where.
    let loaded_int = |r: Reg| -> Option<(IndexVar, u8, u32)> {
        if let Some((slot, Held::Int(size), pc)) = loaded(r) {
            return Some((IndexVar::Local(slot), size, pc));
        }
        let (pc, Inst::Load { addr, ty, .. }) = inst(r)? else {
            return None;
        };
        let g = global_at(addr)?;
        let size = super::seeded::int_size(prog, *ty)?;
        let global = &prog.globals[g.0 as usize];
        (u64::from(size) == global.size && super::seeded::user_identifier(&global.name))
            .then_some((IndexVar::Global(g), size, pc))
    };
    let mut out = Vec::new();
    for (at, i) in f.insts.iter().enumerate() {
        let Inst::Load { dst, addr, ty } = i else {
            continue;
        };
        let Some((base, offset, index, scale)) = indexed_gep(f, &def, addr) else {
            continue;
        };
        let Some((index, index_at)) = index_of(index, &inst, &loaded_int) else {
            continue;
        };
        // The base: a pointer local's value, or an address in a local aggregate.
        let Some(base) = reg(base) else {
            continue;
        };
        let (base, pointer, at_offset, loads) = match loaded(base) {
            Some((slot, Held::Pointer, base_at)) => {
                let loads = (base_at.min(index_at), base_at.max(index_at));
                (slot, true, offset, loads)
            }
            _ => match inside.get(&base) {
                Some(&(a, off)) => (aggregates[a], false, off + offset, (index_at, index_at)),
                None => continue,
            },
        };
        let block = block_containing(f, at as u32);
        if block_containing(f, loads.0) != block {
            continue;
        }
        let element = match super::seeded::int_size(prog, *ty) {
            Some(size) => Element::Int(at_offset, size),
            None if at_offset == 0
                && prog.ty(*ty).ty == Ty::Ptr
                && reads_a_string(prog, f, *dst) =>
            {
                Element::String
            }
            None => continue,
        };
        let found = IndexedElement {
            base,
            pointer,
            index,
            scale,
            element,
            reads: vec![(block, loads)],
        };
        // An element read in several places is one element.
        match out.iter_mut().find(|e: &&mut IndexedElement| {
            (e.base, e.pointer, e.index, e.scale, e.element)
                == (base, pointer, index, scale, element)
        }) {
            Some(e) => e.reads.push((block, loads)),
            None => out.push(found),
        }
    }
    out
}

/// An integer extension: signed or not, the width it extends to in bytes, and its
/// operand.
fn extension(inst: &Inst) -> Option<(bool, u8, &Operand)> {
    match inst {
        Inst::Cast { op, a, width, .. } if matches!(op, CastOp::SExt | CastOp::ZExt) => {
            Some((*op == CastOp::SExt, u8::try_from(width / 8).ok()?, a))
        }
        _ => None,
    }
}

/// An immediate's value, sign-extended from its width (whole bytes, up to 8).
fn signed_imm(op: &Operand) -> Option<i64> {
    match op {
        Operand::Imm { width, value } if matches!(width, 8 | 16 | 32 | 64) => {
            Some(extended(*value as u64, (*width / 8) as u8, true) as i64)
        }
        _ => None,
    }
}

/// The global `addr` is the start of, if it is one.
fn global_at(addr: &Operand) -> Option<GlobalId> {
    match addr {
        Operand::Const(c) => match &**c {
            Const::Addr {
                base: AddrBase::Global(g),
                offset: 0,
            } => Some(*g),
            _ => None,
        },
        _ => None,
    }
}

/// How the GEP index `op` is computed from an integer variable's load (`ext(v)`,
/// `ext(v + C)`, `ext(ext(v) - C)`, `v`): the index, and where the variable is loaded.
fn index_of<'f>(
    op: &Operand,
    inst: &impl Fn(Reg) -> Option<(u32, &'f Inst)>,
    loaded: &impl Fn(Reg) -> Option<(IndexVar, u8, u32)>,
) -> Option<(Index, u32)> {
    let mut r = reg(op)?;
    let mut signed = true;
    if let Some((s, _, a)) = inst(r).and_then(|(_, i)| extension(i)) {
        signed = s;
        r = reg(a)?;
    }
    let mut delta = 0;
    let mut promoted = None;
    if let Some((_, Inst::Bin { op, a, b, .. })) = inst(r) {
        let (local, c) = match (op, reg(a), signed_imm(b), signed_imm(a), reg(b)) {
            (IntOp::Add, Some(x), Some(c), _, _) | (IntOp::Add, _, _, Some(c), Some(x)) => (x, c),
            (IntOp::Sub, Some(x), Some(c), _, _) => (x, c.checked_neg()?),
            _ => return None,
        };
        delta = c;
        r = local;
        if let Some((s, to, a)) = inst(r).and_then(|(_, i)| extension(i)) {
            promoted = Some((to, s));
            r = reg(a)?;
        }
    }
    let (var, size, at) = loaded(r)?;
    let index = Index {
        var,
        size,
        promoted,
        delta,
        signed,
    };
    Some((index, at))
}

/// The indexed GEP an address `addr` is made by, perhaps through casts and constant
/// offsets after it (a field of the element): its base, its constant offset with those
/// after it, its one index and scale.
fn indexed_gep<'f>(
    f: &'f Function,
    def: &FxHashMap<Reg, u32>,
    addr: &Operand,
) -> Option<(&'f Operand, u64, &'f Operand, u64)> {
    let mut field = 0;
    let mut at = reg(addr)?;
    loop {
        match &f.insts[*def.get(&at)? as usize] {
            Inst::Cast { a, .. } => at = reg(a)?,
            Inst::Gep {
                base,
                offset,
                indices,
                ..
            } => {
                let offset = u64::try_from(*offset).ok()? + field;
                match &indices[..] {
                    [] => {
                        field = offset;
                        at = reg(base)?;
                    }
                    [(index, _, scale)] => return Some((base, offset, index, *scale)),
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// Does `f` load a byte at offset 0 through pointer `p` (a string's first byte), or pass
/// `p` to the C library as a string?
fn reads_a_string(prog: &Program, f: &Function, p: Reg) -> bool {
    if crate::string_args::passed_as_string(prog, f, &[p]) {
        return true;
    }
    let inside = crate::assigned::addresses(f, &[p]);
    f.insts.iter().any(|i| match i {
        Inst::Load { addr, ty, .. } => {
            reg(addr).and_then(|r| inside.get(&r)) == Some(&(0, 0))
                && super::seeded::int_size(prog, *ty) == Some(1)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "struct kv { int k; int v; };
int pos;
int f(int argc, char **argv, struct kv *t) {
  unsigned char buf[8];
  int n = 0;
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '-')
      n++;
  for (unsigned j = 0; j < 8; j++)
    buf[j] = (unsigned char)j;
  for (long j = 0; j < 4; j++)
    n += buf[j] + t[j].v;
  return n + argv[argc - 1][0] + argv[pos][0];
}
";

    #[test]
    fn reads_at_an_index_a_local_holds_are_found_with_their_element() {
        let prog = crate::assigned::tests::compiled(SRC);
        let func = prog.func_named("f").unwrap();
        let f = prog.func(func);
        let slots: Vec<(Reg, Held, &str)> = f
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::Alloca {
                    dst, var: Some(v), ..
                } => {
                    let name = v.strip_suffix(".addr").unwrap_or(v);
                    let held = match name {
                        "argc" | "n" | "i" => Held::Int(4),
                        "j" => Held::Int(4),
                        "j1" => Held::Int(8),
                        "argv" | "t" => Held::Pointer,
                        _ => Held::Aggregate,
                    };
                    Some((*dst, held, name))
                }
                _ => None,
            })
            .collect();
        let name = |r: Reg| slots.iter().find(|s| s.0 == r).unwrap().2;
        let given: Vec<(Reg, Held)> = slots.iter().map(|s| (s.0, s.1)).collect();
        let found: Vec<(String, bool, u64, Element)> = elements(&prog, f, &given)
            .into_iter()
            .map(|r| {
                let index = match r.index.var {
                    IndexVar::Local(slot) => name(slot),
                    IndexVar::Global(g) => &prog.globals[g.0 as usize].name,
                };
                let base = name(r.base);
                let what = match r.index.delta {
                    0 => format!("{base}[{index}]"),
                    d => format!("{base}[{index}{d:+}]"),
                };
                (what, r.index.signed, r.scale, r.element)
            })
            .collect();
        // `argv[argc - 1]` is indexed by a local minus a constant, `argv[pos]` by a global;
        // `buf[j] =` is a store.
        assert_eq!(
            found,
            [
                ("argv[i]".to_string(), true, 8, Element::String),
                ("buf[j]".to_string(), true, 1, Element::Int(0, 1)),
                ("t[j]".to_string(), true, 8, Element::Int(4, 4)),
                ("argv[argc-1]".to_string(), true, 8, Element::String),
                ("argv[pos]".to_string(), true, 8, Element::String),
            ]
        );
    }

    #[test]
    fn an_index_is_computed_as_the_program_computes_it() {
        let index = |size, promoted, delta, signed| Index {
            var: IndexVar::Local(Reg(0)),
            size,
            promoted,
            delta,
            signed,
        };
        // `int i; a[i - 1]` at i = 0; `unsigned j; a[j + 1]` at j = UINT_MAX (wraps to 0);
        // `unsigned char c; a[c - 'a']` at c = 'b' and at c = 0 (an int, negative).
        assert_eq!(index(4, None, -1, true).value(0), u64::MAX);
        assert_eq!(index(4, None, 1, false).value(0xffff_ffff), 0);
        assert_eq!(index(1, Some((4, false)), -97, true).value(98), 1);
        assert_eq!(
            index(1, Some((4, false)), -97, true).value(0),
            (-97i64) as u64
        );
        assert_eq!(index(8, None, 0, true).value(5), 5);
    }

    #[test]
    fn a_read_is_ahead_only_between_its_block_s_stores_and_its_loads() {
        let prog = crate::assigned::tests::compiled(
            "int g(char *p, int i) {
  int n;
  n = 1; n += p[i];
  return n;
}
",
        );
        let f = prog.func(prog.func_named("g").unwrap());
        let slot = |name: &str| crate::assigned::tests::slot_named(f, name);
        let slots = [
            (slot("p.addr"), Held::Pointer),
            (slot("i.addr"), Held::Int(4)),
            (slot("n"), Held::Int(4)),
        ];
        let [read] = &elements(&prog, f, &slots)[..] else {
            panic!("one element, p[i]")
        };
        let [(_, (first, _))] = read.reads[..] else {
            panic!("read once")
        };
        let store_n = (0..first)
            .rev()
            .find(|&pc| matches!(f.insts[pc as usize], Inst::Store { .. }))
            .unwrap();
        // From the store `n = 1` on, a store comes before the loads; after the first
        // load, the read has begun.
        assert!(read.ahead_of(f, first));
        assert!(!read.ahead_of(f, store_n));
        assert!(!read.ahead_of(f, first + 1));
    }
}
