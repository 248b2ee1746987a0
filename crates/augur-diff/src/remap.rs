//! Moving a lowered function or constant from one revision's program into the meta
//! program: types, source locations, globals and functions get the meta program's ids.

use augur_ir::{
    AddrBase, Callee, Const, FileId, FuncId, GlobalId, Inst, LocId, Operand, Program, SrcLoc, Ty,
    TyId, TypeInfo,
};
use rustc_hash::FxHashMap;

/// Id maps from one revision's program (`from`) into the meta program.
pub struct Remap<'a> {
    /// The revision's program.
    pub from: &'a Program,
    /// Function ids, by the revision's id.
    pub funcs: Vec<FuncId>,
    /// Global ids, by the revision's id.
    pub globals: Vec<GlobalId>,
    types: Vec<Option<TyId>>,
    files: Vec<Option<FileId>>,
    locs: Vec<Option<LocId>>,
}

/// Interning tables of the meta program, so equal types and locations share one id.
#[derive(Default)]
pub struct Interner {
    types: FxHashMap<TypeInfo, TyId>,
    files: FxHashMap<String, FileId>,
    locs: FxHashMap<SrcLoc, LocId>,
}

impl Interner {
    /// The tables of `p`'s existing types, files and locations.
    pub fn of(p: &Program) -> Self {
        let mut i = Interner::default();
        for (k, t) in p.types.iter().enumerate() {
            i.types.entry(t.clone()).or_insert(TyId(k as u32));
        }
        for (k, f) in p.files.iter().enumerate() {
            i.files.entry(f.clone()).or_insert(FileId(k as u32));
        }
        for (k, l) in p.locs.iter().enumerate().skip(1) {
            i.locs.entry(l.clone()).or_insert(LocId(k as u32));
        }
        i
    }

    /// The id of `t` in `to`, adding it if new.
    pub fn ty(&mut self, to: &mut Program, t: TypeInfo) -> TyId {
        *self.types.entry(t.clone()).or_insert_with(|| {
            to.types.push(t);
            TyId(to.types.len() as u32 - 1)
        })
    }
}

impl<'a> Remap<'a> {
    /// Empty maps from `from` (functions and globals are filled in by the caller).
    pub fn new(from: &'a Program) -> Self {
        Remap {
            from,
            funcs: Vec::new(),
            globals: Vec::new(),
            types: vec![None; from.types.len()],
            files: vec![None; from.files.len()],
            locs: vec![None; from.locs.len()],
        }
    }

    /// The meta program's id of the revision's type `t`.
    pub fn ty(&mut self, t: TyId, to: &mut Program, int: &mut Interner) -> TyId {
        if let Some(m) = self.types[t.0 as usize] {
            return m;
        }
        let mut info = self.from.ty(t).clone();
        info.ty = match info.ty {
            Ty::Struct { fields } => Ty::Struct {
                fields: fields
                    .into_iter()
                    .map(|(o, f)| (o, self.ty(f, to, int)))
                    .collect(),
            },
            Ty::Array { elem, len, stride } => Ty::Array {
                elem: self.ty(elem, to, int),
                len,
                stride,
            },
            other => other,
        };
        let m = int.ty(to, info);
        self.types[t.0 as usize] = Some(m);
        m
    }

    /// The meta program's id of the revision's source location `l`.
    pub fn loc(&mut self, l: LocId, to: &mut Program, int: &mut Interner) -> LocId {
        if l.0 == 0 {
            return l;
        }
        if let Some(m) = self.locs[l.0 as usize] {
            return m;
        }
        let src = self.from.locs[l.0 as usize].clone();
        let file = match self.files[src.file.0 as usize] {
            Some(f) => f,
            None => {
                let path = self.from.file(src.file).to_string();
                let f = *int.files.entry(path.clone()).or_insert_with(|| {
                    to.files.push(path);
                    FileId(to.files.len() as u32 - 1)
                });
                self.files[src.file.0 as usize] = Some(f);
                f
            }
        };
        let s = SrcLoc { file, ..src };
        let m = *int.locs.entry(s.clone()).or_insert_with(|| {
            to.locs.push(s);
            LocId(to.locs.len() as u32 - 1)
        });
        self.locs[l.0 as usize] = Some(m);
        m
    }

    /// A constant with the meta program's ids.
    pub fn constant(&mut self, c: &Const, to: &mut Program, int: &mut Interner) -> Const {
        match c {
            Const::Int { .. } => c.clone(),
            Const::Addr { base, offset } => Const::Addr {
                base: match base {
                    AddrBase::Global(g) => AddrBase::Global(self.globals[g.0 as usize]),
                    AddrBase::Func(f) => AddrBase::Func(self.funcs[f.0 as usize]),
                },
                offset: *offset,
            },
            Const::Agg(items) => {
                Const::Agg(items.iter().map(|i| self.constant(i, to, int)).collect())
            }
            Const::Zero(t) => Const::Zero(self.ty(*t, to, int)),
            Const::Undef(t) => Const::Undef(self.ty(*t, to, int)),
        }
    }

