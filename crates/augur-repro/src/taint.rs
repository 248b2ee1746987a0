//! Intraprocedural data flow over one lowered function at -O0, where variables live in
//! stack slots: which registers may carry program input (taint from parameters and
//! input-reading calls, through registers and slots), which slots a register's value was
//! read from, which values went through a non-linear operation, and which calls' results
//! a value was computed from.

use augur_ir::{
    AddrBase, Callee, Const, FuncId, Function, GlobalId, Inst, IntOp, Operand, Program, Reg,
};
use rustc_hash::FxHashSet;

/// A memory location the analysis tracks: a stack slot (its alloca register) or a global.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// The object of an `alloca`.
    Stack(Reg),
    /// A global variable.
    Global(GlobalId),
}

/// Functions whose results, and the buffers they fill, are program input.
pub const INPUT_FUNCTIONS: &[&str] = &[
    "read",
    "fread",
    "fgets",
    "gets",
    "getline",
    "getchar",
    "fgetc",
    "getc",
    "getc_unlocked",
    "fgetc_unlocked",
    "getchar_unlocked",
    "fread_unlocked",
    "fgets_unlocked",
    "getdelim",
    "pread",
    "recv",
    "recvfrom",
    "scanf",
    "fscanf",
    "sscanf",
    "augur_make_symbolic",
    "klee_make_symbolic",
    "augur_int",
    "klee_int",
    "augur_range",
    "klee_range",
];

/// The facts computed for one function.
pub struct Flow {
    /// Per register: may carry input.
    pub tainted: Vec<bool>,
    /// Slots that may hold input.
    pub tainted_slots: FxHashSet<Slot>,
    /// Per register: the slots its value was computed from (through loads).
    pub reads: Vec<FxHashSet<Slot>>,
    /// Per register: its value went through a non-linear or bit-mixing operation since it
    /// was loaded (multiplication, division, remainder, shift, xor, floating-point
    /// multiplication or division).
    pub nonlinear: Vec<bool>,
    /// Per register: the slot it points into, when it is derived from one.
    pub base: Vec<Option<Slot>>,
    /// Per register: the functions whose results its value was computed from (through
    /// registers, not memory).
    pub results: Vec<FxHashSet<FuncId>>,
}

fn is_nonlinear(inst: &Inst) -> bool {
    match inst {
        Inst::Bin { op, .. } => matches!(
            op,
            IntOp::Mul
                | IntOp::UDiv
                | IntOp::SDiv
                | IntOp::URem
                | IntOp::SRem
                | IntOp::Shl
                | IntOp::LShr
                | IntOp::AShr
                | IntOp::Xor
        ),
        Inst::FBin { op, .. } => !matches!(op, augur_ir::FpOp::Add | augur_ir::FpOp::Sub),
        _ => false,
    }
}

impl Flow {
    /// Run the analysis on the defined function `f` of `prog` to a fixed point.
    pub fn compute(prog: &Program, f: &Function) -> Flow {
        let n = f.num_regs as usize;
        let mut flow = Flow {
            tainted: vec![false; n],
            tainted_slots: FxHashSet::default(),
            reads: vec![FxHashSet::default(); n],
            nonlinear: vec![false; n],
            base: vec![None; n],
            results: vec![FxHashSet::default(); n],
        };
        for (r, _) in &f.params {
            flow.tainted[r.0 as usize] = true;
        }
        while flow.pass(prog, f) {}
        flow
    }

    /// Is the operand tainted?
    pub fn op_tainted(&self, o: &Operand) -> bool {
        matches!(o, Operand::Reg(r) if self.tainted[r.0 as usize])
    }

    /// The slots an operand's value was computed from.
    pub fn op_reads(&self, o: &Operand) -> FxHashSet<Slot> {
        match o {
            Operand::Reg(r) => self.reads[r.0 as usize].clone(),
            _ => FxHashSet::default(),
        }
    }

