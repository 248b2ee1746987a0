//! Instruction dispatch, operands, and control flow (branches, switches, phi nodes).

use super::{calls, floats, ints, Exec, Executor, Flow};
use crate::bytes::zero_value;
use crate::memory::function_addr;
use crate::outcome::{ErrorKind, Outcome};
use crate::state::State;
use crate::value::Value;
use augur_expr::{Assignment, ExprId};
use augur_ir::{AddrBase, BlockId, Const, Inst, Operand, Reg};
use std::rc::Rc;

/// Result of splitting a state on a condition, in place.
pub enum Split {
    /// Both sides feasible: the state took the true side, this is the false side.
    Both(Box<State>),
    /// Only the true side is feasible (the state took it).
    True,
    /// Only the false side is feasible (the state took it).
    False,
}

/// The result of forking a state over several cases ([`Executor::fork`]).
pub struct Forked {
    /// The case the state itself took.
    pub taken: usize,
    /// A new state for each other feasible case, with the case's index.
    pub others: Vec<(usize, State)>,
}

/// Give `st` and the states forked off it the solver's model (by case index) of the case
/// each took, if any, as example inputs.
fn learn_forked(st: &mut State, forked: &mut Forked, models: &mut [Option<Assignment>]) {
    st.learn_inputs(models[forked.taken].take());
    for (i, other) in &mut forked.others {
        other.learn_inputs(models[*i].take());
    }
}

impl Executor {
    /// Split `st` on `cond` in place (see [`Split`]): [`Executor::fork`] over `cond` and its
    /// negation, asking the solver about both sides in one query.
    pub fn split(&mut self, st: &mut State, cond: ExprId) -> Exec<Split> {
        if let Some(c) = self.pool.as_const(cond) {
            return Ok(if c != 0 { Split::True } else { Split::False });
        }
        let not = self.pool.not(cond);
        let (can_t, can_f, mut models) = if st.seed.is_some() {
            let taken = self.pool.eval(cond, &st.seed_values) != 0;
            (taken, !taken, [None, None])
        } else {
            let models = self.query(|s, p| s.branch_models(p, &st.constraints, cond))?;
            (models[0].is_some(), models[1].is_some(), models)
        };
        let feasible: Vec<(usize, ExprId)> = [(0, cond, can_t), (1, not, can_f)]
            .into_iter()
            .filter(|c| c.2)
            .map(|(i, c, _)| (i, c))
            .collect();
        let mut forked = self.fork_feasible(st, feasible)?;
        learn_forked(st, &mut forked, &mut models);
        Ok(match (forked.taken, forked.others.pop()) {
            (_, Some((_, other))) => Split::Both(Box::new(other)),
            (0, None) => Split::True,
            _ => Split::False,
        })
    }

    /// Fork `st` over `cases`, conditions no two of which hold at once (the constant true
    /// makes a plain copy, which the caller tells apart by its driver data). Only feasible
    /// cases are kept (in seeded mode, the seed's); `st` takes the first, each other gets a
    /// new state, and each side's condition joins its path condition. Forks never exceed
    /// `--max-forks`, nor a path's depth `--max-depth`, nor happen while memory is over
    /// `--max-memory`: past them, as many feasible cases as they allow (at least one) are
    /// chosen at random, as KLEE does. Forks are counted and shown to the observers.
    /// `Err(Dropped)` when no case is feasible.
    pub fn fork(&mut self, st: &mut State, cases: &[ExprId]) -> Exec<Forked> {
        let mut feasible = Vec::new();
        let mut models = Vec::with_capacity(cases.len());
        for (i, &c) in cases.iter().enumerate() {
            let (ok, model) = match self.pool.as_const(c) {
                Some(v) => (v != 0, None),
                None if st.seed.is_some() => (self.pool.eval(c, &st.seed_values) != 0, None),
                None => {
                    let model = self.query(|s, p| s.model_with(p, &st.constraints, c))?;
                    (model.is_some(), model)
                }
            };
            models.push(model);
            if ok {
                feasible.push((i, c));
            }
        }
        let mut forked = self.fork_feasible(st, feasible)?;
        learn_forked(st, &mut forked, &mut models);
        Ok(forked)
    }

