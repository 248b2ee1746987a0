//! Recording one seeded execution: every instruction executed, with the values of the
//! registers it read, the address of each load and store, call arguments, and whether
//! it touched a symbolic value (one depending on the input bytes).

use crate::printf;
use augur_engine::{Byte, Memory};
use augur_engine::{Observer, Outcome, State, Value};
use augur_expr::{Assignment, ExprId};
use augur_ir::{FuncId, Inst, LocId, Operand, Program};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// One executed instruction.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its function.
    pub func: FuncId,
    /// Its index in the function.
    pub pc: u32,
    /// The function activation (call instance) it ran in; unique over the trace.
    pub act: u32,
    /// Number of frames on the stack when it ran.
    pub depth: u32,
    /// Where it is in the user's source: its own location, or for code in augur's libc
    /// models the user's call site.
    pub user_loc: LocId,
    /// Per operand (in [`operands`] order): the value of a register operand.
    pub ops: Vec<Option<Value>>,
    /// For a call: the function called and the argument values.
    pub call: Option<(FuncId, Vec<Value>)>,
    /// For a load or store: the address and the number of bytes.
    pub mem: Option<(Value, u64)>,
    /// Did it read or produce a value depending on the input?
    pub sym: bool,
    /// The value it produced, when that depends on the input.
    pub result: Option<ExprId>,
}

/// How the run ended.
#[derive(Clone, Debug)]
pub struct End {
    /// Bytes written to standard output (symbolic ones as expressions).
    pub stdout: Vec<Byte>,
    /// Number of bytes written to standard error.
    pub stderr_len: usize,
    /// The outcome.
    pub outcome: Outcome,
    /// The input bytes (the seed) per symbolic array.
    pub seed_values: Assignment,
    /// The address space at the end (to find the object a faulting address overflowed).
    pub mem: Memory,
}

/// A source variable to watch at a source line (`--criterion FILE:LINE:VAR`).
#[derive(Clone, Debug)]
pub struct Watch {
    /// Per file of the program: is it the file named?
    pub files: Vec<bool>,
    /// The line.
    pub line: u32,
    /// The name of the variable (a local of the function running the line).
    pub var: String,
}

impl Watch {
    /// Watch `var` at `file:line` of `prog` (a FILE names the program's files of that
    /// path or file name); an error when no code of `prog` is on that line.
    pub fn at(prog: &Program, file: &str, line: u32, var: &str) -> Result<Watch, String> {
        let files = files_named(prog, file);
        let has_code = prog.functions.iter().flat_map(|f| &f.locs).any(|l| {
            prog.loc(*l)
                .is_some_and(|s| s.line == line && files[s.file.0 as usize])
        });
        if !has_code {
            return Err(format!("{file}:{line}: no code on this line"));
        }
        Ok(Watch {
            files,
            line,
            var: var.to_string(),
        })
    }
}

/// The watched variable's bytes when its line last began executing.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The first trace entry of that visit of the line.
    pub entry: u32,
    /// The variable's address.
    pub addr: u64,
    /// Its bytes at that moment.
    pub bytes: Vec<Byte>,
}

/// A recorded execution.
#[derive(Default, Debug)]
pub struct Trace {
    /// Instructions in execution order.
    pub entries: Vec<Entry>,
    /// Base address of the variadic-argument area of each activation that has one.
    pub varargs: FxHashMap<u32, u64>,
    /// How it ended (None if it never did).
    pub end: Option<End>,
    /// The watched variable at its line's last visit.
    pub snapshot: Option<Snapshot>,
    /// Did the watched line execute at all?
    pub watched_line_ran: bool,
    /// Per call entry of a printf-family function (see [`printf::format_param`]): its
    /// format string, when that is concrete.
    pub formats: FxHashMap<u32, Vec<u8>>,
}

/// The observer recording a [`Trace`].
pub struct Tracer {
    prog: Rc<Program>,
    user_files: Vec<bool>,
    trace: Rc<RefCell<Trace>>,
    acts: Vec<u32>,
    /// Per frame (parallel to `acts`): the source line (file, line) it last ran, while
    /// watching a variable.
    lines: Vec<Option<(u32, u32)>>,
    next_act: u32,
    watch: Option<Watch>,
    /// Per activation: address and size of the watched variable's stack slot.
    slots: FxHashMap<u32, (u64, u64)>,
}

