//! The seeded run of a seed path: an [`Observer`] noting, at the start of the first
//! visits of every user source line and then of a few per doubling, the bytes of the
//! integer source variables in scope (locals of the running function that every path
//! assigns before the line ([`crate::assigned`]), parameters, globals, and the input-dependent integer elements
//! of aggregates: globals' fields and array elements, locals' read at constant offsets,
//! these too once every path assigns them; the input-dependent integers a local or
//! global pointer points at, `*p@OFFSET`, read at the offsets the code reads through it;
//! the next bytes of the string a `char` pointer points at, `*p#K`; and the elements the
//! code reads at an index a local holds, ahead of its own read, [`crate::indexed`]), plus
//! the path's shape (branches, calls, instructions) and, at its end, the path condition.

use crate::assigned::{Assigned, Paths, Slot};
use crate::indexed::{Element, Held, IndexVar, IndexedElement};
use crate::names::{Indexing, Place};
use crate::setup::Setup;
use augur_engine::Executor;
use augur_engine::{Byte, MemorySink, Observer, Outcome, SeedInput, State, Value};
use augur_expr::{ArrayId, Assignment, ExprId, ExprPool};
use augur_ir::{FileId, FuncId, GlobalId, Inst, Operand, Program, Reg, Ty};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// Every visit of a source line up to this one is recorded.
const FIRST_VISITS: u32 = 16;
/// Past [`FIRST_VISITS`], four visits per doubling are recorded (the 20th, 24th, 28th,
/// 32nd, 40th, ...), up to this one: a loop's later iterations (deeper on the path,
/// reading later input) offer points too, each half of its iterations several, at a
/// cost logarithmic in the iterations.
const LAST_SPREAD_VISIT: u32 = 4096;

/// Is the `n`-th visit (1-based) of a line recorded?
fn recorded_visit(n: u32) -> bool {
    if n <= FIRST_VISITS {
        return true;
    }
    let low_bits = n.ilog2() - 2;
    n <= LAST_SPREAD_VISIT && n & ((1 << low_bits) - 1) == 0
}

/// Integer elements of one aggregate global (struct fields, array elements, nested)
/// recorded at most.
const MAX_ELEMENTS: usize = 16;
/// Elements of an array recorded at most (the first ones).
const MAX_ARRAY_ELEMENTS: u64 = 8;
/// Bytes of the string a `char` pointer points at recorded past its first, at most.
const STRING_BYTES: u64 = 7;

/// An integer source variable: a scalar, an integer element of an aggregate (a struct
/// field, an array element, at a constant offset or at an index a local holds), an
/// integer a pointer points at, or a byte of the string a `char` pointer (a variable, or
/// an element at an index) points at. Its name says which ([`crate::names`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    /// Its name ([`crate::names`]: `x`, `g@OFFSET`, `*p@OFFSET`, `*p#K`, `buf[i*1]@0`,
    /// `*(*argv[i*8])#K`...).
    pub name: String,
    /// Its size in bytes (1, 2, 4 or 8).
    pub size: u8,
}

impl Var {
    /// Its name, parsed.
    pub fn place(&self) -> Place<'_> {
        Place::parse(&self.name)
    }

    /// The C identifier it is read through (the aggregate's, for an element; the
    /// pointer's, for a pointee).
    pub fn base(&self) -> &str {
        self.place().base()
    }

    /// Every C identifier it is read through: its base, and the variable indexing it.
    pub fn identifiers(&self) -> Vec<&str> {
        let place = self.place();
        std::iter::once(place.base()).chain(place.index()).collect()
    }
}

/// The integer elements of a value of type `ty` at byte offset `at`: (offset, size),
/// at most [`MAX_ELEMENTS`], the first [`MAX_ARRAY_ELEMENTS`] of each array.
fn int_elements(prog: &Program, ty: augur_ir::TyId, at: u64, out: &mut Vec<(u64, u8)>) {
    if out.len() >= MAX_ELEMENTS {
        return;
    }
    match &prog.ty(ty).ty {
        Ty::Struct { fields } => {
            for &(off, t) in fields {
                int_elements(prog, t, at + off, out);
            }
        }
        Ty::Array { elem, len, stride } => {
            for i in 0..(*len).min(MAX_ARRAY_ELEMENTS) {
                int_elements(prog, *elem, at + i * stride, out);
            }
        }
        _ => {
            if let Some(size) = int_size(prog, ty) {
                if out.len() < MAX_ELEMENTS {
                    out.push((at, size));
                }
            }
        }
    }
}

/// One recorded visit of a source line.
#[derive(Clone, Debug)]
pub struct Visit {
    /// The file.
    pub file: FileId,
    /// The line.
    pub line: u32,
    /// Which visit of this line (1 = first).
    pub instance: u32,
    /// Frames on the stack (call depth, the entry function is 1).
    pub call_depth: u32,
    /// Branches on input-dependent conditions before this visit.
    pub branches: u32,
    /// Each variable in scope with its bytes as the line begins.
    pub vars: Vec<(Var, Vec<Byte>)>,
}

