//! Moving a lowered function or constant from one revision's program into the meta
//! program: types, source locations, globals and functions get the meta program's ids.

use augur_ir::{
    AddrBase, Const, FileId, FuncId, GlobalId, IdMap, Inst, LocId, Program, SrcLoc, Ty, TyId,
    TypeInfo,
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

    /// An instruction with the meta program's ids.
    pub fn inst(&mut self, i: &Inst, to: &mut Program, int: &mut Interner) -> Inst {
        i.map_ids(&mut Into {
            remap: self,
            to,
            int,
        })
    }
}

/// A [`Remap`] with the program it maps into, as an [`IdMap`].
struct Into<'r, 'a> {
    remap: &'r mut Remap<'a>,
    to: &'r mut Program,
    int: &'r mut Interner,
}

impl IdMap for Into<'_, '_> {
    fn constant(&mut self, c: &Const) -> Const {
        self.remap.constant(c, self.to, self.int)
    }
    fn ty(&mut self, t: TyId) -> TyId {
        self.remap.ty(t, self.to, self.int)
    }
    fn func(&mut self, f: FuncId) -> FuncId {
        self.remap.funcs[f.0 as usize]
    }
}