/// Does `v` depend on the input?
pub fn is_sym(v: &Value) -> bool {
    match v {
        Value::Sym(_) => true,
        Value::Agg(items) => items.iter().any(is_sym),
        Value::Con { .. } | Value::Wide { .. } => false,
    }
}

impl Tracer {
    /// A recorder for runs of `prog`, optionally watching a variable; the trace is
    /// filled in through the returned handle.
    pub fn new(prog: Rc<Program>, watch: Option<Watch>) -> (Self, Rc<RefCell<Trace>>) {
        let trace = Rc::new(RefCell::new(Trace::default()));
        let user_files = prog
            .files
            .iter()
            .map(|f| augur_engine::is_user_file(f))
            .collect();
        let rec = Tracer {
            prog,
            user_files,
            trace: trace.clone(),
            acts: Vec::new(),
            lines: Vec::new(),
            next_act: 0,
            watch,
            slots: FxHashMap::default(),
        };
        (rec, trace)
    }

    fn is_user(&self, l: LocId) -> bool {
        self.prog
            .loc(l)
            .is_some_and(|s| self.user_files[s.file.0 as usize])
    }

    /// The user-facing location of `pc` in the top frame of `st`.
    fn user_loc(&self, st: &State, pc: u32) -> LocId {
        let top = st.frames().len() - 1;
        let loc_at = |i: usize| {
            let f = &st.frames()[i];
            let at = if i == top { pc } else { f.pc.saturating_sub(1) };
            self.prog.func(f.func).locs[at as usize]
        };
        (0..=top)
            .rev()
            .map(loc_at)
            .find(|l| self.is_user(*l))
            .unwrap_or_else(|| loc_at(top))
    }

    /// Bring the activation stack in line with the state's frames; the current one.
    fn sync_activations(&mut self, st: &State) -> u32 {
        let depth = st.frames().len();
        self.acts.truncate(depth);
        self.lines.truncate(depth);
        while self.acts.len() < depth {
            let a = self.next_act;
            self.next_act += 1;
            if let Some(base) = st.frames()[self.acts.len()].varargs {
                self.trace.borrow_mut().varargs.insert(a, base);
            }
            self.acts.push(a);
            self.lines.push(None);
        }
        *self.acts.last().expect("a frame")
    }

    /// What the previous entry produced, now that it has run (same activation only).
    fn finish_previous(&mut self, st: &State, act: u32) {
        let prog = self.prog.clone();
        let mut trace = self.trace.borrow_mut();
        let Some(prev) = trace.entries.last_mut().filter(|e| e.act == act) else {
            return;
        };
        let frame = st.frame();
        let func = prog.func(prev.func);
        let inst = &func.insts[prev.pc as usize];
        if let Some(d) = inst.dst() {
            if let Value::Sym(e) = &frame.regs[d.0 as usize] {
                prev.result = Some(*e);
            }
            prev.sym |= is_sym(&frame.regs[d.0 as usize]);
        }
        if inst.is_terminator() {
            // The phi nodes of the block entered were assigned by the jump.
            let start = func.blocks[frame.block.0 as usize].start as usize;
            for i in &func.insts[start..] {
                let Inst::Phi { dst, .. } = i else { break };
                prev.sym |= is_sym(&frame.regs[dst.0 as usize]);
            }
        }
        if let (Inst::Alloca { var: Some(v), .. }, Some(w)) = (inst, &self.watch) {
            // Parameters live in stack slots named `NAME.addr`.
            if **v == *w.var || v.strip_suffix(".addr") == Some(w.var.as_str()) {
                if let (Some(Value::Con { bits, .. }), Inst::Alloca { elem_size, .. }) =
                    (inst.dst().map(|d| &frame.regs[d.0 as usize]), inst)
                {
                    let count = match prev.ops.first() {
                        Some(Some(Value::Con { bits, .. })) => *bits as u64,
                        _ => 1,
                    };
                    self.slots.insert(act, (*bits as u64, elem_size * count));
                }
            }
        }
    }