/// Everything a seeded run recorded.
#[derive(Debug, Default)]
pub struct Recording {
    /// Line visits in execution order.
    pub visits: Vec<Visit>,
    /// Branches on input-dependent conditions on the whole path.
    pub branches: u32,
    /// Calls made.
    pub calls: u32,
    /// Distinct functions entered.
    pub functions: u32,
    /// Instructions executed.
    pub instructions: u64,
    /// The path condition.
    pub constraints: Vec<ExprId>,
    /// The seed's bytes per symbolic array.
    pub seed: Assignment,
    /// The symbolic objects (name, array, size) in creation order.
    pub objects: Vec<(String, ArrayId, u64)>,
    /// How the path ended.
    pub outcome: Option<Outcome>,
}

/// A seeded run: its recording and the pool its expressions live in.
pub struct SeededRun {
    /// What was recorded.
    pub rec: Recording,
    /// The expression pool of the run.
    pub pool: ExprPool,
}

/// Run `setup`'s program on `seed`, recording it.
pub fn run(setup: &Setup, seed: &SeedInput) -> SeededRun {
    let mut ex = Executor::new(
        setup.program.clone(),
        &augur_env::handlers(),
        setup.opts.clone(),
        Box::new(MemorySink::default()),
    );
    // Globals get their addresses when the first state is laid out.
    let st = ex.initial_state(Some(seed.clone()));
    let globals = int_globals(&ex);
    let addrs = (0..ex.program.globals.len())
        .map(|g| ex.global_addr(GlobalId(g as u32)))
        .collect();
    let (obs, rec) = Watcher::new(&ex.program, globals, addrs);
    ex.add_observer(Box::new(obs));
    augur_env::start(&mut ex, st, setup.entry, &setup.spec, &setup.argv);
    ex.run(&mut |_| {});
    let rec = std::mem::take(&mut *rec.borrow_mut());
    SeededRun {
        rec,
        pool: std::mem::take(&mut ex.pool),
    }
}

/// Integer width in bytes of `ty` if it is a 1, 2, 4 or 8 byte integer.
pub(crate) fn int_size(prog: &Program, ty: augur_ir::TyId) -> Option<u8> {
    match prog.ty(ty).ty {
        Ty::Int(w) if matches!(w, 8 | 16 | 32 | 64) => Some((w / 8) as u8),
        _ => None,
    }
}

/// Could `name` be a C identifier of the user's (not augur's or the C library's)?
pub(crate) fn user_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with('_')
        && !name.starts_with("augur")
}

/// The writable integer globals with user-looking names, and the integer elements of
/// such aggregate globals, with their addresses.
fn int_globals(ex: &Executor) -> Vec<(Var, u64)> {
    let prog = &ex.program;
    let mut out = Vec::new();
    for (i, g) in prog.globals.iter().enumerate() {
        if g.init.is_none() || g.is_constant || !user_identifier(&g.name) {
            continue;
        }
        let addr = ex.global_addr(GlobalId(i as u32));
        if let Some(size) = int_size(prog, g.ty) {
            let name = g.name.clone();
            out.push((Var { name, size }, addr));
            continue;
        }
        let mut elements = Vec::new();
        int_elements(prog, g.ty, 0, &mut elements);
        for (off, size) in elements {
            let name = format!("{}@{off}", g.name);
            out.push((Var { name, size }, addr + off));
        }
    }
    out
}

/// A local variable a seeded run reads, and where its bytes are.
struct LocalVar {
    /// The stack slot (or the element of one) holding it, or holding the pointer to it.
    slot: Slot,
    /// The variable.
    var: Var,
    /// How its bytes are reached from the slot.
    reach: Reach,
}

/// How a local variable's bytes are reached from its stack slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    /// They are in it (a scalar, or an element at a constant offset).
    InSlot,
    /// At this offset from where the pointer in it points (`*p@OFFSET`, `*p#K`).
    Pointee(u64),
    /// In an element at an index (`buf[i*1]@0`, `*(*argv[i*8])#K`): this one of the
    /// function's [`IndexedElement`]s.
    Element(usize),
}

/// What `f` loads through each register of `bases` (each holding an address), per base.
struct Loads {
    /// The (offset, size) of its integer loads at a constant offset, distinct, in order.
    ints: Vec<Vec<(u64, u8)>>,
    /// The registers it is loaded into whole (at offset 0) as a pointer.
    pointers: Vec<Vec<Reg>>,
}

