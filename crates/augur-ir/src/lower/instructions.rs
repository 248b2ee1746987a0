//! Instruction lowering: a function's blocks and instructions with operands resolved to
//! registers, immediates and folded constants, GEPs to `offset + sum(index * scale)`.

use super::{name_str, sign_extend, FnScope, Lowerer};
use crate::program::*;
use either::Either;
use llvm_ir::instruction as li;
use llvm_ir::terminator as lt;
use llvm_ir::{HasDebugLoc, Name, Terminator, Type};
use rustc_hash::FxHashMap;

/// Intrinsics that have no effect on execution and are dropped during lowering.
fn is_dropped_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.experimental.noalias.scope.decl")
        || name == "llvm.assume"
}

impl Lowerer<'_> {
    fn operand(&mut self, op: &llvm_ir::Operand, scope: &FnScope) -> Result<Operand, String> {
        match op {
            llvm_ir::Operand::LocalOperand { name, .. } => Ok(Operand::Reg(scope.reg(name)?)),
            llvm_ir::Operand::ConstantOperand(c) => Ok(match self.constant(c)? {
                Const::Int { width, value } => Operand::Imm { width, value },
                other => Operand::Const(Box::new(other)),
            }),
            llvm_ir::Operand::MetadataOperand => Ok(Operand::Imm { width: 1, value: 0 }),
        }
    }

    fn int_width(&mut self, t: &llvm_ir::TypeRef) -> Result<u32, String> {
        let id = self.layout.lower(t)?;
        Ok(match self.layout.info(id).ty {
            Ty::Int(w) => w,
            Ty::Ptr => 64,
            Ty::Float(k) => k.bits(),
            _ => (self.layout.info(id).store_size * 8) as u32,
        })
    }

    fn fp_kind(&mut self, t: &llvm_ir::TypeRef) -> Result<FpKind, String> {
        let id = self.layout.lower(t)?;
        match self.layout.info(id).ty {
            Ty::Float(k) => Ok(k),
            ref other => Err(format!("expected a floating-point type, found {other:?}")),
        }
    }

    // ---------------------------------------------------------------- functions

    pub(super) fn lower_function(&mut self, f: &llvm_ir::Function) -> Result<Function, String> {
        let mut scope = FnScope {
            regs: FxHashMap::default(),
            blocks: FxHashMap::default(),
            asm_left: self.facts.asm_left.get(&f.name).map_or(&[], Vec::as_slice),
            asm_seen: Default::default(),
            func: &f.name,
        };
        for (i, p) in f.parameters.iter().enumerate() {
            scope.regs.insert(p.name.clone(), Reg(i as u32));
        }
        let mut next = f.parameters.len() as u32;
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            scope.blocks.insert(b.name.clone(), BlockId(bi as u32));
            for inst in &b.instrs {
                if let Some(d) = inst.try_get_result() {
                    scope.regs.insert(d.clone(), Reg(next));
                    next += 1;
                }
            }
        }
        let id = self.prog.func_by_name[&f.name];
        let mut out = self.prog.functions[id.0 as usize].clone();
        out.loc = self.loc(&f.debugloc);
        // A `byval` parameter points to the caller's object (clang passes e.g. a global
        // struct directly), but the callee owns a private copy: copy it into a stack object
        // at entry, and let the parameter's name refer to the copy.
        for (i, p) in f.parameters.iter().enumerate() {
            let Some(ty) = p.attributes.iter().find_map(|a| match a {
                llvm_ir::function::ParameterAttribute::ByVal(t) => Some(t.clone()),
                _ => None,
            }) else {
                continue;
            };
            let t = self.layout.lower(&ty)?;
            let info = self.layout.info(t);
            let (copy, tmp) = (Reg(next), Reg(next + 1));
            next += 2;
            scope.regs.insert(p.name.clone(), copy);
            out.insts.push(Inst::Alloca {
                dst: copy,
                elem_size: info.alloc_size,
                count: Operand::Imm {
                    width: 64,
                    value: 1,
                },
                align: info.align,
                var: match &p.name {
                    Name::Name(n) => Some(n.as_str().into()),
                    Name::Number(_) => None,
                },
            });
            out.insts.push(Inst::Load {
                dst: tmp,
                addr: Operand::Reg(Reg(i as u32)),
                ty: t,
            });
            out.insts.push(Inst::Store {
                addr: Operand::Reg(copy),
                val: Operand::Reg(tmp),
                ty: t,
            });
            for _ in 0..3 {
                out.locs.push(out.loc);
            }
        }
        out.num_regs = next;
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            // The entry block starts with the byval copies.
            let start = if bi == 0 { 0 } else { out.insts.len() as u32 };
            for inst in &b.instrs {
                if let Some(lowered) = self.instruction(inst, &scope)? {
                    out.insts.push(lowered);
                    out.locs.push(self.loc(inst.get_debug_loc()));
                }
            }
            out.insts.push(self.terminator(&b.term, &scope)?);
            out.locs.push(self.loc(b.term.get_debug_loc()));
            out.blocks.push(Block {
                name: name_str(&b.name).into(),
                start,
                end: out.insts.len() as u32,
            });
        }
        Ok(out)
    }

    fn terminator(&mut self, t: &Terminator, s: &FnScope) -> Result<Inst, String> {
        Ok(match t {
            Terminator::Ret(lt::Ret { return_operand, .. }) => Inst::Ret {
                val: match return_operand {
                    Some(o) => Some(self.operand(o, s)?),
                    None => None,
                },
            },
            Terminator::Br(b) => Inst::Br {
                target: s.block(&b.dest)?,
            },
            Terminator::CondBr(b) => Inst::CondBr {
                cond: self.operand(&b.condition, s)?,
                t: s.block(&b.true_dest)?,
                f: s.block(&b.false_dest)?,
            },
            Terminator::Switch(sw) => {
                let mut cases = Vec::with_capacity(sw.dests.len());
                for (c, dest) in &sw.dests {
                    let (_, v) = self.int_of(c)?;
                    cases.push((v, s.block(dest)?));
                }
                Inst::Switch {
                    val: self.operand(&sw.operand, s)?,
                    cases,
                    default: s.block(&sw.default_dest)?,
                }
            }
            Terminator::Unreachable(_) => Inst::Unreachable,
            other => Inst::Unsupported(format!("{other}").into()),
        })
    }

    fn bin(
        &mut self,
        op: IntOp,
        a: &llvm_ir::Operand,
        b: &llvm_ir::Operand,
        dst: &Name,
        s: &FnScope,
    ) -> Result<Inst, String> {
        let t = self.module.type_of(a);
        if matches!(t.as_ref(), Type::VectorType { .. }) {
            return Ok(Inst::Unsupported("vector arithmetic".into()));
        }
        Ok(Inst::Bin {
            op,
            dst: s.reg(dst)?,
            a: self.operand(a, s)?,
            b: self.operand(b, s)?,
            width: self.int_width(&t)?,
        })
    }

    fn fbin(
        &mut self,
        op: FpOp,
        a: &llvm_ir::Operand,
        b: &llvm_ir::Operand,
        dst: &Name,
        s: &FnScope,
    ) -> Result<Inst, String> {
        let t = self.module.type_of(a);
        Ok(Inst::FBin {
            op,
            dst: s.reg(dst)?,
            a: self.operand(a, s)?,
            b: self.operand(b, s)?,
            kind: self.fp_kind(&t)?,
        })
    }

    fn cast(
        &mut self,
        op: CastOp,
        a: &llvm_ir::Operand,
        to: &llvm_ir::TypeRef,
        dst: &Name,
        s: &FnScope,
    ) -> Result<Inst, String> {
        Ok(Inst::Cast {
            op,
            dst: s.reg(dst)?,
            a: self.operand(a, s)?,
            width: self.int_width(to)?,
        })
    }

    /// A cast between integers and floats (or floats of different sizes).
    fn fp_cast(
        &mut self,
        op: FpCastOp,
        a: &llvm_ir::Operand,
        to: &llvm_ir::TypeRef,
        dst: &Name,
        s: &FnScope,
    ) -> Result<Inst, String> {
        let from_t = self.module.type_of(a);
        let (from, to_k, int_width) = match op {
            FpCastOp::Resize => (self.fp_kind(&from_t)?, self.fp_kind(to)?, 0),
            FpCastOp::ToUInt | FpCastOp::ToSInt => {
                let f = self.fp_kind(&from_t)?;
                (f, f, self.int_width(to)?)
            }
            FpCastOp::FromUInt | FpCastOp::FromSInt => {
                let t = self.fp_kind(to)?;
                (t, t, self.int_width(&from_t)?)
            }
        };
        Ok(Inst::FpCast {
            op,
            dst: s.reg(dst)?,
            a: self.operand(a, s)?,
            from,
            to: to_k,
            int_width,
        })
    }

    /// Casts from `ptrtoint`/`inttoptr`: pick the integer cast that yields `to` bits.
    fn ptr_int_cast(
        &mut self,
        a: &llvm_ir::Operand,
        to: &llvm_ir::TypeRef,
        dst: &Name,
        s: &FnScope,
    ) -> Result<Inst, String> {
        let from = self.int_width(&self.module.type_of(a))?;
        let to_w = self.int_width(to)?;
        let op = match from.cmp(&to_w) {
            std::cmp::Ordering::Greater => CastOp::Trunc,
            std::cmp::Ordering::Less => CastOp::ZExt,
            std::cmp::Ordering::Equal => CastOp::Same,
        };
        self.cast(op, a, to, dst, s)
    }

    fn gep(&mut self, g: &li::GetElementPtr, s: &FnScope) -> Result<Inst, String> {
        let mut cur = self.layout.lower(&g.source_element_type)?;
        let mut offset: i64 = 0;
        let mut indices = Vec::new();
        for (k, idx) in g.indices.iter().enumerate() {
            let op = self.operand(idx, s)?;
            let (stride, next) = if k == 0 {
                (self.layout.info(cur).alloc_size, cur)
            } else {
                match &self.layout.info(cur).ty {
                    Ty::Array { elem, stride, .. } => (*stride, *elem),
                    Ty::Struct { .. } => {
                        let Operand::Imm { value, .. } = op else {
                            return Err("struct GEP index is not a constant".into());
                        };
                        let (off, elem) = self.layout.element(cur, value as u64)?;
                        offset += off as i64;
                        cur = elem;
                        continue;
                    }
                    other => return Err(format!("GEP into non-aggregate {other:?}")),
                }
            };
            match op {
                Operand::Imm { width, value } => {
                    offset = offset.wrapping_add(
                        (sign_extend(value, width) as i64).wrapping_mul(stride as i64),
                    )
                }
                other => {
                    let w = self.int_width(&self.module.type_of(idx))?;
                    indices.push((other, w, stride));
                }
            }
            cur = next;
        }
        Ok(Inst::Gep {
            dst: s.reg(&g.dest)?,
            base: self.operand(&g.address, s)?,
            offset,
            indices,
        })
    }

    fn call(&mut self, c: &li::Call, s: &FnScope) -> Result<Option<Inst>, String> {
        let callee = match &c.function {
            Either::Left(_) => Callee::Asm(s.next_asm()),
            Either::Right(op) => match self.operand(op, s)? {
                Operand::Const(b) => match *b {
                    Const::Addr {
                        base: AddrBase::Func(f),
                        offset: 0,
                    } => Callee::Direct(f),
                    other => Callee::Indirect(Operand::Const(Box::new(other))),
                },
                other => Callee::Indirect(other),
            },
        };
        if let Callee::Direct(f) = callee {
            if is_dropped_intrinsic(&self.prog.func(f).name) {
                return Ok(None);
            }
        }
        let ret_ty = self.layout.lower(&self.module.type_of(c))?;
        let mut args = Vec::with_capacity(c.arguments.len());
        for (a, _) in &c.arguments {
            args.push(self.operand(a, s)?);
        }
        Ok(Some(Inst::Call {
            dst: match &c.dest {
                Some(d) => Some(s.reg(d)?),
                None => None,
            },
            callee,
            args,
            ret_ty,
        }))
    }

    fn instruction(&mut self, inst: &li::Instruction, s: &FnScope) -> Result<Option<Inst>, String> {
        use li::Instruction as I;
        let lowered = match inst {
            I::Add(x) => self.bin(IntOp::Add, &x.operand0, &x.operand1, &x.dest, s)?,
            I::Sub(x) => self.bin(IntOp::Sub, &x.operand0, &x.operand1, &x.dest, s)?,
            I::Mul(x) => self.bin(IntOp::Mul, &x.operand0, &x.operand1, &x.dest, s)?,
            I::UDiv(x) => self.bin(IntOp::UDiv, &x.operand0, &x.operand1, &x.dest, s)?,
            I::SDiv(x) => self.bin(IntOp::SDiv, &x.operand0, &x.operand1, &x.dest, s)?,
            I::URem(x) => self.bin(IntOp::URem, &x.operand0, &x.operand1, &x.dest, s)?,
            I::SRem(x) => self.bin(IntOp::SRem, &x.operand0, &x.operand1, &x.dest, s)?,
            I::And(x) => self.bin(IntOp::And, &x.operand0, &x.operand1, &x.dest, s)?,
            I::Or(x) => self.bin(IntOp::Or, &x.operand0, &x.operand1, &x.dest, s)?,
            I::Xor(x) => self.bin(IntOp::Xor, &x.operand0, &x.operand1, &x.dest, s)?,
            I::Shl(x) => self.bin(IntOp::Shl, &x.operand0, &x.operand1, &x.dest, s)?,
            I::LShr(x) => self.bin(IntOp::LShr, &x.operand0, &x.operand1, &x.dest, s)?,
            I::AShr(x) => self.bin(IntOp::AShr, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FAdd(x) => self.fbin(FpOp::Add, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FSub(x) => self.fbin(FpOp::Sub, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FMul(x) => self.fbin(FpOp::Mul, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FDiv(x) => self.fbin(FpOp::Div, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FRem(x) => self.fbin(FpOp::Rem, &x.operand0, &x.operand1, &x.dest, s)?,
            I::FNeg(x) => {
                let t = self.module.type_of(&x.operand);
                Inst::FNeg {
                    dst: s.reg(&x.dest)?,
                    a: self.operand(&x.operand, s)?,
                    kind: self.fp_kind(&t)?,
                }
            }
            I::ICmp(x) => {
                if matches!(
                    self.module.type_of(&x.operand0).as_ref(),
                    Type::VectorType { .. }
                ) {
                    return Ok(Some(Inst::Unsupported("vector icmp".into())));
                }
                use llvm_ir::IntPredicate as P;
                Inst::ICmp {
                    pred: match x.predicate {
                        P::EQ => IntPred::Eq,
                        P::NE => IntPred::Ne,
                        P::UGT => IntPred::Ugt,
                        P::UGE => IntPred::Uge,
                        P::ULT => IntPred::Ult,
                        P::ULE => IntPred::Ule,
                        P::SGT => IntPred::Sgt,
                        P::SGE => IntPred::Sge,
                        P::SLT => IntPred::Slt,
                        P::SLE => IntPred::Sle,
                    },
                    dst: s.reg(&x.dest)?,
                    a: self.operand(&x.operand0, s)?,
                    b: self.operand(&x.operand1, s)?,
                }
            }
            I::FCmp(x) => {
                use llvm_ir::FPPredicate as P;
                let t = self.module.type_of(&x.operand0);
                Inst::FCmp {
                    pred: match x.predicate {
                        P::False => FpPred::False,
                        P::OEQ => FpPred::Oeq,
                        P::OGT => FpPred::Ogt,
                        P::OGE => FpPred::Oge,
                        P::OLT => FpPred::Olt,
                        P::OLE => FpPred::Ole,
                        P::ONE => FpPred::One,
                        P::ORD => FpPred::Ord,
                        P::UNO => FpPred::Uno,
                        P::UEQ => FpPred::Ueq,
                        P::UGT => FpPred::Ugt,
                        P::UGE => FpPred::Uge,
                        P::ULT => FpPred::Ult,
                        P::ULE => FpPred::Ule,
                        P::UNE => FpPred::Une,
                        P::True => FpPred::True,
                    },
                    dst: s.reg(&x.dest)?,
                    a: self.operand(&x.operand0, s)?,
                    b: self.operand(&x.operand1, s)?,
                    kind: self.fp_kind(&t)?,
                }
            }
            I::Trunc(x) => self.cast(CastOp::Trunc, &x.operand, &x.to_type, &x.dest, s)?,
            I::ZExt(x) => self.cast(CastOp::ZExt, &x.operand, &x.to_type, &x.dest, s)?,
            I::SExt(x) => self.cast(CastOp::SExt, &x.operand, &x.to_type, &x.dest, s)?,
            I::BitCast(x) => self.cast(CastOp::Same, &x.operand, &x.to_type, &x.dest, s)?,
            I::AddrSpaceCast(x) => self.cast(CastOp::Same, &x.operand, &x.to_type, &x.dest, s)?,
            I::PtrToInt(x) => self.ptr_int_cast(&x.operand, &x.to_type, &x.dest, s)?,
            I::IntToPtr(x) => self.ptr_int_cast(&x.operand, &x.to_type, &x.dest, s)?,
            I::FPTrunc(x) => self.fp_cast(FpCastOp::Resize, &x.operand, &x.to_type, &x.dest, s)?,
            I::FPExt(x) => self.fp_cast(FpCastOp::Resize, &x.operand, &x.to_type, &x.dest, s)?,
            I::FPToUI(x) => self.fp_cast(FpCastOp::ToUInt, &x.operand, &x.to_type, &x.dest, s)?,
            I::FPToSI(x) => self.fp_cast(FpCastOp::ToSInt, &x.operand, &x.to_type, &x.dest, s)?,
            I::UIToFP(x) => self.fp_cast(FpCastOp::FromUInt, &x.operand, &x.to_type, &x.dest, s)?,
            I::SIToFP(x) => self.fp_cast(FpCastOp::FromSInt, &x.operand, &x.to_type, &x.dest, s)?,
            I::Freeze(x) => {
                let t = self.module.type_of(&x.operand);
                self.cast(CastOp::Same, &x.operand, &t, &x.dest, s)?
            }
            I::Select(x) => Inst::Select {
                dst: s.reg(&x.dest)?,
                cond: self.operand(&x.condition, s)?,
                t: self.operand(&x.true_value, s)?,
                f: self.operand(&x.false_value, s)?,
            },
            I::Alloca(x) => {
                let t = self.layout.lower(&x.allocated_type)?;
                let info = self.layout.info(t);
                // The variable's own name where LLVM made the slot's unique (`%p235`).
                let var = match &x.dest {
                    Name::Name(n) => Some(
                        self.facts
                            .var_names
                            .get(s.func)
                            .and_then(|slots| slots.get(n.as_str()))
                            .map_or(n.as_str(), String::as_str)
                            .into(),
                    ),
                    Name::Number(_) => None,
                };
                Inst::Alloca {
                    dst: s.reg(&x.dest)?,
                    elem_size: info.alloc_size,
                    align: info.align.max(x.alignment as u64),
                    count: self.operand(&x.num_elements, s)?,
                    var,
                }
            }
            I::Load(x) => Inst::Load {
                dst: s.reg(&x.dest)?,
                addr: self.operand(&x.address, s)?,
                ty: self.layout.lower(&self.module.type_of(inst))?,
            },
            I::Store(x) => Inst::Store {
                addr: self.operand(&x.address, s)?,
                val: self.operand(&x.value, s)?,
                ty: self.layout.lower(&self.module.type_of(&x.value))?,
            },
            I::GetElementPtr(g) => self.gep(g, s)?,
            I::ExtractValue(x) => Inst::ExtractValue {
                dst: s.reg(&x.dest)?,
                agg: self.operand(&x.aggregate, s)?,
                path: x.indices.clone(),
            },
            I::InsertValue(x) => Inst::InsertValue {
                dst: s.reg(&x.dest)?,
                agg: self.operand(&x.aggregate, s)?,
                elem: self.operand(&x.element, s)?,
                path: x.indices.clone(),
            },
            I::Phi(p) => {
                let mut incoming = Vec::with_capacity(p.incoming_values.len());
                for (v, b) in &p.incoming_values {
                    incoming.push((s.block(b)?, self.operand(v, s)?));
                }
                Inst::Phi {
                    dst: s.reg(&p.dest)?,
                    incoming,
                }
            }
            I::Call(c) => return self.call(c, s),
            I::Fence(_) => return Ok(None),
            other => Inst::Unsupported(format!("{other}").into()),
        };
        Ok(Some(lowered))
    }
}
