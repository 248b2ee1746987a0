//! The concrete fast path: the common instructions (integer arithmetic, comparisons and
//! casts, address arithmetic, scalar loads and stores, branches) when every operand they
//! read is a concrete value of at most 128 bits. They are executed in place: operands are
//! read from the register file without being cloned, the result is written straight into
//! its register, and nothing goes through the expression pool, allocates or builds an
//! intermediate [`Value`] or `Result`.
//!
//! Whenever anything else may happen (a symbolic or wide operand, a division by zero, an
//! access that is invalid or reads symbolic bytes, an observer watching memory accesses),
//! the fast path leaves the state untouched and the general path in `step.rs` executes the
//! instruction, with the same result for everything the fast path does handle.

use super::ints::{concrete_gep, fold_binary, fold_compare};
use super::Executor;
use crate::registers::Registers;
use crate::state::State;
use crate::value::{mask, sign_extend, Value};
use augur_ir::{CastOp, Const, Inst, IntOp, Operand, Reg};

impl Executor {
    /// Execute `inst` (already counted and shown to the observers) on the concrete fast
    /// path if it applies, and say whether it did; when it does not, `st` is unchanged.
    #[inline]
    pub(super) fn step_concrete(&self, st: &mut State, inst: &Inst) -> bool {
        match inst {
            Inst::Bin {
                op,
                dst,
                a,
                b,
                width,
            } => {
                let regs = &st.frame().regs;
                let (Some((x, _)), Some((y, _))) =
                    (self.con_operand(regs, a), self.con_operand(regs, b))
                else {
                    return false;
                };
                let divides = matches!(op, IntOp::UDiv | IntOp::SDiv | IntOp::URem | IntOp::SRem);
                if *width > 128 || divides && y == 0 {
                    return false;
                }
                let bits = fold_binary(*op, x, y, *width);
                put(st, *dst, bits, *width);
                true
            }
            Inst::ICmp { pred, dst, a, b } => {
                let regs = &st.frame().regs;
                let (Some((x, w)), Some((y, _))) =
                    (self.con_operand(regs, a), self.con_operand(regs, b))
                else {
                    return false;
                };
                put(st, *dst, fold_compare(*pred, x, y, w) as u128, 1);
                true
            }
            Inst::Cast { op, dst, a, width } if *width <= 128 => {
                let Some((x, from)) = self.con_operand(&st.frame().regs, a) else {
                    return false;
                };
                let bits = match op {
                    CastOp::SExt => sign_extend(x, from) as u128,
                    _ => x,
                };
                let bits = mask(bits, *width);
                put(st, *dst, bits, *width);
                true
            }
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let Some((b, _)) = self.con_operand(&st.frame().regs, base) else {
                    return false;
                };
                let Some(addr) = concrete_gep(self, st, b, *offset, indices) else {
                    return false;
                };
                put(st, *dst, addr as u128, 64);
                true
            }
            Inst::Load { dst, addr, ty } if self.observers.is_empty() => {
                let Some((a, _)) = self.con_operand(&st.frame().regs, addr) else {
                    return false;
                };
                let a = a as u64;
                let size = self.program.ty(*ty).store_size;
                let known = match st.mem.find(a) {
                    Some(obj) if Self::concrete_access_ok(obj, a, size, false) => {
                        self.known_scalar(obj, a - obj.base, *ty)
                    }
                    _ => None,
                };
                let Some((bits, width)) = known else {
                    return false;
                };
                put(st, *dst, bits, width);
                true
            }
            Inst::Store { addr, val, ty } if self.observers.is_empty() => {
                let regs = &st.frame().regs;
                let (Some((a, _)), Some((bits, _))) =
                    (self.con_operand(regs, addr), self.con_operand(regs, val))
                else {
                    return false;
                };
                let (a, size) = (a as u64, self.program.ty(*ty).store_size);
                if !(1..=16).contains(&size) {
                    return false;
                }
                let base = match st.mem.find(a) {
                    Some(obj) if Self::concrete_access_ok(obj, a, size, true) => obj.base,
                    _ => return false,
                };
                let obj = st.mem.get_mut(base).expect("the object was just found");
                obj.write_known(a - base, bits, size);
                true
            }
            Inst::Br { target } => {
                self.goto(st, *target);
                true
            }
            Inst::CondBr { cond, t, f } => {
                let Some((c, _)) = self.con_operand(&st.frame().regs, cond) else {
                    return false;
                };
                self.goto(st, if c != 0 { *t } else { *f });
                true
            }
            _ => false,
        }
    }

    /// The bits and width of `op` in the top frame (`regs`), if it is a concrete value of
    /// at most 128 bits; read in place.
    #[inline]
    pub(super) fn con_operand(&self, regs: &Registers, op: &Operand) -> Option<(u128, u32)> {
        match op {
            Operand::Reg(r) => match &regs[r.0 as usize] {
                Value::Con { width, bits } => Some((*bits, *width)),
                _ => None,
            },
            Operand::Imm { width, value } => (*width <= 128).then_some((*value, *width)),
            Operand::Const(c) => match &**c {
                Const::Int { width, value } if *width <= 128 => {
                    Some((mask(*value, *width), *width))
                }
                Const::Addr { base, offset } => Some((self.const_addr(*base, *offset) as u128, 64)),
                _ => None,
            },
        }
    }
}

/// Set register `dst` of the top frame to the concrete `width`-bit `bits` (masked), in
/// place: a register holding a concrete value has its fields overwritten (a whole `Value`
/// written over it goes through memory, and the load of its bits then waits on the
/// stores that built it).
#[inline(always)]
fn put(st: &mut State, dst: Reg, bits: u128, width: u32) {
    match &mut st.frame_mut().regs[dst.0 as usize] {
        Value::Con { width: w, bits: b } => {
            *w = width;
            *b = bits;
        }
        slot => *slot = Value::Con { width, bits },
    }
}
