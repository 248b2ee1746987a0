//! Instruction dispatch, operands, and control flow (branches, switches, phi nodes).

use super::{calls, floats, ints, Exec, Executor, Flow};
use crate::bytes::zero_value;
use crate::memory::{FUNC_BASE, FUNC_STRIDE};
use crate::outcome::{ErrorKind, Outcome};
use crate::state::State;
use crate::value::Value;
use augur_expr::ExprId;
use augur_ir::{AddrBase, BlockId, Const, Inst, Operand};
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

impl Executor {
    /// Split `st` on `cond` in place (see [`Split`]); the constraint of the side taken is
    /// added. In seeded mode only the side the seed takes is followed. When both sides are
    /// feasible but a fork limit is reached, one side is chosen at random (as KLEE does).
    pub fn split(&mut self, st: &mut State, cond: ExprId) -> Exec<Split> {
        if let Some(c) = self.pool.as_const(cond) {
            return Ok(if c != 0 { Split::True } else { Split::False });
        }
        let not = self.pool.not(cond);
        let (can_t, can_f) = if st.seed.is_some() {
            let taken = self.pool.eval(cond, &st.seed_values) != 0;
            (taken, !taken)
        } else {
            self.query(|s, p| s.branch_feasibility(p, &st.constraints, cond))?
        };
        match (can_t, can_f) {
            (true, true) => {
                let depth_ok = self.opts.max_depth.is_none_or(|d| st.depth < d);
                let forks_ok = self.opts.max_forks.is_none_or(|n| self.stats.forks < n);
                if !depth_ok || !forks_ok {
                    self.stats.forks_suppressed += 1;
                    let take_true = self.rng.below(2) == 0;
                    st.constraints.push(if take_true { cond } else { not });
                    return Ok(if take_true { Split::True } else { Split::False });
                }
                self.stats.forks += 1;
                let mut f = st.clone();
                f.id = self.fresh_state_id();
                for s in [&mut *st, &mut f] {
                    s.depth += 1;
                }
                st.constraints.push(cond);
                f.constraints.push(not);
                for o in &mut self.observers {
                    o.on_fork(st, &f);
                }
                Ok(Split::Both(Box::new(f)))
            }
            (true, false) => {
                st.constraints.push(cond);
                Ok(Split::True)
            }
            (false, true) => {
                st.constraints.push(not);
                Ok(Split::False)
            }
            (false, false) => Err(Outcome::Dropped),
        }
    }

    /// The value of a constant.
    pub fn const_value(&self, c: &Const) -> Value {
        match c {
            Const::Int { width, value } => Value::con(*value, *width),
            Const::Addr { base, offset } => {
                let b = match base {
                    AddrBase::Global(g) => self.global_addr(*g),
                    AddrBase::Func(f) => FUNC_BASE + f.0 as u64 * FUNC_STRIDE,
                };
                Value::con(b.wrapping_add(*offset as u64) as u128, 64)
            }
            Const::Agg(items) => {
                Value::Agg(Rc::new(items.iter().map(|i| self.const_value(i)).collect()))
            }
            Const::Zero(t) | Const::Undef(t) => zero_value(&self.program, *t),
        }
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
    pub fn goto(&mut self, st: &mut State, target: BlockId) {
        let prog = self.program.clone();
        let (func, prev) = {
            let f = st.frame();
            (prog.func(f.func), f.block)
        };
        let mut pc = func.blocks[target.0 as usize].start as usize;
        let mut assigned = Vec::new();
        while let Inst::Phi { dst, incoming } = &func.insts[pc] {
            let v = incoming
                .iter()
                .find(|(b, _)| *b == prev)
                .map(|(_, op)| self.operand(st, op))
                .unwrap_or(Value::con(0, 1));
            assigned.push((*dst, v));
            pc += 1;
        }
        for (r, v) in assigned {
            st.set(r, v);
        }
        let f = st.frame_mut();
        f.prev_block = Some(prev);
        f.block = target;
        f.pc = pc as u32;
    }

    /// Execute the next instruction of `st`.
    pub(super) fn step(&mut self, st: &mut State) -> Exec<Flow> {
        let prog = self.program.clone();
        let (fid, pc) = {
            let f = st.frame();
            (f.func, f.pc)
        };
        let inst = &prog.func(fid).insts[pc as usize];
        st.frame_mut().pc = pc + 1;
        st.instructions += 1;
        self.stats.instructions += 1;
        if self.coverage.cover(&prog, fid.0, pc) {
            st.cov_gen = self.coverage.generation;
        }
        if !self.observers.is_empty() {
            for o in &mut self.observers {
                o.on_instruction(st, fid, pc);
            }
        }
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
        let mut feasible: Vec<State> = Vec::new();
        for (target, cond) in targets {
            let mut candidate = st.clone();
            if !self.add_constraint(&mut candidate, cond)? {
                continue;
            }
            self.goto(&mut candidate, target);
            feasible.push(candidate);
        }
        if feasible.is_empty() {
            return Err(Outcome::Dropped);
        }
        let mut rest = feasible.split_off(1);
        *st = feasible.pop().expect("one feasible target");
        if rest.is_empty() {
            return Ok(Flow::Continue);
        }
        st.depth += 1;
        for s in &mut rest {
            s.id = self.fresh_state_id();
            s.depth = st.depth;
            self.stats.forks += 1;
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
