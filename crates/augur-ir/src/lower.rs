//! Lowering of an `llvm-ir` module into a [`Program`]: dense ids, resolved operands,
//! folded constant expressions, precomputed GEP offsets and interned source locations.

use crate::layout::Layout;
use crate::program::*;
use either::Either;
use llvm_ir::constant::Float;
use llvm_ir::instruction as li;
use llvm_ir::terminator as lt;
use llvm_ir::{Constant, ConstantRef, DebugLoc, HasDebugLoc, Module, Name, Terminator, Type};
use rustc_hash::FxHashMap;

/// Intrinsics that have no effect on execution and are dropped during lowering.
fn is_dropped_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.experimental.noalias.scope.decl")
        || name == "llvm.assume"
}

fn mask(value: u128, width: u32) -> u128 {
    value & augur_expr::bits::mask(width.clamp(1, 128))
}

fn sign_extend(value: u128, width: u32) -> i128 {
    augur_expr::bits::to_signed(value, width.clamp(1, 128))
}

fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(k) => k.to_string(),
    }
}

/// Lower a whole module.
pub fn lower_module(module: &Module) -> Result<Program, String> {
    let mut cx = Lowerer {
        module,
        layout: Layout::new(&module.types, &module.data_layout),
        prog: Program::default(),
        loc_ids: FxHashMap::default(),
        file_ids: FxHashMap::default(),
        aliases: FxHashMap::default(),
    };
    cx.prog.locs.push(SrcLoc {
        file: FileId(0),
        line: 0,
        col: 0,
    });
    cx.declare_all()?;
    cx.lower_globals()?;
    for (i, f) in module.functions.iter().enumerate() {
        let lowered = cx
            .lower_function(f)
            .map_err(|e| format!("in function `{}`: {e}", f.name))?;
        cx.prog.functions[i] = lowered;
    }
    cx.prog.types = std::mem::take(&mut cx.layout.table);
    Ok(cx.prog)
}

struct Lowerer<'m> {
    module: &'m Module,
    layout: Layout<'m>,
    prog: Program,
    loc_ids: FxHashMap<(FileId, u32, u32), LocId>,
    file_ids: FxHashMap<String, FileId>,
    aliases: FxHashMap<String, ConstantRef>,
}

/// Per-function name resolution.
struct FnScope {
    regs: FxHashMap<Name, Reg>,
    blocks: FxHashMap<Name, BlockId>,
}

impl FnScope {
    fn reg(&self, n: &Name) -> Result<Reg, String> {
        self.regs
            .get(n)
            .copied()
            .ok_or_else(|| format!("unknown value %{}", name_str(n)))
    }
    fn block(&self, n: &Name) -> Result<BlockId, String> {
        self.blocks
            .get(n)
            .copied()
            .ok_or_else(|| format!("unknown block %{}", name_str(n)))
    }
}

