//! Rewriting the ids inside a lowered instruction: registers, blocks, constants (globals
//! and functions), types and direct callees, each through an [`IdMap`] whose methods
//! default to the identity. The one place outside the lowering that lists every
//! instruction's id fields, so a new variant is handled here and nowhere else.

use crate::program::{BlockId, Callee, Const, FuncId, Inst, Operand, Reg, TyId};

/// How ids change; every method defaults to keeping the id.
pub trait IdMap {
    /// A register.
    fn reg(&mut self, r: Reg) -> Reg {
        r
    }
    /// A block.
    fn block(&mut self, b: BlockId) -> BlockId {
        b
    }
    /// A constant (addresses of globals and functions inside it).
    fn constant(&mut self, c: &Const) -> Const {
        c.clone()
    }
    /// A type.
    fn ty(&mut self, t: TyId) -> TyId {
        t
    }
    /// A directly called function.
    fn func(&mut self, f: FuncId) -> FuncId {
        f
    }
}

fn operand(m: &mut impl IdMap, o: &mut Operand) {
    match o {
        Operand::Reg(r) => *r = m.reg(*r),
        Operand::Imm { .. } => {}
        Operand::Const(c) => **c = m.constant(c),
    }
}

impl Inst {
    /// This instruction with its ids changed by `m` (destination first, then operands,
    /// blocks and types in field order).
    pub fn map_ids(&self, m: &mut impl IdMap) -> Inst {
        let mut i = self.clone();
        i.map_ids_in_place(m);
        i
    }

    /// Change this instruction's ids by `m`, in place.
    pub fn map_ids_in_place(&mut self, m: &mut impl IdMap) {
        match self {
            Inst::Bin { dst, a, b, .. }
            | Inst::FBin { dst, a, b, .. }
            | Inst::ICmp { dst, a, b, .. }
            | Inst::FCmp { dst, a, b, .. }
            | Inst::InsertValue {
                dst,
                agg: a,
                elem: b,
                ..
            } => {
                *dst = m.reg(*dst);
                operand(m, a);
                operand(m, b);
            }
            Inst::FNeg { dst, a, .. }
            | Inst::Cast { dst, a, .. }
            | Inst::FpCast { dst, a, .. }
            | Inst::Alloca { dst, count: a, .. }
            | Inst::ExtractValue { dst, agg: a, .. } => {
                *dst = m.reg(*dst);
                operand(m, a);
            }
            Inst::Select { dst, cond, t, f } => {
                *dst = m.reg(*dst);
                for o in [cond, t, f] {
                    operand(m, o);
                }
            }
            Inst::Load { dst, addr, ty } => {
                *dst = m.reg(*dst);
                operand(m, addr);
                *ty = m.ty(*ty);
            }
            Inst::Store { addr, val, ty } => {
                operand(m, addr);
                operand(m, val);
                *ty = m.ty(*ty);
            }
            Inst::Gep {
                dst, base, indices, ..
            } => {
                *dst = m.reg(*dst);
                operand(m, base);
                for (o, _, _) in indices {
                    operand(m, o);
                }
            }
            Inst::Call {
                dst,
                callee,
                args,
                ret_ty,
            } => {
                if let Some(d) = dst {
                    *d = m.reg(*d);
                }
                match callee {
                    Callee::Direct(f) => *f = m.func(*f),
                    Callee::Indirect(o) => operand(m, o),
                    Callee::Asm(_) => {}
                }
                for a in args {
                    operand(m, a);
                }
                *ret_ty = m.ty(*ret_ty);
            }
            Inst::Phi { dst, incoming } => {
                *dst = m.reg(*dst);
                for (b, o) in incoming {
                    *b = m.block(*b);
                    operand(m, o);
                }
            }
            Inst::Ret { val } => {
                if let Some(v) = val {
                    operand(m, v);
                }
            }
            Inst::Br { target } => *target = m.block(*target),
            Inst::CondBr { cond, t, f } => {
                operand(m, cond);
                *t = m.block(*t);
                *f = m.block(*f);
            }
            Inst::Switch {
                val,
                cases,
                default,
            } => {
                operand(m, val);
                for (_, b) in cases {
                    *b = m.block(*b);
                }
                *default = m.block(*default);
            }
            Inst::Unreachable | Inst::Unsupported(_) => {}
        }
    }
}