    /// The fork itself, over cases known to be feasible. Each state records the index of
    /// the case it took when there was more than one (its [`crate::ForkPath`]). Within the
    /// run's path prefix (`Options::path_prefix`) the fork is made as usual, so that its
    /// caller sees the same states, but the states of the cases the prefix does not name
    /// are off the prefix ([`Executor::off_prefix`]): they are dropped without being
    /// counted, and do not fork again.
    fn fork_feasible(&mut self, st: &mut State, mut cases: Vec<(usize, ExprId)>) -> Exec<Forked> {
        if cases.is_empty() {
            return Err(Outcome::Dropped);
        }
        if self.off_prefix(st) {
            return Ok(Forked {
                taken: cases[0].0,
                others: Vec::new(),
            });
        }
        let within_prefix = cases.len() > 1 && st.path.len() < self.opts.path_prefix.len();
        if within_prefix {
            let want = self.opts.path_prefix[st.path.len()] as usize;
            if !cases.iter().any(|c| c.0 == want) {
                let feasible: Vec<String> = cases.iter().map(|c| c.0.to_string()).collect();
                self.stats.prefix_diverged = Some(format!(
                    "at its fork {}, case {want} is infeasible (feasible cases: {})",
                    st.path.len() + 1,
                    feasible.join(", ")
                ));
                return Err(Outcome::Dropped);
            }
        } else {
            self.limit_cases(st, &mut cases);
        }
        let mut others = Vec::with_capacity(cases.len() - 1);
        let (taken, c) = cases[0];
        if cases.len() > 1 {
            st.covered_new = false;
            let parent = std::mem::take(&mut st.path);
            for &(i, c) in &cases[1..] {
                if !within_prefix {
                    self.stats.forks += 1;
                }
                let mut child = st.clone();
                child.id = self.fresh_state_id();
                child.path = parent.then(i as u32);
                self.constrain(&mut child, c);
                others.push((i, child));
            }
            st.path = parent.then(taken as u32);
        }
        self.constrain(st, c);
        for (_, child) in &others {
            for o in &mut self.observers {
                o.on_fork(st, child);
            }
        }
        Ok(Forked { taken, others })
    }

    /// Keep as many `cases` as `--max-forks`, `--max-depth` and `--max-memory` allow (at
    /// least one), chosen at random.
    fn limit_cases(&mut self, st: &State, cases: &mut Vec<(usize, ExprId)>) {
        let room = match self.opts.max_depth {
            Some(d) if st.depth() >= d => 0,
            _ if self.at_memory_limit => 0,
            _ => self
                .opts
                .max_forks
                .map_or(u64::MAX, |n| n.saturating_sub(self.stats.forks)),
        };
        if cases.len() as u64 - 1 > room {
            self.stats.forks_suppressed += 1;
            let mut kept = Vec::new();
            while kept.len() as u64 <= room {
                let pick = self.rng.below(cases.len() as u64) as usize;
                kept.push(cases.remove(pick));
            }
            kept.sort_unstable_by_key(|c| c.0);
            *cases = kept;
        }
    }

    /// Whether `st` took, within the run's path prefix, a case the prefix does not name
    /// (it only finishes the instruction that forked it, and is then dropped).
    pub(super) fn off_prefix(&self, st: &State) -> bool {
        let n = st.path.len();
        n > 0
            && n <= self.opts.path_prefix.len()
            && st.path.last() != Some(self.opts.path_prefix[n - 1])
    }

    /// Add a condition known to be feasible to the path (nothing for the constant true).
    fn constrain(&self, st: &mut State, c: ExprId) {
        if self.pool.as_const(c).is_none() {
            st.constraints.push(c);
        }
    }

    /// The value of a constant.
    pub fn const_value(&self, c: &Const) -> Value {
        match c {
            Const::Int { width, value } => Value::con(*value, *width),
            Const::Addr { base, offset } => Value::con(self.const_addr(*base, *offset) as u128, 64),
            Const::Agg(items) => {
                Value::Agg(Rc::new(items.iter().map(|i| self.const_value(i)).collect()))
            }
            Const::Zero(t) | Const::Undef(t) => zero_value(&self.program, *t),
        }
    }

    /// The address `offset` bytes from a global or function.
    pub(super) fn const_addr(&self, base: AddrBase, offset: i64) -> u64 {
        let b = match base {
            AddrBase::Global(g) => self.global_addr(g),
            AddrBase::Func(f) => function_addr(f),
        };
        b.wrapping_add(offset as u64)
    }