impl<'m> Lowerer<'m> {
    /// Give every function and global its id before anything refers to them.
    fn declare_all(&mut self) -> Result<(), String> {
        let m = self.module;
        let void = self.layout.lower(&m.types.void())?;
        let decls = m
            .functions
            .iter()
            .map(|f| (&f.name, &f.parameters, &f.return_type, f.is_var_arg));
        let decls2 = m
            .func_declarations
            .iter()
            .map(|f| (&f.name, &f.parameters, &f.return_type, f.is_var_arg));
        for (name, params, ret, var_arg) in decls.chain(decls2) {
            let id = FuncId(self.prog.functions.len() as u32);
            let mut ps = Vec::new();
            for (i, p) in params.iter().enumerate() {
                ps.push((Reg(i as u32), self.layout.lower(&p.ty)?));
            }
            let ret_ty = self.layout.lower(ret).unwrap_or(void);
            self.prog.functions.push(Function {
                name: name.clone(),
                params: ps,
                ret_ty,
                is_var_arg: var_arg,
                num_regs: params.len() as u32,
                insts: vec![],
                locs: vec![],
                blocks: vec![],
                loc: LocId(0),
            });
            self.prog.func_by_name.insert(name.clone(), id);
        }
        for g in &m.global_vars {
            let id = GlobalId(self.prog.globals.len() as u32);
            let name = name_str(&g.name);
            let content_ty = match g.ty.as_ref() {
                Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                _ => return Err(format!("global @{name} does not have a pointer type")),
            };
            let ty = self
                .layout
                .lower(&content_ty)
                .map_err(|e| format!("global @{name}: {e}"))?;
            let info = self.layout.info(ty);
            let align = info.align.max(g.alignment as u64);
            self.prog.globals.push(Global {
                name: name.clone(),
                ty,
                size: info.alloc_size.max(info.store_size),
                align,
                init: None,
                is_constant: g.is_constant,
            });
            self.prog.global_by_name.insert(name, id);
        }
        for a in &m.global_aliases {
            self.aliases.insert(name_str(&a.name), a.aliasee.clone());
        }
        Ok(())
    }

    fn lower_globals(&mut self) -> Result<(), String> {
        for (i, g) in self.module.global_vars.iter().enumerate() {
            if let Some(init) = &g.initializer {
                let c = self
                    .constant(init)
                    .map_err(|e| format!("initializer of @{}: {e}", name_str(&g.name)))?;
                self.prog.globals[i].init = Some(c);
            }
        }
        Ok(())
    }

    fn file_id(&mut self, dl: &DebugLoc) -> FileId {
        let path = match &dl.directory {
            Some(d) if !dl.filename.starts_with('/') && !d.is_empty() => {
                format!("{d}/{}", dl.filename)
            }
            _ => dl.filename.clone(),
        };
        if let Some(&f) = self.file_ids.get(&path) {
            return f;
        }
        let f = FileId(self.prog.files.len() as u32);
        self.prog.files.push(path.clone());
        self.file_ids.insert(path, f);
        f
    }

    fn loc(&mut self, dl: &Option<DebugLoc>) -> LocId {
        let Some(dl) = dl else { return LocId(0) };
        if dl.line == 0 {
            return LocId(0);
        }
        let file = self.file_id(dl);
        let key = (file, dl.line, dl.col.unwrap_or(0));
        if let Some(&l) = self.loc_ids.get(&key) {
            return l;
        }
        let l = LocId(self.prog.locs.len() as u32);
        self.prog.locs.push(SrcLoc {
            file,
            line: dl.line,
            col: dl.col.unwrap_or(0),
        });
        self.loc_ids.insert(key, l);
        l
    }

    // ---------------------------------------------------------------- constants

    fn global_ref(&mut self, name: &Name) -> Result<Const, String> {
        let s = name_str(name);
        if let Some(&g) = self.prog.global_by_name.get(&s) {
            return Ok(Const::Addr {
                base: AddrBase::Global(g),
                offset: 0,
            });
        }
        if let Some(&f) = self.prog.func_by_name.get(&s) {
            return Ok(Const::Addr {
                base: AddrBase::Func(f),
                offset: 0,
            });
        }
        if let Some(aliasee) = self.aliases.get(&s).cloned() {
            return self.constant(&aliasee);
        }
        Err(format!("reference to unknown global @{s}"))
    }

    fn int_of(&mut self, c: &ConstantRef) -> Result<(u32, u128), String> {
        match self.constant(c)? {
            Const::Int { width, value } => Ok((width, value)),
            Const::Zero(_) | Const::Undef(_) => {
                let t = self.module.type_of(c);
                match t.as_ref() {
                    Type::IntegerType { bits } => Ok((*bits, 0)),
                    _ => Ok((64, 0)),
                }
            }
            other => Err(format!("expected an integer constant, found {other:?}")),
        }
    }