/// The [`Loads`] of `f` through `bases`: one walk of its instructions.
fn loads_through(prog: &Program, f: &augur_ir::Function, bases: &[Reg]) -> Loads {
    let inside = crate::assigned::addresses(f, bases);
    let mut loads = Loads {
        ints: vec![Vec::new(); bases.len()],
        pointers: vec![Vec::new(); bases.len()],
    };
    for inst in &f.insts {
        let Inst::Load {
            dst,
            addr: Operand::Reg(r),
            ty,
        } = inst
        else {
            continue;
        };
        let Some(&(b, off)) = inside.get(r) else {
            continue;
        };
        if let Some(size) = int_size(prog, *ty) {
            if !loads.ints[b].contains(&(off, size)) {
                loads.ints[b].push((off, size));
            }
        } else if off == 0 && prog.ty(*ty).ty == Ty::Ptr {
            loads.pointers[b].push(*dst);
        }
    }
    for l in &mut loads.ints {
        l.sort_unstable();
    }
    loads
}

/// Per slot: the (offset, size) of the integer loads made through the pointers loaded
/// from it (`pointers`, per slot), distinct, in order; one walk for all of them.
fn pointee_loads(
    prog: &Program,
    f: &augur_ir::Function,
    pointers: &[Vec<Reg>],
) -> Vec<Vec<(u64, u8)>> {
    let (owners, regs): (Vec<usize>, Vec<Reg>) = pointers
        .iter()
        .enumerate()
        .flat_map(|(slot, regs)| regs.iter().map(move |r| (slot, *r)))
        .unzip();
    let mut out = vec![Vec::new(); pointers.len()];
    for (slot, ints) in owners.into_iter().zip(loads_through(prog, f, &regs).ints) {
        out[slot].extend(ints);
    }
    for l in &mut out {
        l.sort_unstable();
        l.dedup();
    }
    out
}

/// The variables a pointer named `name` points at, with the offset of each from where it
/// points: the integers `through` lists (the offsets and sizes `f` reads through the
/// registers `pointer` it loads the pointer into), `*name@OFFSET`, at most
/// [`MAX_ELEMENTS`]; and when it is a string, the bytes after its first, `*name#K`. A
/// `char` pointer read at its start walks a string, most often: the bytes after that one
/// too, each read only while the string lasts. So does one passed as a string to the C
/// library (`strcmp(name, ...)`).
fn pointee_vars(
    prog: &Program,
    f: &augur_ir::Function,
    name: &str,
    mut through: Vec<(u64, u8)>,
    pointer: &[Reg],
) -> Vec<(Var, u64)> {
    let string =
        through.contains(&(0, 1)) || crate::string_args::passed_as_string(prog, f, pointer);
    if string && !through.contains(&(0, 1)) {
        through.insert(0, (0, 1));
    }
    let bytes = (1..=STRING_BYTES).filter(|_| string).map(|k| Var {
        name: format!("*{name}#{k}"),
        size: 1,
    });
    let elements = through.into_iter().take(MAX_ELEMENTS).map(|(off, size)| {
        let var = Var {
            name: format!("*{name}@{off}"),
            size,
        };
        (var, off)
    });
    elements.chain(bytes.map(|v| (v, 0))).collect()
}

/// A variable a pointer global points at (`*g@OFFSET`, `*g#K`), as one function reads it.
struct GlobalPointee {
    /// The variable.
    var: Var,
    /// The pointer global.
    global: GlobalId,
    /// Its bytes' offset from where the global points.
    offset: u64,
}

/// The variables that the pointer globals `f` reads point at ([`pointee_vars`], as for a
/// local pointer: the integers `f` reads through it at constant offsets, and a string's
/// bytes, a string it passes to the C library included): a global of the user's,
/// writable, defined, of pointer type, loaded whole as a pointer by `f`. Globals always
/// hold a value (the pointer may be null: the predicate reads 0 then, see
/// [`crate::names`]).
fn global_pointees(prog: &Program, f: &augur_ir::Function) -> Vec<GlobalPointee> {
    let mut pointers: Vec<(GlobalId, Vec<Reg>)> = Vec::new();
    for inst in &f.insts {
        let Inst::Load {
            dst,
            addr: Operand::Const(c),
            ty,
        } = inst
        else {
            continue;
        };
        let augur_ir::Const::Addr {
            base: augur_ir::AddrBase::Global(g),
            offset: 0,
        } = **c
        else {
            continue;
        };
        let global = &prog.globals[g.0 as usize];
        let pointer_global = prog.ty(global.ty).ty == Ty::Ptr && prog.ty(*ty).ty == Ty::Ptr;
        if !pointer_global
            || global.init.is_none()
            || global.is_constant
            || !user_identifier(&global.name)
        {
            continue;
        }
        match pointers.iter_mut().find(|(h, _)| *h == g) {
            Some((_, regs)) => regs.push(*dst),
            None => pointers.push((g, vec![*dst])),
        }
    }
    let (globals, regs): (Vec<GlobalId>, Vec<Vec<Reg>>) = pointers.into_iter().unzip();
    let through = pointee_loads(prog, f, &regs);
    globals
        .into_iter()
        .zip(regs.iter().zip(through))
        .flat_map(|(global, (regs, through))| {
            let name = &prog.globals[global.0 as usize].name;
            pointee_vars(prog, f, name, through, regs)
                .into_iter()
                .map(move |(var, offset)| GlobalPointee {
                    var,
                    global,
                    offset,
                })
        })
        .collect()
}

