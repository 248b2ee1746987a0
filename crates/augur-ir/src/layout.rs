//! Type lowering and data layout: sizes, alignments, field offsets (x86-64 per the module's
//! data layout string as `llvm-ir` parses it).

use crate::program::{FpKind, Ty, TyId, TypeInfo};
use llvm_ir::module::DataLayout;
use llvm_ir::types::{FPType, NamedStructDef, Type, TypeRef, Types};
use rustc_hash::FxHashMap;

/// Interns lowered types and computes their layout.
pub struct Layout<'m> {
    types: &'m Types,
    data_layout: &'m DataLayout,
    cache: FxHashMap<TypeRef, TyId>,
    interned: FxHashMap<TypeInfo, TyId>,
    /// The interned types, indexed by [`TyId`].
    pub table: Vec<TypeInfo>,
}

/// The widest integer type lowered (the engine holds integers wider than 128 bits as
/// concrete values only).
pub const MAX_INT_WIDTH: u32 = 1024;

fn round_up(x: u64, align: u64) -> u64 {
    x.div_ceil(align.max(1)) * align.max(1)
}

impl<'m> Layout<'m> {
    /// A layout for the types of one module.
    pub fn new(types: &'m Types, data_layout: &'m DataLayout) -> Self {
        Layout {
            types,
            data_layout,
            cache: FxHashMap::default(),
            interned: FxHashMap::default(),
            table: Vec::new(),
        }
    }

    /// The info of an already lowered type.
    pub fn info(&self, t: TyId) -> &TypeInfo {
        &self.table[t.0 as usize]
    }

    fn intern(&mut self, info: TypeInfo) -> TyId {
        if let Some(&id) = self.interned.get(&info) {
            return id;
        }
        let id = TyId(self.table.len() as u32);
        self.table.push(info.clone());
        self.interned.insert(info, id);
        id
    }

    /// Lower an `llvm-ir` type, computing its layout.
    pub fn lower(&mut self, ty: &TypeRef) -> Result<TyId, String> {
        if let Some(&id) = self.cache.get(ty) {
            return Ok(id);
        }
        let info = self.compute(ty)?;
        let id = self.intern(info);
        self.cache.insert(ty.clone(), id);
        Ok(id)
    }

    fn int_align(&self, bits: u32) -> u64 {
        (self.data_layout.alignments.int_alignment(bits).abi / 8).max(1) as u64
    }

    fn compute(&mut self, ty: &TypeRef) -> Result<TypeInfo, String> {
        let scalar = |ty: Ty, size: u64, align: u64| TypeInfo {
            ty,
            store_size: size,
            alloc_size: round_up(size, align),
            align,
        };
        Ok(match ty.as_ref() {
            // Metadata, labels and tokens only appear as parameters of intrinsics augur drops.
            Type::VoidType | Type::MetadataType | Type::LabelType | Type::TokenType => {
                scalar(Ty::Void, 0, 1)
            }
            Type::IntegerType { bits } => {
                let bits = *bits;
                if bits == 0 || bits > MAX_INT_WIDTH {
                    return Err(format!(
                        "integer type i{bits} is wider than {MAX_INT_WIDTH} bits"
                    ));
                }
                scalar(Ty::Int(bits), bits.div_ceil(8) as u64, self.int_align(bits))
            }
            Type::PointerType { .. } => scalar(Ty::Ptr, 8, 8),
            Type::FPType(fpt) => {
                let (kind, size) = match fpt {
                    FPType::Single => (FpKind::F32, 4),
                    FPType::Double => (FpKind::F64, 8),
                    FPType::X86_FP80 => (FpKind::F80, 10),
                    other => return Err(format!("floating-point type {other:?} is not supported")),
                };
                let align = (self.data_layout.alignments.fp_alignment(*fpt).abi / 8).max(1) as u64;
                scalar(Ty::Float(kind), size, align)
            }
            Type::FuncType { .. } => scalar(Ty::Func, 0, 1),
            Type::ArrayType {
                element_type,
                num_elements,
            }
            | Type::VectorType {
                element_type,
                num_elements,
                ..
            } => {
                let elem = self.lower(element_type)?;
                let e = self.info(elem).clone();
                let len = *num_elements as u64;
                let size = e.alloc_size * len;
                TypeInfo {
                    ty: Ty::Array {
                        elem,
                        len,
                        stride: e.alloc_size,
                    },
                    store_size: size,
                    alloc_size: round_up(size, e.align),
                    align: e.align,
                }
            }
            Type::StructType {
                element_types,
                is_packed,
            } => self.struct_layout(element_types, *is_packed)?,
            Type::NamedStructType { name } => match self.types.named_struct_def(name) {
                None | Some(NamedStructDef::Opaque) => scalar(Ty::Struct { fields: vec![] }, 0, 1),
                Some(NamedStructDef::Defined(def)) => {
                    let def = def.clone();
                    return self.compute(&def);
                }
            },
            other => return Err(format!("type {other} is not supported")),
        })
    }

    fn struct_layout(&mut self, elems: &[TypeRef], packed: bool) -> Result<TypeInfo, String> {
        let mut fields = Vec::with_capacity(elems.len());
        let mut offset = 0u64;
        let mut align = 1u64;
        for e in elems {
            let id = self.lower(e)?;
            let info = self.info(id);
            let a = if packed { 1 } else { info.align };
            offset = round_up(offset, a);
            fields.push((offset, id));
            offset += info.alloc_size;
            align = align.max(a);
        }
        Ok(TypeInfo {
            ty: Ty::Struct { fields },
            store_size: offset,
            alloc_size: round_up(offset, align),
            align,
        })
    }

    /// Byte offset of field `index` of a struct type, or stride-scaled offset for arrays.
    /// Returns the offset and the type of the element.
    pub fn element(&self, agg: TyId, index: u64) -> Result<(u64, TyId), String> {
        match &self.info(agg).ty {
            Ty::Struct { fields } => fields
                .get(index as usize)
                .copied()
                .ok_or_else(|| format!("struct field {index} out of range")),
            Ty::Array { elem, stride, .. } => Ok((index * stride, *elem)),
            other => Err(format!("cannot index into {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_up_to_alignment() {
        assert_eq!(round_up(5, 4), 8);
        assert_eq!(round_up(8, 4), 8);
        assert_eq!(round_up(0, 8), 0);
        assert_eq!(round_up(3, 1), 3);
    }
}