    /// Take a snapshot of the watched variable if `pc` begins a visit of its line (the
    /// frame was on another line before; calls made from the line do not end the visit).
    fn watch(&mut self, st: &State, act: u32, func: FuncId, pc: u32) {
        let Some(w) = &self.watch else { return };
        let f = self.prog.func(func);
        let Some(loc) = self.prog.loc(f.locs[pc as usize]) else {
            return;
        };
        let here = Some((loc.file.0, loc.line));
        let before = std::mem::replace(self.lines.last_mut().expect("a frame"), here);
        if loc.line != w.line || !w.files[loc.file.0 as usize] || before == here {
            return;
        }
        let mut trace = self.trace.borrow_mut();
        trace.watched_line_ran = true;
        let Some((addr, size)) = self.slots.get(&act).copied() else {
            return;
        };
        let Some(obj) = st.mem().find(addr) else {
            return;
        };
        let offset = addr - obj.base;
        if offset + size > obj.size {
            return;
        }
        // (none of bytes still to be read from an array written at a symbolic offset: an
        // observer cannot make them)
        let Some(bytes) = obj.peek(offset, size) else {
            return;
        };
        trace.snapshot = Some(Snapshot {
            entry: trace.entries.len() as u32,
            addr,
            bytes,
        });
    }
}

impl Observer for Tracer {
    fn on_instruction(&mut self, st: &State, func: FuncId, pc: u32) {
        let act = self.sync_activations(st);
        self.finish_previous(st, act);
        self.watch(st, act, func, pc);
        let prog = self.prog.clone();
        let inst = &prog.func(func).insts[pc as usize];
        let regs = &st.frame().regs;
        let ops: Vec<Option<Value>> = inst
            .operands()
            .into_iter()
            .map(|op| match op {
                Operand::Reg(r) => Some(regs[r.0 as usize].clone()),
                _ => None,
            })
            .collect();
        let sym = ops.iter().flatten().any(is_sym);
        let entry = Entry {
            func,
            pc,
            act,
            depth: st.frames().len() as u32,
            user_loc: self.user_loc(st, pc),
            ops,
            call: None,
            mem: None,
            sym,
            result: None,
        };
        self.trace.borrow_mut().entries.push(entry);
    }

    fn on_call(&mut self, st: &State, func: FuncId, args: &[Value]) {
        let mut trace = self.trace.borrow_mut();
        let Some(at) = trace.entries.len().checked_sub(1) else {
            return;
        };
        let e = &mut trace.entries[at];
        e.sym |= args.iter().any(is_sym);
        e.call = Some((func, args.to_vec()));
        let format = printf::format_param(&self.prog.func(func).name)
            .and_then(|k| args.get(k))
            .and_then(|v| c_string(st, v));
        if let Some(f) = format {
            trace.formats.insert(at as u32, f);
        }
    }

    fn on_return(&mut self, _st: &State, ret: Option<&Value>) {
        if let Some(e) = self.trace.borrow_mut().entries.last_mut() {
            e.sym |= ret.is_some_and(is_sym);
        }
    }

    fn on_memory(&mut self, _st: &State, addr: &Value, size: u64, _write: bool) {
        if let Some(e) = self.trace.borrow_mut().entries.last_mut() {
            e.sym |= is_sym(addr);
            e.mem = Some((addr.clone(), size));
        }
    }

    fn on_terminate(&mut self, st: &State, outcome: &Outcome) {
        self.trace.borrow_mut().end = Some(End {
            stdout: st.stdout().kept().to_vec(),
            stderr_len: st.stderr().len() as usize,
            outcome: outcome.clone(),
            seed_values: st.seed_values().clone(),
            mem: st.mem().clone(),
        });
    }
}

/// The NUL-terminated string `v` points to in `st`'s memory, if its bytes are concrete.
fn c_string(st: &State, v: &Value) -> Option<Vec<u8>> {
    let Value::Con { bits, .. } = v else {
        return None;
    };
    let addr = *bits as u64;
    let obj = st.mem().find(addr)?;
    let offset = addr - obj.base;
    let mut out = Vec::new();
    for b in obj.peek(offset, obj.size.checked_sub(offset)?)? {
        match b {
            Byte::C(0) => return Some(out),
            Byte::C(c) => out.push(c),
            Byte::S(_) => return None,
        }
    }
    None
}

/// Which files of `prog` a criterion's FILE names: the same path, or the same file name.
fn files_named(prog: &Program, file: &str) -> Vec<bool> {
    let wanted = std::path::Path::new(file);
    prog.files
        .iter()
        .map(|f| {
            let p = std::path::Path::new(f);
            p == wanted || p.file_name() == wanted.file_name()
        })
        .collect()
}