/// Per function: the stack slots of integer source variables, the integer elements of
/// local aggregates that the code reads at a constant offset (named `s@OFFSET`, at most
/// [`MAX_ELEMENTS`] per aggregate), and the integers at a constant offset from where a
/// local pointer points that the code reads through it (named `*p@OFFSET`, as many),
/// and the elements it reads at an index an integer local holds ([`crate::indexed`]:
/// `buf[i*1]@0`, `*p[i*8]@4`, the bytes `*(*argv[i*8])#K` of a pointer element's
/// string). A slot is a scalar when the code loads it only whole, as an integer of the
/// slot's size, and a pointer when it loads it only whole, as a pointer.
fn int_locals(prog: &Program, func: FuncId) -> (Vec<LocalVar>, Vec<IndexedElement>) {
    let f = prog.func(func);
    let allocas: Vec<(Reg, u64, &str)> = f
        .insts
        .iter()
        .filter_map(|inst| match inst {
            Inst::Alloca {
                dst,
                elem_size,
                count: Operand::Imm { value: 1, .. },
                var: Some(name),
                ..
            } => {
                let name = name.strip_suffix(".addr").unwrap_or(name);
                user_identifier(name).then_some((*dst, *elem_size, name))
            }
            _ => None,
        })
        .collect();
    let bases: Vec<Reg> = allocas.iter().map(|a| a.0).collect();
    let names: Vec<(Reg, &str)> = allocas.iter().map(|a| (a.0, a.2)).collect();
    let mut held = Vec::new();
    let loads = loads_through(prog, f, &bases);
    let pointees = pointee_loads(prog, f, &loads.pointers);
    let mut out = Vec::new();
    for (((base, slot_size, name), reads), (pointer, through)) in allocas
        .into_iter()
        .zip(loads.ints)
        .zip(loads.pointers.iter().zip(pointees))
    {
        let reads: Vec<(u64, u8)> = reads
            .into_iter()
            .filter(|(off, size)| off + u64::from(*size) <= slot_size)
            .collect();
        let whole = Slot {
            base,
            element: None,
        };
        if let [(0, size)] = reads[..] {
            if u64::from(size) == slot_size {
                let var = Var {
                    name: name.to_string(),
                    size,
                };
                out.push(LocalVar {
                    slot: whole,
                    var,
                    reach: Reach::InSlot,
                });
                held.push((base, Held::Int(size)));
                continue;
            }
        }
        if reads.is_empty() && slot_size == 8 && !pointer.is_empty() {
            for (var, off) in pointee_vars(prog, f, name, through, pointer) {
                out.push(LocalVar {
                    slot: whole,
                    var,
                    reach: Reach::Pointee(off),
                });
            }
            held.push((base, Held::Pointer));
            continue;
        }
        for (off, size) in reads.into_iter().take(MAX_ELEMENTS) {
            let var = Var {
                name: format!("{name}@{off}"),
                size,
            };
            let element = Some(off);
            out.push(LocalVar {
                slot: Slot { base, element },
                var,
                reach: Reach::InSlot,
            });
        }
        held.push((base, Held::Aggregate));
    }
    let name = |r: Reg| names.iter().find(|(b, _)| *b == r).map_or("", |(_, n)| *n);
    // (an element indexed by a global a local's name hides is left out: its name in C
    // would mean the local)
    let elements: Vec<IndexedElement> = crate::indexed::elements(prog, f, &held)
        .into_iter()
        .filter(|e| match e.index.var {
            IndexVar::Local(_) => true,
            IndexVar::Global(g) => {
                let global = &prog.globals[g.0 as usize].name;
                !names.iter().any(|(_, n)| n == global)
            }
        })
        .collect();
    for (e, read) in elements.iter().enumerate() {
        let base = name(read.base);
        let index = Indexing {
            var: match read.index.var {
                IndexVar::Local(slot) => name(slot),
                IndexVar::Global(g) => &prog.globals[g.0 as usize].name,
            },
            delta: read.index.delta,
            scale: read.scale,
        }
        .name();
        let element = match read.pointer {
            true => format!("*{base}[{index}]"),
            false => format!("{base}[{index}]"),
        };
        let vars: Vec<Var> = match read.element {
            Element::Int(off, size) => vec![Var {
                name: format!("{element}@{off}"),
                size,
            }],
            Element::String => (0..=STRING_BYTES)
                .map(|k| Var {
                    name: format!("*({element})#{k}"),
                    size: 1,
                })
                .collect(),
        };
        for var in vars {
            out.push(LocalVar {
                slot: Slot {
                    base: read.base,
                    element: None,
                },
                var,
                reach: Reach::Element(e),
            });
        }
    }
    (out, elements)
}