    /// Fold a constant (including constant expressions) to a [`Const`].
    fn constant(&mut self, c: &ConstantRef) -> Result<Const, String> {
        use Constant as C;
        Ok(match c.as_ref() {
            C::Int { bits, value } => Const::Int {
                width: *bits,
                value: mask(*value as u128, *bits),
            },
            C::Float(Float::Single(f)) => Const::Int {
                width: 32,
                value: f.to_bits() as u128,
            },
            C::Float(Float::Double(f)) => Const::Int {
                width: 64,
                value: f.to_bits() as u128,
            },
            C::Float(other) => {
                return Err(format!(
                    "floating-point constant {other:?} is not supported"
                ))
            }
            C::Null(_) => Const::Int {
                width: 64,
                value: 0,
            },
            C::AggregateZero(t) => Const::Zero(self.layout.lower(t)?),
            C::Undef(t) | C::Poison(t) => Const::Undef(self.layout.lower(t)?),
            C::Struct { values, .. } => Const::Agg(
                values
                    .iter()
                    .map(|v| self.constant(v))
                    .collect::<Result<_, _>>()?,
            ),
            C::Array { elements, .. } | C::Vector(elements) => Const::Agg(
                elements
                    .iter()
                    .map(|v| self.constant(v))
                    .collect::<Result<_, _>>()?,
            ),
            C::GlobalReference { name, .. } => self.global_ref(name)?,
            C::BitCast(x) => self.constant(&x.operand)?,
            C::AddrSpaceCast(x) => self.constant(&x.operand)?,
            C::PtrToInt(x) => {
                let inner = self.constant(&x.operand)?;
                let to = self.layout.lower(&x.to_type)?;
                match (inner, &self.layout.info(to).ty) {
                    (Const::Int { value, .. }, Ty::Int(w)) => Const::Int {
                        width: *w,
                        value: mask(value, *w),
                    },
                    (addr @ Const::Addr { .. }, Ty::Int(64)) => addr,
                    (other, _) => return Err(format!("unsupported ptrtoint of {other:?}")),
                }
            }
            C::IntToPtr(x) => match self.constant(&x.operand)? {
                Const::Int { value, .. } => Const::Int { width: 64, value },
                addr @ Const::Addr { .. } => addr,
                other => return Err(format!("unsupported inttoptr of {other:?}")),
            },
            C::Trunc(x) => self.int_cast(&x.operand, &x.to_type, |v, _, w| mask(v, w))?,
            C::ZExt(x) => self.int_cast(&x.operand, &x.to_type, |v, _, _| v)?,
            C::SExt(x) => self.int_cast(&x.operand, &x.to_type, |v, from, w| {
                mask(sign_extend(v, from) as u128, w)
            })?,
            C::Add(x) => self.addr_arith(&x.operand0, &x.operand1, false)?,
            C::Sub(x) => self.addr_arith(&x.operand0, &x.operand1, true)?,
            C::GetElementPtr(g) => self.const_gep(g)?,
            C::Select(s) => {
                let (_, cond) = self.int_of(&s.condition)?;
                if cond != 0 {
                    self.constant(&s.true_value)?
                } else {
                    self.constant(&s.false_value)?
                }
            }
            C::ICmp(x) => self.const_icmp(x)?,
            C::Mul(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Mul)?,
            C::UDiv(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::UDiv)?,
            C::SDiv(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::SDiv)?,
            C::URem(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::URem)?,
            C::SRem(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::SRem)?,
            C::And(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::And)?,
            C::Or(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Or)?,
            C::Xor(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Xor)?,
            C::Shl(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Shl)?,
            C::LShr(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::LShr)?,
            C::AShr(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::AShr)?,
            other => return Err(format!("unsupported constant expression {other}")),
        })
    }

