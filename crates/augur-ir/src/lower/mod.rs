//! Lowering of an `llvm-ir` module into a [`Program`]: dense ids for functions, blocks,
//! globals and registers, and interned source locations. Constants are folded by
//! [`constants`], instructions lowered by [`instructions`].

mod constants;
mod instructions;

use crate::layout::Layout;
use crate::program::*;
use crate::wide_consts::ModuleFacts;
#[cfg(not(feature = "llvm19"))]
use llvm_ir::Type;
use llvm_ir::{ConstantRef, DebugLoc, Module, Name};
use rustc_hash::FxHashMap;

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
    lower_module_with(module, &Default::default())
}

/// Lower a whole module, given what `llvm-ir` does not tell of it: the sizes of the globals
/// it declares without defining them (with opaque pointers, LLVM 15 and later) and why
/// each inline-assembly call left cannot run.
pub(crate) fn lower_module_with(module: &Module, facts: &ModuleFacts) -> Result<Program, String> {
    let mut cx = Lowerer {
        module,
        facts,
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
    /// What `llvm-ir` does not tell (declared globals' sizes are read with opaque
    /// pointers only).
    facts: &'m ModuleFacts,
    layout: Layout<'m>,
    prog: Program,
    loc_ids: FxHashMap<(FileId, u32, u32), LocId>,
    file_ids: FxHashMap<String, FileId>,
    aliases: FxHashMap<String, ConstantRef>,
}

/// Per-function name resolution.
struct FnScope<'m> {
    regs: FxHashMap<Name, Reg>,
    blocks: FxHashMap<Name, BlockId>,
    /// Why each inline-assembly call of the function cannot run, in order.
    asm_left: &'m [String],
    /// Inline-assembly calls lowered so far.
    asm_seen: std::cell::Cell<usize>,
    /// The function's name (for its stack slots' source names).
    func: &'m str,
}

impl FnScope<'_> {
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

    /// Why the next inline-assembly call of the function cannot run, if known.
    fn next_asm(&self) -> Option<Box<str>> {
        let i = self.asm_seen.replace(self.asm_seen.get() + 1);
        self.asm_left.get(i).map(|why| why.as_str().into())
    }
}

impl<'m> Lowerer<'m> {
    /// The type of a global's contents: its pointee type (LLVM 14); with opaque pointers,
    /// its initializer's type, or for a declaration its size as bytes (`declared`).
    fn global_value_type(
        &self,
        g: &llvm_ir::module::GlobalVariable,
        name: &str,
    ) -> Result<llvm_ir::TypeRef, String> {
        #[cfg(not(feature = "llvm19"))]
        if let Type::PointerType { pointee_type, .. } = g.ty.as_ref() {
            return Ok(pointee_type.clone());
        }
        #[cfg(feature = "llvm19")]
        if let Some(init) = &g.initializer {
            return Ok(self.module.type_of(init));
        }
        #[cfg(feature = "llvm19")]
        if let Some(&size) = self.facts.declared.get(name) {
            let types = &self.module.types;
            return Ok(types.array_of(types.i8(), size as usize));
        }
        Err(format!(
            "global @{name}: the type of its contents is unknown"
        ))
    }

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
            let content_ty = self.global_value_type(g, &name)?;
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