/// A function's integer locals, which of them are assigned where, and which globals its
/// variables hide.
struct Locals {
    slots: Vec<LocalVar>,
    /// The elements at an index its variables are in.
    elements: Vec<IndexedElement>,
    /// Where each slot is assigned on every path: the variables' slots, in order, then
    /// the indexing locals' of the elements indexed by a local.
    assigned: Assigned,
    /// Per element: the position of its indexing local's slot in `assigned` (None for a
    /// global, always assigned).
    index_slots: Vec<Option<usize>>,
    /// Where each named stack slot of the function (a local or parameter, whether
    /// recorded or not) may be assigned (on some path), as a whole or at its start.
    maybe: Assigned,
    /// Per slot: the other named stack slots holding a variable of its name (indices
    /// into `maybe`'s). Two slots of one function may (`for (int i ...)` twice); where
    /// another may hold a value, the name in the C text may mean either, and neither is
    /// a variable there.
    namesakes: Vec<Vec<usize>>,
    /// Per global (as the watcher lists them): whether a local or parameter of the
    /// function has its name and so hides it, wherever in the function.
    hidden: Vec<bool>,
    /// What the pointer globals it reads point at, but those a local's name hides.
    global_pointees: Vec<GlobalPointee>,
}

impl Locals {
    fn new(prog: &Program, func: FuncId, globals: &[(Var, u64)]) -> Locals {
        let f = prog.func(func);
        let (slots, elements) = int_locals(prog, func);
        // The slots followed: each variable's, then each element's indexing local's.
        let mut which: Vec<Slot> = slots.iter().map(|l| l.slot).collect();
        let index_slots = elements
            .iter()
            .map(|e| match e.index.var {
                IndexVar::Local(base) => {
                    which.push(Slot {
                        base,
                        element: None,
                    });
                    Some(which.len() - 1)
                }
                IndexVar::Global(_) => None,
            })
            .collect();
        let named: Vec<(Reg, &str)> = f
            .insts
            .iter()
            .filter_map(|i| match i {
                Inst::Alloca {
                    dst, var: Some(v), ..
                } => Some((*dst, v.strip_suffix(".addr").unwrap_or(v))),
                _ => None,
            })
            .collect();
        let namesakes = slots
            .iter()
            .map(|l| {
                let index = match l.reach {
                    Reach::Element(e) => match elements[e].index.var {
                        IndexVar::Local(slot) => Some(slot),
                        IndexVar::Global(_) => None,
                    },
                    _ => None,
                };
                let own = [Some(l.slot.base), index];
                let ids = l.var.identifiers();
                (0..named.len())
                    .filter(|&j| !own.contains(&Some(named[j].0)) && ids.contains(&named[j].1))
                    .collect()
            })
            .collect();
        let whole: Vec<Slot> = named
            .iter()
            .map(|(base, _)| Slot {
                base: *base,
                element: None,
            })
            .collect();
        let global_pointees = global_pointees(prog, f)
            .into_iter()
            .filter(|p| !named.iter().any(|(_, n)| *n == p.var.base()))
            .collect();
        Locals {
            global_pointees,
            assigned: Assigned::new(prog, f, &which, Paths::Every),
            index_slots,
            elements,
            maybe: Assigned::new(prog, f, &whole, Paths::Some),
            namesakes,
            hidden: globals
                .iter()
                .map(|(g, _)| named.iter().any(|(_, n)| *n == g.base()))
                .collect(),
            slots,
        }
    }

    /// Which slots hold, before instruction `pc`, a value the program wrote, under a
    /// name that means them.
    fn readable(&self, f: &augur_ir::Function, pc: u32) -> Vec<bool> {
        let maybe = self.maybe.before(f, pc);
        let assigned = self.assigned.before(f, pc);
        (0..self.slots.len())
            .map(|i| {
                let index_assigned = match self.slots[i].reach {
                    Reach::Element(e) => self.index_slots[e].is_none_or(|k| assigned[k]),
                    _ => true,
                };
                assigned[i] && index_assigned && !self.namesakes[i].iter().any(|&j| maybe[j])
            })
            .collect()
    }
}