    /// A binary integer operation on two integer constants (after folding: e.g. Csmith's
    /// `xor (zext (icmp eq (gep @g ..), (gep @g ..)) to i32), -1`). Operations on addresses
    /// other than `add`/`sub` are not supported.
    fn const_int_bin(
        &mut self,
        a: &ConstantRef,
        b: &ConstantRef,
        op: IntOp,
    ) -> Result<Const, String> {
        let ca = self.constant(a)?;
        let cb = self.constant(b)?;
        let (Const::Int { width: w, value: x }, Const::Int { value: y, .. }) = (&ca, &cb) else {
            return Err(format!("unsupported constant {op:?} on {ca:?} and {cb:?}"));
        };
        let (w, x, y) = (*w, mask(*x, *w), mask(*y, *w));
        match op {
            IntOp::Shl | IntOp::LShr | IntOp::AShr if y >= w as u128 => {
                return Err(format!("constant {op:?} by {y} on i{w} is poison"))
            }
            IntOp::UDiv | IntOp::SDiv | IntOp::URem | IntOp::SRem if y == 0 => {
                return Err(format!("constant {op:?} by zero"))
            }
            _ => {}
        }
        let value = augur_expr::bits::fold_bin(&op, x, y, w);
        Ok(Const::Int {
            width: w,
            value: mask(value, w),
        })
    }

    /// `icmp` on constants. Csmith-style code compares addresses of globals, which LLVM
    /// leaves as constant expressions when it cannot fold them (`&g[1] != &g[5]`): two
    /// addresses in the same object compare by offset; distinct objects (and an object and
    /// null) are never equal; ordering distinct objects depends on the memory layout and is
    /// not supported.
    fn const_icmp(&mut self, x: &llvm_ir::constant::ICmp) -> Result<Const, String> {
        use llvm_ir::IntPredicate as P;
        let a = self.constant(&x.operand0)?;
        let b = self.constant(&x.operand1)?;
        let p = x.predicate;
        let ordered = |l: i128, r: i128, ul: u128, ur: u128| match p {
            P::EQ => ul == ur,
            P::NE => ul != ur,
            P::UGT => ul > ur,
            P::UGE => ul >= ur,
            P::ULT => ul < ur,
            P::ULE => ul <= ur,
            P::SGT => l > r,
            P::SGE => l >= r,
            P::SLT => l < r,
            P::SLE => l <= r,
        };
        let int_value = |c: &Const| match c {
            Const::Int { width, value } => Some((*width, *value)),
            Const::Zero(_) | Const::Undef(_) => Some((64, 0)),
            _ => None,
        };
        let result = match (&a, &b) {
            (
                Const::Addr {
                    base: ba,
                    offset: oa,
                },
                Const::Addr {
                    base: bb,
                    offset: ob,
                },
            ) => {
                if ba == bb {
                    // Same object: addresses are base + offset with no wrap-around.
                    let (l, r) = (*oa as i128, *ob as i128);
                    ordered(l, r, l as u128, r as u128)
                } else {
                    match p {
                        P::EQ => false,
                        P::NE => true,
                        _ => {
                            return Err(format!(
                            "unsupported constant comparison {p} of addresses of different objects"
                        ))
                        }
                    }
                }
            }
            (Const::Addr { .. }, other) | (other, Const::Addr { .. }) => {
                match (int_value(other), p) {
                    (Some((_, 0)), P::EQ) => false,
                    (Some((_, 0)), P::NE) => true,
                    _ => {
                        return Err(format!(
                            "unsupported constant comparison {p} of an address and {other:?}"
                        ))
                    }
                }
            }
            _ => match (int_value(&a), int_value(&b)) {
                (Some((w, va)), Some((_, vb))) => {
                    let (va, vb) = (mask(va, w), mask(vb, w));
                    ordered(sign_extend(va, w), sign_extend(vb, w), va, vb)
                }
                _ => {
                    return Err(format!(
                        "unsupported constant comparison of {a:?} and {b:?}"
                    ))
                }
            },
        };
        Ok(Const::Int {
            width: 1,
            value: result as u128,
        })
    }

