//! The meta program of N revisions, built at the IR level (Psychic's meta program, made
//! automatic): each revision is compiled and lowered on its own, then merged into revision
//! 0's program. A function whose code is the same in every revision is shared; a function
//! that differs keeps one body per distinct version (`name@revK`) and its original id
//! becomes a stub that asks `augur_meta_dispatch(site, mask)` for the path's revision and
//! calls that revision's body; when the versions share their first blocks, the bodies are
//! merged instead and the meta branches sit on the edges leaving the shared blocks
//! ([`crate::blocks`]), so code before a patch inside a function runs once for all
//! revisions. Globals that differ (by initial value or shape) are kept
//! per revision, and the functions using them differ in turn. Functions of the changed
//! files also get a stub that reports their return value and pointer arguments to
//! `augur_diff_observe` after every call: these are symbolic outputs.

use crate::blocks::{self, Dispatch};
use crate::remap::{Interner, Remap};
use crate::stubs::Stub;
use augur_ir::{Const, FuncId, Function, Global, GlobalId, LocId, Program, Ty, TyId, TypeInfo};
use rustc_hash::{FxHashMap, FxHashSet};

/// The special function a dispatch stub calls: `(site: i32, mask: i64) -> i32`.
pub const META_DISPATCH: &str = "augur_meta_dispatch";
/// The special function an observation stub calls after the body returns:
/// `(function address, has result: i32, [result], arguments...)`.
pub const OBSERVE: &str = "augur_diff_observe";
/// The most revisions a meta program can hold (a site's revisions are a 64-bit mask).
pub const MAX_REVISIONS: usize = 64;

/// One revision's lowered program and the source files it changes.
pub struct RevisionProgram<'a> {
    /// The program (with augur's libc models linked in).
    pub program: &'a Program,
    /// Canonical paths of its source files that differ between revisions: their functions'
    /// results are observed.
    pub changed_files: FxHashSet<String>,
}

/// The merged program and what the merge found.
pub struct MetaProgram {
    /// The program to execute.
    pub program: Program,
    /// Which functions differ and which are observed.
    pub sites: Sites,
}

/// The functions of a meta program that differ by revision and those that are observed,
/// by name (sorted), as the summary reports them.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    /// Functions with revision-specific code (meta sites).
    pub dispatched: Vec<String>,
    /// Those of them whose versions share their first blocks, which run once for all
    /// revisions (meta branches inside the function, see [`crate::blocks`]).
    pub dispatched_inside: Vec<String>,
    /// Functions whose results are observed.
    pub observed: Vec<String>,
}

/// One body of a dispatched function and the revisions running it (none for the
/// default body, which every other revision runs).
pub struct Version {
    /// The body.
    pub func: FuncId,
    /// The revisions running it.
    pub revisions: Vec<u32>,
}

struct Builder {
    meta: Program,
    int: Interner,
    versions: FxHashMap<FuncId, Vec<Version>>,
    /// The revision whose code a function of the meta program first came from.
    origin: FxHashMap<FuncId, u32>,
    /// Observed functions, each with the mask of the parameters whose pointees are
    /// observed (pointers to data that is not const).
    observed: FxHashMap<FuncId, u64>,
    /// Per source file: its functions' pointer-to-const parameters.
    const_params: FxHashMap<String, FxHashMap<String, Vec<bool>>>,
}

/// Merge the revisions (revision 0 first) into one meta program.
pub fn merge(revisions: &[RevisionProgram]) -> Result<MetaProgram, String> {
    if revisions.len() > MAX_REVISIONS {
        return Err(format!(
            "{} revisions: a meta program holds at most {MAX_REVISIONS}",
            revisions.len()
        ));
    }
    let base = revisions[0].program;
    let mut b = Builder {
        meta: base.clone(),
        int: Interner::of(base),
        versions: FxHashMap::default(),
        origin: FxHashMap::default(),
        observed: FxHashMap::default(),
        const_params: FxHashMap::default(),
    };
    b.observe_changed(
        base,
        &(0..base.functions.len() as u32)
            .map(FuncId)
            .collect::<Vec<_>>(),
        &revisions[0].changed_files,
    );
    for (k, rev) in revisions.iter().enumerate().skip(1) {
        b.add_revision(k as u32, rev)?;
    }
    b.finish()
}

fn same_body(a: &Function, b: &Function) -> bool {
    a.num_regs == b.num_regs
        && a.insts == b.insts
        && a.blocks.len() == b.blocks.len()
        && a.blocks
            .iter()
            .zip(&b.blocks)
            .all(|(x, y)| (x.start, x.end) == (y.start, y.end))
}