    /// The value of an operand in the top frame.
    #[inline]
    pub fn operand(&self, st: &State, op: &Operand) -> Value {
        match op {
            Operand::Reg(r) => st.frame().regs[r.0 as usize].clone(),
            Operand::Imm { width, value } if *width > 128 => Value::con(*value, *width),
            Operand::Imm { width, value } => Value::Con {
                width: *width,
                bits: *value,
            },
            Operand::Const(c) => self.const_value(c),
        }
    }

    /// Jump to `target` in the top frame, evaluating its phi nodes.
    pub fn goto(&self, st: &mut State, target: BlockId) {
        let (func, prev) = {
            let f = st.frame();
            (self.program.func(f.func), f.block)
        };
        let start = func.blocks[target.0 as usize].start as usize;
        let phis = if matches!(func.insts[start], Inst::Phi { .. }) {
            self.phis(st, &func.insts[start..], prev)
        } else {
            0
        };
        let f = st.frame_mut();
        f.prev_block = Some(prev);
        f.block = target;
        f.pc = (start + phis) as u32;
    }

    /// Assign the phi nodes at the start of `insts` for control coming from `prev`; returns
    /// their number.
    fn phis(&self, st: &mut State, insts: &[Inst], prev: BlockId) -> usize {
        // The phi nodes read their operands before any of them is assigned.
        let assigned: Vec<(Reg, Value)> = insts
            .iter()
            .map_while(|i| match i {
                Inst::Phi { dst, incoming } => {
                    let v = incoming
                        .iter()
                        .find(|(b, _)| *b == prev)
                        .map(|(_, op)| self.operand(st, op))
                        .unwrap_or(Value::con(0, 1));
                    Some((*dst, v))
                }
                _ => None,
            })
            .collect();
        let phis = assigned.len();
        for (r, v) in assigned {
            st.set(r, v);
        }
        phis
    }