    fn int_cast(
        &mut self,
        op: &ConstantRef,
        to: &llvm_ir::TypeRef,
        f: impl Fn(u128, u32, u32) -> u128,
    ) -> Result<Const, String> {
        let (from, v) = self.int_of(op)?;
        let to_id = self.layout.lower(to)?;
        let Ty::Int(w) = self.layout.info(to_id).ty else {
            return Err("integer cast to a non-integer type".into());
        };
        Ok(Const::Int {
            width: w,
            value: f(v, from, w),
        })
    }

    /// `a + b` or `a - b` on constants, where either may be an address.
    fn addr_arith(&mut self, a: &ConstantRef, b: &ConstantRef, sub: bool) -> Result<Const, String> {
        let ca = self.constant(a)?;
        let cb = self.constant(b)?;
        match (ca, cb) {
            (Const::Int { width, value: x }, Const::Int { value: y, .. }) => Ok(Const::Int {
                width,
                value: mask(
                    if sub {
                        x.wrapping_sub(y)
                    } else {
                        x.wrapping_add(y)
                    },
                    width,
                ),
            }),
            (Const::Addr { base, offset }, Const::Int { width, value }) => {
                let d = sign_extend(value, width) as i64;
                Ok(Const::Addr {
                    base,
                    offset: if sub { offset - d } else { offset + d },
                })
            }
            (Const::Int { width, value }, Const::Addr { base, offset }) if !sub => {
                Ok(Const::Addr {
                    base,
                    offset: offset + sign_extend(value, width) as i64,
                })
            }
            (x, y) => Err(format!(
                "unsupported constant arithmetic on {x:?} and {y:?}"
            )),
        }
    }

    fn const_gep(&mut self, g: &llvm_ir::constant::GetElementPtr) -> Result<Const, String> {
        let base = self.constant(&g.address)?;
        // LLVM 14 constant GEPs carry no source element type: it is the pointee of the address.
        let src = match self.module.type_of(&g.address).as_ref() {
            Type::PointerType { pointee_type, .. } => pointee_type.clone(),
            _ => return Err("constant GEP on a non-pointer".into()),
        };
        let mut cur = self.layout.lower(&src)?;
        let mut delta: i64 = 0;
        for (k, idx) in g.indices.iter().enumerate() {
            let (w, v) = self.int_of(idx)?;
            let i = sign_extend(v, w) as i64;
            if k == 0 {
                delta += i * self.layout.info(cur).alloc_size as i64;
            } else {
                let (off, elem) = match &self.layout.info(cur).ty {
                    Ty::Array { elem, stride, .. } => ((i * *stride as i64), *elem),
                    _ => {
                        let (o, e) = self.layout.element(cur, i as u64)?;
                        (o as i64, e)
                    }
                };
                delta += off;
                cur = elem;
            }
        }
        match base {
            Const::Addr { base, offset } => Ok(Const::Addr {
                base,
                offset: offset + delta,
            }),
            Const::Int { value, .. } => Ok(Const::Int {
                width: 64,
                value: mask((value as i128 + delta as i128) as u128, 64),
            }),
            other => Err(format!("constant GEP on {other:?}")),
        }
    }

    // ---------------------------------------------------------------- operands

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

    fn lower_function(&mut self, f: &llvm_ir::Function) -> Result<Function, String> {
        let mut scope = FnScope {
            regs: FxHashMap::default(),
            blocks: FxHashMap::default(),
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
            Either::Left(_) => Callee::Asm,
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
                let var = match &x.dest {
                    Name::Name(n) => Some(n.as_str().into()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_and_masks() {
        assert_eq!(sign_extend(0xff, 8), -1);
        assert_eq!(sign_extend(0x7f, 8), 127);
        assert_eq!(mask(0x1ff, 8), 0xff);
        assert_eq!(mask(u128::MAX, 128), u128::MAX);
    }
}