    fn operand(&mut self, o: &Operand, to: &mut Program, int: &mut Interner) -> Operand {
        match o {
            Operand::Const(c) => Operand::Const(Box::new(self.constant(c, to, int))),
            other => other.clone(),
        }
    }

    /// An instruction with the meta program's ids.
    pub fn inst(&mut self, i: &Inst, to: &mut Program, int: &mut Interner) -> Inst {
        let mut inst = match i {
            Inst::Bin {
                op: o,
                dst,
                a,
                b,
                width,
            } => Inst::Bin {
                op: *o,
                dst: *dst,
                a: self.operand(a, to, int),
                b: self.operand(b, to, int),
                width: *width,
            },
            Inst::FBin {
                op: o,
                dst,
                a,
                b,
                kind,
            } => Inst::FBin {
                op: *o,
                dst: *dst,
                a: self.operand(a, to, int),
                b: self.operand(b, to, int),
                kind: *kind,
            },
            Inst::FNeg { dst, a, kind } => Inst::FNeg {
                dst: *dst,
                a: self.operand(a, to, int),
                kind: *kind,
            },
            Inst::ICmp { pred, dst, a, b } => Inst::ICmp {
                pred: *pred,
                dst: *dst,
                a: self.operand(a, to, int),
                b: self.operand(b, to, int),
            },
            Inst::FCmp {
                pred,
                dst,
                a,
                b,
                kind,
            } => Inst::FCmp {
                pred: *pred,
                dst: *dst,
                a: self.operand(a, to, int),
                b: self.operand(b, to, int),
                kind: *kind,
            },
            Inst::Cast {
                op: o,
                dst,
                a,
                width,
            } => Inst::Cast {
                op: *o,
                dst: *dst,
                a: self.operand(a, to, int),
                width: *width,
            },
            Inst::FpCast {
                op: o,
                dst,
                a,
                from,
                to: t,
                int_width,
            } => Inst::FpCast {
                op: *o,
                dst: *dst,
                a: self.operand(a, to, int),
                from: *from,
                to: *t,
                int_width: *int_width,
            },
            Inst::Select { dst, cond, t, f } => Inst::Select {
                dst: *dst,
                cond: self.operand(cond, to, int),
                t: self.operand(t, to, int),
                f: self.operand(f, to, int),
            },
            Inst::Alloca {
                dst,
                elem_size,
                count,
                align,
                var,
            } => Inst::Alloca {
                dst: *dst,
                elem_size: *elem_size,
                count: self.operand(count, to, int),
                align: *align,
                var: var.clone(),
            },
            Inst::Load { dst, addr, ty } => Inst::Load {
                dst: *dst,
                addr: self.operand(addr, to, int),
                ty: *ty,
            },
            Inst::Store { addr, val, ty } => Inst::Store {
                addr: self.operand(addr, to, int),
                val: self.operand(val, to, int),
                ty: *ty,
            },
            Inst::Gep {
                dst,
                base,
                offset,
                indices,
            } => Inst::Gep {
                dst: *dst,
                base: self.operand(base, to, int),
                offset: *offset,
                indices: indices
                    .iter()
                    .map(|(o, w, s)| (self.operand(o, to, int), *w, *s))
                    .collect(),
            },
            Inst::ExtractValue { dst, agg, path } => Inst::ExtractValue {
                dst: *dst,
                agg: self.operand(agg, to, int),
                path: path.clone(),
            },
            Inst::InsertValue {
                dst,
                agg,
                elem,
                path,
            } => Inst::InsertValue {
                dst: *dst,
                agg: self.operand(agg, to, int),
                elem: self.operand(elem, to, int),
                path: path.clone(),
            },
            Inst::Call {
                dst,
                callee,
                args,
                ret_ty,
            } => Inst::Call {
                dst: *dst,
                callee: match callee {
                    Callee::Direct(f) => Callee::Direct(self.funcs[f.0 as usize]),
                    Callee::Indirect(o) => Callee::Indirect(self.operand(o, to, int)),
                    Callee::Asm => Callee::Asm,
                },
                args: args.iter().map(|a| self.operand(a, to, int)).collect(),
                ret_ty: *ret_ty,
            },
            Inst::Phi { dst, incoming } => Inst::Phi {
                dst: *dst,
                incoming: incoming
                    .iter()
                    .map(|(b, o)| (*b, self.operand(o, to, int)))
                    .collect(),
            },
            Inst::Ret { val } => Inst::Ret {
                val: val.as_ref().map(|v| self.operand(v, to, int)),
            },
            Inst::CondBr { cond, t, f } => Inst::CondBr {
                cond: self.operand(cond, to, int),
                t: *t,
                f: *f,
            },
            Inst::Switch {
                val,
                cases,
                default,
            } => Inst::Switch {
                val: self.operand(val, to, int),
                cases: cases.clone(),
                default: *default,
            },
            Inst::Br { .. } | Inst::Unreachable | Inst::Unsupported(_) => i.clone(),
        };
        match &mut inst {
            Inst::Load { ty, .. } | Inst::Store { ty, .. } | Inst::Call { ret_ty: ty, .. } => {
                *ty = self.ty(*ty, to, int)
            }
            _ => {}
        }
        inst
    }
}