/// The observer behind [`run`].
struct Watcher {
    prog: Rc<Program>,
    user_files: Vec<bool>,
    globals: Vec<(Var, u64)>,
    /// Every global's address.
    global_addrs: Vec<u64>,
    locals: FxHashMap<FuncId, Rc<Locals>>,
    entered: rustc_hash::FxHashSet<FuncId>,
    /// Per frame: the (file, line) it last ran.
    lines: Vec<Option<(FileId, u32)>>,
    visits: FxHashMap<(FileId, u32), u32>,
    rec: Rc<RefCell<Recording>>,
}

impl Watcher {
    fn new(
        prog: &Rc<Program>,
        globals: Vec<(Var, u64)>,
        global_addrs: Vec<u64>,
    ) -> (Self, Rc<RefCell<Recording>>) {
        let rec = Rc::new(RefCell::new(Recording::default()));
        let user_files = prog
            .files
            .iter()
            .map(|f| augur_engine::is_user_file(f))
            .collect();
        let r = Watcher {
            prog: prog.clone(),
            user_files,
            globals,
            global_addrs,
            locals: FxHashMap::default(),
            entered: Default::default(),
            lines: Vec::new(),
            visits: FxHashMap::default(),
            rec: rec.clone(),
        };
        (r, rec)
    }

    fn locals_of(&mut self, func: FuncId) -> Rc<Locals> {
        let (prog, globals) = (&self.prog, &self.globals);
        self.locals
            .entry(func)
            .or_insert_with(|| Rc::new(Locals::new(prog, func, globals)))
            .clone()
    }

    /// The variables in scope in `st`'s top frame, before instruction `pc`, with their
    /// current bytes: the globals no variable of the function hides, what the pointer
    /// globals it reads point at, and the locals assigned on every path to `pc` (see
    /// [`Locals::readable`]).
    fn snapshot(&mut self, st: &State, func: FuncId, pc: u32) -> Vec<(Var, Vec<Byte>)> {
        let regs = &st.frame().regs;
        let locals = self.locals_of(func);
        let f = self.prog.func(func);
        let assigned = locals.readable(f, pc);
        let mut element_addrs: Vec<Option<Option<u64>>> = vec![None; locals.elements.len()];
        let slots: Vec<(Var, u64)> = locals
            .slots
            .iter()
            .zip(assigned)
            .filter(|(_, a)| *a)
            .filter_map(|(l, _)| {
                let Some(Value::Con { bits, .. }) = regs.get(l.slot.base.0 as usize) else {
                    return None;
                };
                let addr = *bits as u64 + l.slot.element.unwrap_or(0);
                let addr = match l.reach {
                    Reach::InSlot => addr,
                    Reach::Pointee(off) => pointer_at(st, addr)?.checked_add(off)?,
                    // (the string bytes of one element share its address: found once)
                    Reach::Element(e) => {
                        (*element_addrs[e].get_or_insert_with(|| {
                            let read = &locals.elements[e];
                            let index = match read.index.var {
                                IndexVar::Local(slot) => match regs.get(slot.0 as usize) {
                                    Some(Value::Con { bits, .. }) => *bits as u64,
                                    _ => return None,
                                },
                                IndexVar::Global(g) => self.global_addrs[g.0 as usize],
                            };
                            element_at(st, f, pc, read, addr, index)
                        }))?
                    }
                };
                Some((l.var.clone(), addr))
            })
            .collect();
        let globals = self
            .globals
            .iter()
            .zip(&locals.hidden)
            .filter(|(_, hidden)| !**hidden)
            .map(|(g, _)| g);
        let global_pointees: Vec<(Var, u64)> = locals
            .global_pointees
            .iter()
            .filter_map(|p| {
                let at = pointer_at(st, self.global_addrs[p.global.0 as usize])?;
                Some((p.var.clone(), at.checked_add(p.offset)?))
            })
            .collect();
        slots
            .iter()
            .chain(&global_pointees)
            .chain(globals)
            .filter_map(|(v, addr)| {
                let obj = st.mem().find(*addr)?;
                let off = addr - obj.base;
                // A string byte `*p#K` is made of the string's first K + 1 bytes.
                let place = v.place();
                let string = place.string_bytes();
                let n = string.unwrap_or(u64::from(v.size));
                // (not one whose bytes are still reads of an array written at a symbolic
                // offset: an observer cannot make them)
                let bytes = (off + n <= obj.size).then(|| obj.peek(off, n)).flatten()?;
                // An aggregate's element or a string byte only when it depends on the
                // input (a string byte: itself, not only the bytes before it): the others
                // would only multiply the predicates over constants.
                let own = if string.is_some() {
                    &bytes[bytes.len() - 1..]
                } else {
                    &bytes[..]
                };
                let symbolic = own.iter().any(|b| matches!(b, Byte::S(_)));
                let scalar = matches!(place, Place::Scalar(_));
                (symbolic || scalar).then(|| (v.clone(), bytes))
            })
            .collect()
    }
}