    fn op_base(&self, o: &Operand) -> Option<Slot> {
        match o {
            Operand::Reg(r) => self.base[r.0 as usize],
            Operand::Const(c) => match c.as_ref() {
                Const::Addr {
                    base: AddrBase::Global(g),
                    ..
                } => Some(Slot::Global(*g)),
                _ => None,
            },
            Operand::Imm { .. } => None,
        }
    }

    /// The functions whose results an operand's value was computed from.
    pub fn op_results(&self, o: &Operand) -> FxHashSet<FuncId> {
        match o {
            Operand::Reg(r) => self.results[r.0 as usize].clone(),
            _ => FxHashSet::default(),
        }
    }

    fn op_nonlinear(&self, o: &Operand) -> bool {
        matches!(o, Operand::Reg(r) if self.nonlinear[r.0 as usize])
    }

    fn taint_slot_of(&mut self, o: &Operand) -> bool {
        match self.op_base(o) {
            Some(s) => self.tainted_slots.insert(s),
            None => false,
        }
    }

    /// One pass over the instructions; true if anything changed.
    fn pass(&mut self, prog: &Program, f: &Function) -> bool {
        let mut changed = false;
        for inst in &f.insts {
            let ops = inst.operands();
            let mut taint = ops.iter().any(|o| self.op_tainted(o));
            let mut reads: FxHashSet<Slot> = ops.iter().flat_map(|o| self.op_reads(o)).collect();
            let mut nonlinear = is_nonlinear(inst) || ops.iter().any(|o| self.op_nonlinear(o));
            let mut base = None;
            let mut results: FxHashSet<FuncId> =
                ops.iter().flat_map(|o| self.op_results(o)).collect();
            match inst {
                Inst::Alloca { dst, .. } => {
                    base = Some(Slot::Stack(*dst));
                    taint = false;
                    reads.clear();
                }
                Inst::Gep { base: b, .. } => base = self.op_base(b),
                Inst::Cast { a, .. } => base = self.op_base(a),
                Inst::Phi { incoming, .. } => {
                    for (_, o) in incoming {
                        results.extend(self.op_results(o));
                        taint |= self.op_tainted(o);
                        reads.extend(self.op_reads(o));
                        nonlinear |= self.op_nonlinear(o);
                    }
                }
                Inst::Load { addr, .. } => {
                    let slot = self.op_base(addr);
                    if let Some(s) = slot {
                        taint |= self.tainted_slots.contains(&s);
                        reads.insert(s);
                    }
                    nonlinear = false;
                    results.clear();
                }
                Inst::Store { addr, val, .. } if self.op_tainted(val) => {
                    changed |= self.taint_slot_of(addr);
                }
                Inst::Call { callee, args, .. } => {
                    let name = match callee {
                        Callee::Direct(id) => prog.func(*id).name.as_str(),
                        _ => "",
                    };
                    let input = INPUT_FUNCTIONS.contains(&name);
                    let user = matches!(callee, Callee::Direct(id) if crate::hard::is_user_function(prog, *id));
                    if input || user {
                        for a in args {
                            changed |= self.taint_slot_of(a);
                        }
                    }
                    taint |= input || user || crate::hard::ENVIRONMENT.contains(&name);
                    if let Callee::Direct(id) = callee {
                        results = FxHashSet::from_iter([*id]);
                    }
                }
                _ => {}
            }
            if let Some(d) = inst.dst() {
                let i = d.0 as usize;
                if taint && !self.tainted[i] {
                    self.tainted[i] = true;
                    changed = true;
                }
                if nonlinear && !self.nonlinear[i] {
                    self.nonlinear[i] = true;
                    changed = true;
                }
                if base.is_some() && self.base[i] != base {
                    self.base[i] = base;
                    changed = true;
                }
                if !results.is_subset(&self.results[i]) {
                    self.results[i].extend(results);
                    changed = true;
                }
                if !reads.is_subset(&self.reads[i]) {
                    self.reads[i].extend(reads);
                    changed = true;
                }
            }
        }
        changed
    }
}