    /// Execute the next instruction of `st`.
    pub(super) fn step(&mut self, st: &mut State) -> Exec<Flow> {
        let (fid, pc) = {
            let f = st.frame_mut();
            f.pc += 1;
            (f.func, f.pc - 1)
        };
        st.instructions += 1;
        self.stats.instructions += 1;
        if self.coverage.cover(&self.program, fid.0, pc) {
            st.cov_gen = self.coverage.generation;
            st.covered_new = true;
        }
        if !self.observers.is_empty() {
            for o in &mut self.observers {
                o.on_instruction(st, fid, pc);
            }
        }
        if self.step_concrete(st, &self.program.func(fid).insts[pc as usize]) {
            return Ok(Flow::Continue);
        }
        // The general path: the instruction stays borrowed while the executor changes.
        let prog = self.program.clone();
        let inst = &prog.func(fid).insts[pc as usize];
        let set = |st: &mut State, dst, v| {
            st.set(dst, v);
            Ok(Flow::Continue)
        };
        match inst {
            Inst::Bin {
                op,
                dst,
                a,
                b,
                width,
            } => {
                let (a, b) = (self.operand(st, a), self.operand(st, b));
                let v = ints::binary(self, st, *op, &a, &b, *width)?;
                set(st, *dst, v)
            }
            Inst::ICmp { pred, dst, a, b } => {
                let (a, b) = (self.operand(st, a), self.operand(st, b));
                let v = ints::compare(self, st, *pred, &a, &b)?;
                set(st, *dst, v)
            }
            Inst::Cast { op, dst, a, width } => {
                let a = self.operand(st, a);
                let v = ints::cast(self, st, *op, &a, *width)?;
                set(st, *dst, v)
            }
            Inst::FBin {
                op,
                dst,
                a,
                b,
                kind,
            } => {
                let (a, b) = (self.operand(st, a), self.operand(st, b));
                let v = floats::binary(self, st, *op, &a, &b, *kind)?;
                set(st, *dst, v)
            }
            Inst::FNeg { dst, a, kind } => {
                let a = self.operand(st, a);
                let v = floats::negate(self, st, &a, *kind)?;
                set(st, *dst, v)
            }
            Inst::FCmp {
                pred,
                dst,
                a,
                b,
                kind,
            } => {
                let (a, b) = (self.operand(st, a), self.operand(st, b));
                let v = floats::compare(self, st, *pred, &a, &b, *kind)?;
                set(st, *dst, v)
            }
            Inst::FpCast {
                op,
                dst,
                a,
                from,
                to,
                int_width,
            } => {
                let a = self.operand(st, a);
                let v = floats::cast(self, st, *op, &a, *from, *to, *int_width)?;
                set(st, *dst, v)
            }
            Inst::Select { dst, cond, t, f } => {
                let (c, t, f) = (
                    self.operand(st, cond),
                    self.operand(st, t),
                    self.operand(st, f),
                );
                self.select(st, *dst, c, t, f)
            }
            Inst::Alloca {
                dst,
                elem_size,
                count,
                align,
                var,
            } => {
                let count = self.operand(st, count);
                let v = self.alloca(st, *elem_size, &count, *align, var.as_deref())?;
                set(st, *dst, v)
            }
            Inst::Load { dst, addr, ty } => {
                let a = self.operand(st, addr);
                self.load(st, *dst, &a, *ty)
            }
            Inst::Store { addr, val, ty } => {
                let (a, v) = (self.operand(st, addr), self.operand(st, val));
                self.store(st, &a, &v, *ty)
            }
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let base = self.operand(st, base);
                let v = ints::gep(self, st, &base, *offset, indices);
                set(st, *dst, v)
            }
            Inst::ExtractValue { dst, agg, path } => {
                let mut v = self.operand(st, agg);
                for i in path {
                    v = match v {
                        Value::Agg(items) => items[*i as usize].clone(),
                        _ => {
                            return Err(self.error(
                                st,
                                ErrorKind::Unsupported,
                                "extractvalue of a non-aggregate".into(),
                            ))
                        }
                    };
                }
                set(st, *dst, v)
            }
            Inst::InsertValue {
                dst,
                agg,
                elem,
                path,
            } => {
                let agg = self.operand(st, agg);
                let elem = self.operand(st, elem);
                let v = insert_at(agg, path, elem);
                set(st, *dst, v)
            }
            Inst::Call {
                dst,
                callee,
                args,
                ret_ty,
            } => {
                let args: Vec<Value> = args.iter().map(|a| self.operand(st, a)).collect();
                calls::call(self, st, *dst, callee, args, *ret_ty)
            }
            Inst::Ret { val } => {
                let v = val.as_ref().map(|v| self.operand(st, v));
                calls::ret(self, st, v)?;
                Ok(Flow::Continue)
            }
            Inst::Br { target } => {
                self.goto(st, *target);
                Ok(Flow::Continue)
            }
            Inst::CondBr { cond, t, f } => {
                let c = self.operand(st, cond);
                self.cond_br(st, c, *t, *f)
            }
            Inst::Switch {
                val,
                cases,
                default,
            } => {
                let v = self.operand(st, val);
                self.switch(st, v, cases, *default)
            }
            Inst::Phi { .. } => Ok(Flow::Continue),
            Inst::Unreachable => Err(self.error(
                st,
                ErrorKind::Unreachable,
                "unreachable instruction executed".into(),
            )),
            Inst::Unsupported(what) => Err(self.error(
                st,
                ErrorKind::Unsupported,
                format!("instruction not supported by augur: {what}"),
            )),
        }
    }

    fn select(
        &mut self,
        st: &mut State,
        dst: augur_ir::Reg,
        c: Value,
        t: Value,
        f: Value,
    ) -> Exec<Flow> {
        match (&c, &t, &f) {
            (Value::Con { bits, .. }, _, _) => {
                st.set(dst, if *bits != 0 { t } else { f });
                Ok(Flow::Continue)
            }
            (Value::Sym(ce), Value::Agg(_) | Value::Wide { .. }, _)
            | (Value::Sym(ce), _, Value::Agg(_) | Value::Wide { .. }) => {
                // Aggregates and wide integers cannot be an if-then-else expression: fork
                // instead.
                let ce = *ce;
                match self.split(st, ce)? {
                    Split::True => st.set(dst, t),
                    Split::False => st.set(dst, f),
                    Split::Both(mut other) => {
                        st.set(dst, t);
                        other.set(dst, f);
                        return Ok(Flow::Forked(vec![*other]));
                    }
                }
                Ok(Flow::Continue)
            }
            (Value::Sym(ce), _, _) => {
                let te = t.expr(&mut self.pool);
                let fe = f.expr(&mut self.pool);
                let e = self.pool.ite(*ce, te, fe);
                st.set(dst, Value::from_expr(&self.pool, e));
                Ok(Flow::Continue)
            }
            (Value::Agg(_) | Value::Wide { .. }, _, _) => {
                Err(self.error(st, ErrorKind::Unsupported, "vector select".into()))
            }
        }
    }

    fn cond_br(&mut self, st: &mut State, c: Value, t: BlockId, f: BlockId) -> Exec<Flow> {
        let ce = match c {
            Value::Con { bits, .. } => {
                self.goto(st, if bits != 0 { t } else { f });
                return Ok(Flow::Continue);
            }
            Value::Sym(e) => e,
            Value::Agg(_) | Value::Wide { .. } => {
                return Err(self.error(st, ErrorKind::Unsupported, "vector branch".into()))
            }
        };
        let split = self.split(st, ce)?;
        let taken_true = !matches!(split, Split::False);
        for o in &mut self.observers {
            o.on_branch(st, ce, taken_true);
        }
        match split {
            Split::True => self.goto(st, t),
            Split::False => self.goto(st, f),
            Split::Both(mut other) => {
                self.goto(st, t);
                self.goto(&mut other, f);
                for o in &mut self.observers {
                    o.on_branch(&other, ce, false);
                }
                return Ok(Flow::Forked(vec![*other]));
            }
        }
        Ok(Flow::Continue)
    }

    fn switch(
        &mut self,
        st: &mut State,
        v: Value,
        cases: &[(u128, BlockId)],
        default: BlockId,
    ) -> Exec<Flow> {
        let e = match v {
            Value::Con { bits, .. } => {
                let target = cases
                    .iter()
                    .find(|(c, _)| *c == bits)
                    .map(|c| c.1)
                    .unwrap_or(default);
                self.goto(st, target);
                return Ok(Flow::Continue);
            }
            Value::Wide { words, .. } => {
                // Case values fit in 128 bits (wider ones are remapped by `wide_consts`).
                let small = words.iter().skip(2).all(|w| *w == 0);
                let bits = crate::wide::low_u128(&words);
                let target = cases
                    .iter()
                    .find(|(c, _)| small && *c == bits)
                    .map(|c| c.1)
                    .unwrap_or(default);
                self.goto(st, target);
                return Ok(Flow::Continue);
            }
            Value::Sym(e) => e,
            Value::Agg(_) => {
                return Err(self.error(st, ErrorKind::Unsupported, "vector switch".into()))
            }
        };
        // One condition per distinct target, in order of first appearance, then the default.
        let w = self.pool.width(e);
        let mut targets: Vec<(BlockId, ExprId)> = Vec::new();
        let mut none_matches = self.pool.bool_const(true);
        for (c, b) in cases {
            let k = self.pool.constant(*c, w);
            let eq = self.pool.eq(e, k);
            let ne = self.pool.not(eq);
            none_matches = self.pool.bool_and(none_matches, ne);
            match targets.iter_mut().find(|(t, _)| t == b) {
                Some((_, cond)) => *cond = self.pool.bool_or(*cond, eq),
                None => targets.push((*b, eq)),
            }
        }
        targets.push((default, none_matches));
        let conds: Vec<ExprId> = targets.iter().map(|t| t.1).collect();
        let forked = self.fork(st, &conds)?;
        self.goto(st, targets[forked.taken].0);
        if forked.others.is_empty() {
            return Ok(Flow::Continue);
        }
        let mut rest = Vec::with_capacity(forked.others.len());
        for (i, mut s) in forked.others {
            self.goto(&mut s, targets[i].0);
            rest.push(s);
        }
        Ok(Flow::Forked(rest))
    }
}

/// `agg` with the element at `path` replaced by `elem`.
fn insert_at(agg: Value, path: &[u32], elem: Value) -> Value {
    match (path.split_first(), agg) {
        (None, _) => elem,
        (Some((i, rest)), Value::Agg(items)) => {
            let mut items = Rc::unwrap_or_clone(items);
            let inner = std::mem::replace(&mut items[*i as usize], Value::con(0, 1));
            items[*i as usize] = insert_at(inner, rest, elem);
            Value::Agg(Rc::new(items))
        }
        (Some(_), other) => other,
    }
}