fn canonical(path: &str) -> String {
    std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_string())
}

impl Builder {
    /// A name for a function or global of revision `k` that is not taken yet.
    fn fresh_name(taken: impl Fn(&str) -> bool, name: &str, k: u32) -> String {
        if !taken(name) {
            return name.to_string();
        }
        let base = format!("{name}@rev{k}");
        let mut n = base.clone();
        let mut i = 1;
        while taken(&n) {
            i += 1;
            n = format!("{base}.{i}");
        }
        n
    }

    fn add_function(&mut self, f: Function) -> FuncId {
        let id = FuncId(self.meta.functions.len() as u32);
        self.meta.func_by_name.insert(f.name.clone(), id);
        self.meta.functions.push(f);
        id
    }

    /// Mark the functions (`ids` in the meta program, by the revision's function index)
    /// defined in `changed` files as observed, with their pointer parameters that do not
    /// point to const data (as the source declares them).
    fn observe_changed(&mut self, from: &Program, ids: &[FuncId], changed: &FxHashSet<String>) {
        if changed.is_empty() {
            return;
        }
        let changed_file: Vec<bool> = from
            .files
            .iter()
            .map(|f| changed.contains(&canonical(f)))
            .collect();
        for (i, f) in from.functions.iter().enumerate() {
            let Some(file) = from.loc(f.loc).map(|l| l.file) else {
                continue;
            };
            if !f.is_defined() || f.is_var_arg || !changed_file[file.0 as usize] {
                continue;
            }
            let consts = self
                .const_params
                .entry(from.file(file).to_string())
                .or_insert_with_key(|path| {
                    std::fs::read_to_string(path)
                        .map(|src| crate::constness::const_pointer_params(&src))
                        .unwrap_or_default()
                })
                .get(f.name.split('@').next().unwrap_or_default());
            let mask = f
                .params
                .iter()
                .enumerate()
                .take(64)
                .filter(|(k, p)| {
                    matches!(from.ty(p.1).ty, Ty::Ptr)
                        && !consts.is_some_and(|c| c.get(*k).copied().unwrap_or(false))
                })
                .fold(0u64, |m, (k, _)| m | 1 << k);
            *self.observed.entry(ids[i]).or_default() |= mask;
        }
    }

    fn add_revision(&mut self, k: u32, rev: &RevisionProgram) -> Result<(), String> {
        let from = rev.program;
        let mut rm = Remap::new(from);
        let created = self.map_functions(k, from, &mut rm);
        self.map_globals(k, from, &mut rm);
        for (i, f) in from.functions.iter().enumerate() {
            let id = rm.funcs[i];
            let mut body = f.clone();
            body.insts = f
                .insts
                .iter()
                .map(|x| rm.inst(x, &mut self.meta, &mut self.int))
                .collect();
            body.locs = f
                .locs
                .iter()
                .map(|l| rm.loc(*l, &mut self.meta, &mut self.int))
                .collect();
            body.loc = rm.loc(f.loc, &mut self.meta, &mut self.int);
            let target = &mut self.meta.functions[id.0 as usize];
            body.name = target.name.clone();
            body.params = target.params.clone();
            body.ret_ty = target.ret_ty;
            if created.contains(&id) {
                *target = body;
            } else if f.is_defined() {
                self.add_version(k, id, body)?;
            }
        }
        let ids = rm.funcs.clone();
        self.observe_changed(from, &ids, &rev.changed_files);
        Ok(())
    }

    /// Function ids of revision `k`: the meta program's function of the same name and
    /// signature, or a new function (returned) for the others.
    fn map_functions(&mut self, k: u32, from: &Program, rm: &mut Remap) -> FxHashSet<FuncId> {
        let mut created = FxHashSet::default();
        for f in &from.functions {
            let params: Vec<TyId> = f
                .params
                .iter()
                .map(|p| rm.ty(p.1, &mut self.meta, &mut self.int))
                .collect();
            let ret = rm.ty(f.ret_ty, &mut self.meta, &mut self.int);
            let same_sig = |g: &Function| {
                g.ret_ty == ret
                    && g.is_var_arg == f.is_var_arg
                    && g.params.iter().map(|p| p.1).eq(params.iter().copied())
            };
            let existing = self
                .meta
                .func_named(&f.name)
                .filter(|id| same_sig(self.meta.func(*id)));
            let id = match existing {
                Some(id) => id,
                None => {
                    let meta = &self.meta;
                    let name = Self::fresh_name(|n| meta.func_named(n).is_some(), &f.name, k);
                    let id = self.add_function(Function {
                        name,
                        params: f
                            .params
                            .iter()
                            .zip(&params)
                            .map(|(p, t)| (p.0, *t))
                            .collect(),
                        ret_ty: ret,
                        is_var_arg: f.is_var_arg,
                        num_regs: f.num_regs,
                        insts: Vec::new(),
                        locs: Vec::new(),
                        blocks: Vec::new(),
                        loc: LocId(0),
                    });
                    self.origin.insert(id, k);
                    created.insert(id);
                    id
                }
            };
            rm.funcs.push(id);
        }
        created
    }

