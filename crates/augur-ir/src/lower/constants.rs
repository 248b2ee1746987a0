//! Constant folding: constants and constant expressions become [`Const`] values, address
//! arithmetic on globals and functions a `(global|function, offset)` relocation.

use super::{mask, name_str, sign_extend, Lowerer};
use crate::program::*;
use llvm_ir::constant::Float;
use llvm_ir::{Constant, ConstantRef, Name, Type};

impl Lowerer<'_> {
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

    pub(super) fn int_of(&mut self, c: &ConstantRef) -> Result<(u32, u128), String> {
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
    pub(super) fn constant(&mut self, c: &ConstantRef) -> Result<Const, String> {
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
            C::Float(Float::X86_FP80) => {
                return Err(
                    "a long double (x86_fp80) constant inside a constant expression is \
                     not supported"
                        .into(),
                )
            }
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
            // The arms under `cfg(not(feature = "llvm19"))` are constant expressions LLVM 19 no
            // longer has (it makes instructions of them).
            #[cfg(not(feature = "llvm19"))]
            C::ZExt(x) => self.int_cast(&x.operand, &x.to_type, |v, _, _| v)?,
            #[cfg(not(feature = "llvm19"))]
            C::SExt(x) => self.int_cast(&x.operand, &x.to_type, |v, from, w| {
                mask(sign_extend(v, from) as u128, w)
            })?,
            C::Add(x) => self.addr_arith(&x.operand0, &x.operand1, false)?,
            C::Sub(x) => self.addr_arith(&x.operand0, &x.operand1, true)?,
            C::GetElementPtr(g) => self.const_gep(g)?,
            #[cfg(not(feature = "llvm19"))]
            C::Select(s) => {
                let (_, cond) = self.int_of(&s.condition)?;
                if cond != 0 {
                    self.constant(&s.true_value)?
                } else {
                    self.constant(&s.false_value)?
                }
            }
            #[cfg(not(feature = "llvm19"))]
            C::ICmp(x) => self.const_icmp(x)?,
            C::Mul(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Mul)?,
            #[cfg(not(feature = "llvm19"))]
            C::UDiv(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::UDiv)?,
            #[cfg(not(feature = "llvm19"))]
            C::SDiv(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::SDiv)?,
            #[cfg(not(feature = "llvm19"))]
            C::URem(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::URem)?,
            #[cfg(not(feature = "llvm19"))]
            C::SRem(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::SRem)?,
            #[cfg(not(feature = "llvm19"))]
            C::And(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::And)?,
            #[cfg(not(feature = "llvm19"))]
            C::Or(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Or)?,
            C::Xor(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Xor)?,
            #[cfg(not(feature = "llvm19"))]
            C::Shl(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::Shl)?,
            #[cfg(not(feature = "llvm19"))]
            C::LShr(x) => self.const_int_bin(&x.operand0, &x.operand1, IntOp::LShr)?,
            #[cfg(not(feature = "llvm19"))]
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
    #[cfg(not(feature = "llvm19"))]
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
        #[cfg(not(feature = "llvm19"))]
        let src = match self.module.type_of(&g.address).as_ref() {
            Type::PointerType { pointee_type, .. } => pointee_type.clone(),
            _ => return Err("constant GEP on a non-pointer".into()),
        };
        // With opaque pointers `llvm-ir` does not tell it: `load_program` has rewritten every
        // constant GEP to a byte offset (`getelementptr (i8, ptr BASE, i64 OFFSET)`).
        #[cfg(feature = "llvm19")]
        let src = match g.indices.len() {
            1 => self.module.types.i8(),
            n => {
                return Err(format!(
                    "constant GEP with {n} indices not rewritten to bytes"
                ))
            }
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
}