/// Where the bytes of the element `read` reads are, seen from instruction `pc` of `f`
/// in `st`'s top frame (`slot`: the address of its aggregate's or pointer's slot; `at`:
/// its index variable's): only where the program is about to read that element itself,
/// and its index is known.
fn element_at(
    st: &State,
    f: &augur_ir::Function,
    pc: u32,
    read: &IndexedElement,
    slot: u64,
    at: u64,
) -> Option<u64> {
    if !read.ahead_of(f, pc) {
        return None;
    }
    let start = match read.pointer {
        true => pointer_at(st, slot)?,
        false => slot,
    };
    let size = u32::from(read.index.size);
    let obj = st.mem().find(at)?;
    let off = at - obj.base;
    let raw = (off + u64::from(size) <= obj.size)
        .then(|| obj.read_known(off, u64::from(size)))
        .flatten()? as u64;
    let index = read.index.value(raw);
    let element = start.wrapping_add(index.wrapping_mul(read.scale));
    match read.element {
        Element::Int(off, _) => element.checked_add(off),
        Element::String => pointer_at(st, element),
    }
}

/// The pointer stored at `addr`, when its 8 bytes are known and it is not null.
fn pointer_at(st: &State, addr: u64) -> Option<u64> {
    let obj = st.mem().find(addr)?;
    let off = addr - obj.base;
    let ptr = (off + 8 <= obj.size)
        .then(|| obj.read_known(off, 8))
        .flatten()?;
    (ptr != 0).then_some(ptr as u64)
}

impl Observer for Watcher {
    fn on_instruction(&mut self, st: &State, func: FuncId, pc: u32) {
        let depth = st.frames().len();
        self.lines.resize(depth, None);
        let Some(loc) = self.prog.loc(self.prog.func(func).locs[pc as usize]) else {
            return;
        };
        if !self.user_files[loc.file.0 as usize] || loc.line == 0 {
            return;
        }
        let here = Some((loc.file, loc.line));
        if std::mem::replace(&mut self.lines[depth - 1], here) == here {
            return;
        }
        let n = self.visits.entry((loc.file, loc.line)).or_insert(0);
        *n += 1;
        if !recorded_visit(*n) {
            return;
        }
        let instance = *n;
        let (file, line) = (loc.file, loc.line);
        let vars = self.snapshot(st, func, pc);
        let mut rec = self.rec.borrow_mut();
        let branches = rec.branches;
        rec.visits.push(Visit {
            file,
            line,
            instance,
            call_depth: depth as u32,
            branches,
            vars,
        });
    }

    fn on_branch(&mut self, _st: &State, _cond: ExprId, _taken: bool) {
        self.rec.borrow_mut().branches += 1;
    }

    fn on_call(&mut self, _st: &State, func: FuncId, _args: &[Value]) {
        let mut rec = self.rec.borrow_mut();
        rec.calls += 1;
        if self.prog.func(func).is_defined() && self.entered.insert(func) {
            rec.functions += 1;
        }
    }

    fn on_terminate(&mut self, st: &State, outcome: &Outcome) {
        let mut rec = self.rec.borrow_mut();
        rec.constraints = st.constraints().to_vec();
        rec.seed = st.seed_values().clone();
        rec.objects = st
            .symbolics()
            .iter()
            .map(|s| (s.name.clone(), s.array, s.size))
            .collect();
        rec.instructions = st.instructions();
        rec.outcome = Some(outcome.clone());
    }
}

/// A variable's value at a visit: its expression (in the run's pool) and seed value.
#[derive(Clone, Debug)]
pub struct VarValue {
    /// The variable.
    pub var: Var,
    /// Its value as an expression of the input (a constant when it does not depend on it).
    pub expr: ExprId,
    /// Its value on the seed.
    pub seed: u128,
}

impl VarValue {
    /// Does it depend on the input?
    pub fn is_symbolic(&self, pool: &ExprPool) -> bool {
        pool.as_const(self.expr).is_none()
    }
}

/// The values of a visit's variables as expressions of the input.
pub fn values(pool: &mut ExprPool, seed: &Assignment, visit: &Visit) -> Vec<VarValue> {
    visit
        .vars
        .iter()
        .map(|(var, bytes)| {
            let expr = match var.place().string_bytes() {
                Some(_) => string_byte_expr(pool, bytes),
                None => scalar_expr(pool, bytes, var.size),
            };
            let seed = pool.eval(expr, seed);
            VarValue {
                var: var.clone(),
                expr,
                seed,
            }
        })
        .collect()
}

/// The expression of an integer of `size` bytes made of `bytes`.
fn scalar_expr(pool: &mut ExprPool, bytes: &[Byte], size: u8) -> ExprId {
    match augur_engine::bytes_to_scalar(pool, bytes, u32::from(size) * 8) {
        Value::Sym(e) => e,
        Value::Con { bits, width } => pool.constant(bits, width),
        other => unreachable!("an integer variable read as {other:?}"),
    }
}