    /// Global ids of revision `k`: a global equal to the meta program's global of the same
    /// name (or, for unnamed constants such as string literals, of the same contents) is
    /// shared; the others are kept per revision. Equality of initializers that point to
    /// other globals is the greatest fixed point.
    fn map_globals(&mut self, k: u32, from: &Program, rm: &mut Remap) {
        let mut by_content: FxHashMap<(TyId, Const), GlobalId> = FxHashMap::default();
        for (i, g) in self.meta.globals.iter().enumerate() {
            if let (true, Some(init)) = (g.name.starts_with('.') && g.is_constant, &g.init) {
                by_content
                    .entry((g.ty, init.clone()))
                    .or_insert(GlobalId(i as u32));
            }
        }
        let mut candidate: Vec<Option<GlobalId>> = Vec::new();
        let mut tys = Vec::new();
        for g in &from.globals {
            let ty = rm.ty(g.ty, &mut self.meta, &mut self.int);
            tys.push(ty);
            let same_shape = |m: &Global| {
                m.ty == ty
                    && m.size == g.size
                    && m.is_constant == g.is_constant
                    && m.init.is_some() == g.init.is_some()
            };
            let by_name = self
                .meta
                .global_by_name
                .get(&g.name)
                .copied()
                .filter(|m| same_shape(&self.meta.globals[m.0 as usize]));
            let literal = g.name.starts_with('.') && g.is_constant;
            let by_literal = g
                .init
                .as_ref()
                .filter(|i| literal && !has_address(i))
                .and_then(|i| by_content.get(&(ty, i.clone())).copied());
            candidate.push(by_literal.or(by_name));
        }
        // Globals with no counterpart get placeholder ids that match nothing, until all
        // comparisons agree.
        let placeholder = |i: usize| GlobalId(u32::MAX - i as u32);
        loop {
            rm.globals = candidate
                .iter()
                .enumerate()
                .map(|(i, c)| c.unwrap_or(placeholder(i)))
                .collect();
            let mut changed = false;
            for (i, g) in from.globals.iter().enumerate() {
                let Some(c) = candidate[i] else { continue };
                let init = g
                    .init
                    .as_ref()
                    .map(|x| rm.constant(x, &mut self.meta, &mut self.int));
                if init != self.meta.globals[c.0 as usize].init {
                    candidate[i] = None;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (i, g) in from.globals.iter().enumerate() {
            if candidate[i].is_none() {
                let meta = &self.meta;
                let name = Self::fresh_name(|n| meta.global_by_name.contains_key(n), &g.name, k);
                let id = GlobalId(self.meta.globals.len() as u32);
                self.meta.global_by_name.insert(name.clone(), id);
                self.meta.globals.push(Global {
                    name,
                    ty: tys[i],
                    init: None,
                    ..g.clone()
                });
                rm.globals[i] = id;
            }
        }
        for (i, g) in from.globals.iter().enumerate() {
            if candidate[i].is_none() {
                let init = g
                    .init
                    .as_ref()
                    .map(|x| rm.constant(x, &mut self.meta, &mut self.int));
                self.meta.globals[rm.globals[i].0 as usize].init = init;
            }
        }
    }

    /// Revision `k`'s `body` of the meta program's function `id`: shared when equal to the
    /// default body, else run by `k` through a dispatch stub.
    fn add_version(&mut self, k: u32, id: FuncId, body: Function) -> Result<(), String> {
        let default = self.versions.get(&id).map_or(id, |v| v[0].func);
        if same_body(self.meta.func(default), &body) {
            return Ok(());
        }
        if !self.versions.contains_key(&id) {
            let origin = self.origin.get(&id).copied().unwrap_or(0);
            let moved = self.move_body(id, &format!("rev{origin}"));
            self.versions.insert(
                id,
                vec![Version {
                    func: moved,
                    revisions: Vec::new(),
                }],
            );
        }
        let versions = &self.versions[&id];
        if let Some(v) = versions
            .iter()
            .skip(1)
            .position(|v| same_body(self.meta.func(v.func), &body))
        {
            self.versions.get_mut(&id).unwrap()[v + 1].revisions.push(k);
            return Ok(());
        }
        let name = format!("{}@rev{k}", body.name);
        let func = self.add_function(Function { name, ..body });
        self.versions.get_mut(&id).unwrap().push(Version {
            func,
            revisions: vec![k],
        });
        Ok(())
    }

    /// Move function `id`'s body to a new function `name@suffix`, leaving `id` to a stub.
    fn move_body(&mut self, id: FuncId, suffix: &str) -> FuncId {
        let mut f = self.meta.func(id).clone();
        f.name = format!("{}@{suffix}", f.name);
        self.add_function(f)
    }

    /// A declared special function `name` returning `ret`, added if missing.
    fn special(&mut self, name: &str, ret: TyId) -> FuncId {
        if let Some(id) = self.meta.func_named(name) {
            return id;
        }
        self.add_function(Function {
            name: name.to_string(),
            params: Vec::new(),
            ret_ty: ret,
            is_var_arg: true,
            num_regs: 0,
            insts: Vec::new(),
            locs: Vec::new(),
            blocks: Vec::new(),
            loc: LocId(0),
        })
    }

    fn finish(mut self) -> Result<MetaProgram, String> {
        let i32_ty = self.int.ty(
            &mut self.meta,
            TypeInfo {
                ty: Ty::Int(32),
                store_size: 4,
                alloc_size: 4,
                align: 4,
            },
        );
        let void_ty = self.int.ty(
            &mut self.meta,
            TypeInfo {
                ty: Ty::Void,
                store_size: 0,
                alloc_size: 0,
                align: 1,
            },
        );
        let dispatch = self.special(META_DISPATCH, i32_ty);
        let observe = self.special(OBSERVE, void_ty);
        let mut stubs: Vec<FuncId> = self
            .versions
            .keys()
            .chain(self.observed.keys())
            .copied()
            .collect::<FxHashSet<_>>()
            .into_iter()
            .collect();
        stubs.sort();
        let mut dispatched = Vec::new();
        let mut observed = Vec::new();
        let mut inside = Vec::new();
        for (site, id) in stubs.into_iter().enumerate() {
            let name = self.meta.func(id).name.clone();
            if self.versions.contains_key(&id) {
                dispatched.push(name.clone());
            }
            let pointees = self.observed.get(&id).copied();
            let observe = pointees.is_some().then_some(observe);
            if observe.is_some() {
                observed.push(name.clone());
            }
            let mut versions = match self.versions.remove(&id) {
                Some(v) => v,
                None => vec![Version {
                    func: self.move_body(id, "body"),
                    revisions: Vec::new(),
                }],
            };
            if versions.len() > 1 {
                let d = Dispatch {
                    func: dispatch,
                    site: site as u32,
                    ret_ty: i32_ty,
                };
                let parts: Vec<blocks::Version> = versions
                    .iter()
                    .map(|v| blocks::Version {
                        body: self.meta.func(v.func),
                        revisions: &v.revisions,
                    })
                    .collect();
                match blocks::merge(&parts, &d) {
                    Some(merged) => {
                        self.meta.functions[id.0 as usize] = Function { name, ..merged };
                        inside.push(self.meta.func(id).name.clone());
                        if observe.is_none() {
                            continue;
                        }
                        versions = vec![Version {
                            func: self.move_body(id, "body"),
                            revisions: Vec::new(),
                        }];
                    }
                    None if self.meta.func(id).is_var_arg => {
                        return Err(format!(
                            "revisions differ in the variadic function `{name}` from its first \
                             block on, which augur diff cannot dispatch"
                        ));
                    }
                    None => {}
                }
            }
            let stub = Stub {
                id,
                site: site as u32,
                dispatch,
                observe,
                pointees: pointees.unwrap_or(0),
                i32_ty,
                void_ty,
            };
            let f = stub.function(&self.meta, &versions);
            self.meta.functions[id.0 as usize] = f;
        }
        dispatched.sort();
        observed.sort();
        inside.sort();
        Ok(MetaProgram {
            program: self.meta,
            sites: Sites {
                dispatched,
                dispatched_inside: inside,
                observed,
            },
        })
    }
}

/// Does a constant contain an address?
fn has_address(c: &Const) -> bool {
    match c {
        Const::Addr { .. } => true,
        Const::Agg(items) => items.iter().any(has_address),
        _ => false,
    }
}
