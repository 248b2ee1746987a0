//! Rewriting the ids inside a lowered instruction: registers, blocks, constants (globals
//! and functions), types and direct callees, each through an [`IdMap`] whose methods
//! default to the identity.

use augur_ir::{BlockId, Callee, Const, FuncId, Inst, Operand, Reg, TyId};

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

fn operand(m: &mut impl IdMap, o: &Operand) -> Operand {
    match o {
        Operand::Reg(r) => Operand::Reg(m.reg(*r)),
        Operand::Imm { .. } => o.clone(),
        Operand::Const(c) => Operand::Const(Box::new(m.constant(c))),
    }
}

/// `i` with its ids changed by `m`.
pub fn map_inst(m: &mut impl IdMap, i: &Inst) -> Inst {
    match i {
        Inst::Bin {
            op,
            dst,
            a,
            b,
            width,
        } => Inst::Bin {
            op: *op,
            dst: m.reg(*dst),
            a: operand(m, a),
            b: operand(m, b),
            width: *width,
        },
        Inst::FBin {
            op,
            dst,
            a,
            b,
            kind,
        } => Inst::FBin {
            op: *op,
            dst: m.reg(*dst),
            a: operand(m, a),
            b: operand(m, b),
            kind: *kind,
        },
        Inst::FNeg { dst, a, kind } => Inst::FNeg {
            dst: m.reg(*dst),
            a: operand(m, a),
            kind: *kind,
        },
        Inst::ICmp { pred, dst, a, b } => Inst::ICmp {
            pred: *pred,
            dst: m.reg(*dst),
            a: operand(m, a),
            b: operand(m, b),
        },
        Inst::FCmp {
            pred,
            dst,
            a,
            b,
            kind,
        } => Inst::FCmp {
            pred: *pred,
            dst: m.reg(*dst),
            a: operand(m, a),
            b: operand(m, b),
            kind: *kind,
        },
        Inst::Cast { op, dst, a, width } => Inst::Cast {
            op: *op,
            dst: m.reg(*dst),
            a: operand(m, a),
            width: *width,
        },
        Inst::FpCast {
            op,
            dst,
            a,
            from,
            to,
            int_width,
        } => Inst::FpCast {
            op: *op,
            dst: m.reg(*dst),
            a: operand(m, a),
            from: *from,
            to: *to,
            int_width: *int_width,
        },
        Inst::Select { dst, cond, t, f } => Inst::Select {
            dst: m.reg(*dst),
            cond: operand(m, cond),
            t: operand(m, t),
            f: operand(m, f),
        },
        Inst::Alloca {
            dst,
            elem_size,
            count,
            align,
            var,
        } => Inst::Alloca {
            dst: m.reg(*dst),
            elem_size: *elem_size,
            count: operand(m, count),
            align: *align,
            var: var.clone(),
        },
        Inst::Load { dst, addr, ty } => Inst::Load {
            dst: m.reg(*dst),
            addr: operand(m, addr),
            ty: m.ty(*ty),
        },
        Inst::Store { addr, val, ty } => Inst::Store {
            addr: operand(m, addr),
            val: operand(m, val),
            ty: m.ty(*ty),
        },
        Inst::Gep {
            dst,
            base,
            offset,
            indices,
        } => Inst::Gep {
            dst: m.reg(*dst),
            base: operand(m, base),
            offset: *offset,
            indices: indices
                .iter()
                .map(|(o, w, s)| (operand(m, o), *w, *s))
                .collect(),
        },
        Inst::ExtractValue { dst, agg, path } => Inst::ExtractValue {
            dst: m.reg(*dst),
            agg: operand(m, agg),
            path: path.clone(),
        },
        Inst::InsertValue {
            dst,
            agg,
            elem,
            path,
        } => Inst::InsertValue {
            dst: m.reg(*dst),
            agg: operand(m, agg),
            elem: operand(m, elem),
            path: path.clone(),
        },
        Inst::Call {
            dst,
            callee,
            args,
            ret_ty,
        } => Inst::Call {
            dst: dst.map(|d| m.reg(d)),
            callee: match callee {
                Callee::Direct(f) => Callee::Direct(m.func(*f)),
                Callee::Indirect(o) => Callee::Indirect(operand(m, o)),
                Callee::Asm => Callee::Asm,
            },
            args: args.iter().map(|a| operand(m, a)).collect(),
            ret_ty: m.ty(*ret_ty),
        },
        Inst::Phi { dst, incoming } => Inst::Phi {
            dst: m.reg(*dst),
            incoming: incoming
                .iter()
                .map(|(b, o)| (m.block(*b), operand(m, o)))
                .collect(),
        },
        Inst::Ret { val } => Inst::Ret {
            val: val.as_ref().map(|v| operand(m, v)),
        },
        Inst::Br { target } => Inst::Br {
            target: m.block(*target),
        },
        Inst::CondBr { cond, t, f } => Inst::CondBr {
            cond: operand(m, cond),
            t: m.block(*t),
            f: m.block(*f),
        },
        Inst::Switch {
            val,
            cases,
            default,
        } => Inst::Switch {
            val: operand(m, val),
            cases: cases.iter().map(|(v, b)| (*v, m.block(*b))).collect(),
            default: m.block(*default),
        },
        Inst::Unreachable | Inst::Unsupported(_) => i.clone(),
    }
}