/// The expression of a string byte made of the string's first bytes `bytes`: the last
/// one if none before it is 0, else 0 (as its C text, [`Place::c`], reads it).
fn string_byte_expr(pool: &mut ExprPool, bytes: &[Byte]) -> ExprId {
    let (last, before) = bytes.split_last().expect("a string byte is read");
    let zero = pool.constant(0, 8);
    let mut lasts = pool.constant(1, 1);
    for b in before {
        let b = scalar_expr(pool, std::slice::from_ref(b), 1);
        let ended = pool.eq(b, zero);
        let on = pool.not(ended);
        lasts = pool.bool_and(lasts, on);
    }
    let value = scalar_expr(pool, std::slice::from_ref(last), 1);
    pool.ite(lasts, value, zero)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two `for (int i ...)` in sequence, a `k` in each branch of an `if` (f), and an
    /// `i` assigned on one path only beside one assigned before (g).
    const NAMESAKES: &str = "int f(int x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  for (int i = 0; i < n; i++)
    s -= i;
  if (x) {
    int k = 1;
    s += k;
  } else {
    int k = 2;
    s += k;
  }
  return s;
}
int g(int c) {
  int s = 0;
  for (int i = 0; i < c; i++)
    s += i;
  {
    int i;
    if (c > 5)
      i = 1;
    s += c;
  }
  return s;
}
";

    #[test]
    fn a_name_two_slots_hold_is_read_only_where_no_other_of_them_may_be_assigned() {
        let prog = crate::assigned::tests::compiled(NAMESAKES);
        let readable_at = |name: &str, line: u32| -> Vec<String> {
            let func = prog.func_named(name).unwrap();
            let f = prog.func(func);
            let locals = Locals::new(&prog, func, &[]);
            let pc = (0..f.insts.len() as u32)
                .find(|&pc| {
                    prog.loc(f.locs[pc as usize])
                        .is_some_and(|l| l.line == line)
                })
                .unwrap();
            let mut names: Vec<String> = locals
                .slots
                .iter()
                .zip(locals.readable(f, pc))
                .filter(|(_, r)| *r)
                .map(|(l, _)| l.var.name.clone())
                .collect();
            names.sort_unstable();
            names
        };
        // The first loop's `i`: the second's is not assigned yet on any path.
        assert_eq!(readable_at("f", 4), ["i", "n", "s", "x"]);
        // Both `i`s are assigned in the second loop: which one it reads is not known.
        assert_eq!(readable_at("f", 6), ["n", "s", "x"]);
        // Each branch's `k`: the other branch's never reaches it.
        assert_eq!(readable_at("f", 9), ["k", "n", "s", "x"]);
        assert_eq!(readable_at("f", 12), ["k", "n", "s", "x"]);
        // The first loop's `i` is assigned, and the inner `i` may be: the C text means
        // the inner one, so neither.
        assert_eq!(readable_at("g", 24), ["c", "s"]);
        // A global `s` is hidden in f (its local `s`), a global `total` is not.
        let var = |name: &str| Var {
            name: name.into(),
            size: 4,
        };
        let globals = [(var("s"), 0), (var("total@4"), 0)];
        let f = Locals::new(&prog, prog.func_named("f").unwrap(), &globals);
        assert_eq!(f.hidden, [true, false]);
    }

    #[test]
    fn a_string_byte_reads_as_zero_past_the_string_s_end() {
        let mut pool = ExprPool::new();
        let a = pool.new_array("arg", 3);
        let bytes: Vec<Byte> = (0..3u64)
            .map(|i| {
                let arr = pool.array_sym(a);
                let at = pool.constant(u128::from(i), 64);
                Byte::S(pool.select(arr, at))
            })
            .collect();
        let e = string_byte_expr(&mut pool, &bytes);
        let value = |pool: &ExprPool, arg: &[u8]| {
            let mut s = Assignment::default();
            s.set(a, arg.to_vec());
            pool.eval(e, &s)
        };
        assert_eq!(value(&pool, b"ab7"), u128::from(b'7'));
        assert_eq!(value(&pool, b"a\x007"), 0, "ended at byte 1");
        assert_eq!(value(&pool, b"\x00b7"), 0, "ended at byte 0");
    }

    #[test]
    fn every_early_visit_then_four_per_doubling_are_recorded() {
        let recorded: Vec<u32> = (1..=70).filter(|&n| recorded_visit(n)).collect();
        let mut want: Vec<u32> = (1..=16).collect();
        want.extend([20, 24, 28, 32, 40, 48, 56, 64]);
        assert_eq!(recorded, want);
        assert!(recorded_visit(4096) && !recorded_visit(5120));
    }
}
