//! Loads, stores and stack allocation, and the resolution of a (possibly symbolic) pointer
//! to the objects it may point into, forking per object and reporting null, out-of-bounds
//! and use-after-free accesses.

use super::step::Split;
use super::sym_offset;
use super::{Exec, Executor, Flow};
use crate::bytes::{all_concrete, byte_expr, bytes_to_value, value_to_bytes};
use crate::memory::{Byte, MemObject, ObjKind};
use crate::outcome::{ErrorKind, Outcome};
use crate::state::State;
use crate::value::Value;
use augur_expr::ExprId;
use augur_ir::{Reg, Ty, TyId};
use std::rc::Rc;

/// Addresses below this are reported as null dereferences.
const NULL_PAGE: u64 = 4096;

/// The offset of an access inside its object.
#[derive(Clone, Debug)]
pub enum Offset {
    /// A known offset.
    Con(u64),
    /// A symbolic 64-bit offset (already constrained to be in bounds).
    Sym(ExprId),
}

/// A pointer resolved to one object.
pub struct Resolved {
    /// Base address of the object.
    pub base: u64,
    /// Offset of the access in it.
    pub offset: Offset,
}

/// An invalid access through a symbolic pointer.
struct Invalid {
    /// The pointer.
    ptr: ExprId,
    /// The invalid value it takes on this path.
    example: u64,
    /// Bytes accessed.
    size: u64,
    /// A write?
    write: bool,
    /// Does the path condition imply the access is invalid (else only the example is)?
    implied: bool,
}

impl Executor {
    fn access_error(&self, st: &State, addr: u64, size: u64, write: bool) -> Outcome {
        let what = if write { "write" } else { "read" };
        if addr < NULL_PAGE {
            return self.error(
                st,
                ErrorKind::NullDereference,
                format!("{what} of {size} bytes through a null pointer"),
            );
        }
        if let Some(obj) = st.mem.find(addr) {
            if obj.freed {
                return self.error(
                    st,
                    ErrorKind::UseAfterFree,
                    format!("{what} of {size} bytes in freed memory `{}`", obj.name),
                );
            }
            if write && obj.read_only {
                return self.error(
                    st,
                    ErrorKind::OutOfBounds,
                    format!("write to read-only memory `{}`", obj.name),
                );
            }
            return self.error(
                st,
                ErrorKind::OutOfBounds,
                format!(
                    "{what} of {size} bytes at offset {} of `{}` (size {})",
                    addr - obj.base,
                    obj.name,
                    obj.size
                ),
            );
        }
        let msg = match st.mem.region_owner_live(addr) {
            Some(o) => format!(
                "{what} of {size} bytes at offset {} of `{}` (size {})",
                addr as i64 - o.base as i64,
                o.name,
                o.size
            ),
            None => format!("{what} of {size} bytes at 0x{addr:x}, outside every object"),
        };
        self.error(st, ErrorKind::OutOfBounds, msg)
    }

    pub(super) fn concrete_access_ok(obj: &MemObject, addr: u64, size: u64, write: bool) -> bool {
        !(obj.freed || write && obj.read_only) && addr - obj.base + size <= obj.size
    }

    /// Resolve `ptr` for an access of `size` bytes. Returns the object and offset for the
    /// current state; for the other objects the pointer may point into, a forked state that
    /// redoes the instruction is queued; an invalid access on some input ends a forked error
    /// path. Callers (instructions and special functions alike) see one resolution.
    pub fn resolve(
        &mut self,
        st: &mut State,
        ptr: &Value,
        size: u64,
        write: bool,
    ) -> Exec<Resolved> {
        let e = match ptr {
            Value::Con { bits, .. } => {
                let addr = *bits as u64;
                return match st.mem.find(addr) {
                    Some(obj) if Self::concrete_access_ok(obj, addr, size, write) => Ok(Resolved {
                        base: obj.base,
                        offset: Offset::Con(addr - obj.base),
                    }),
                    _ => Err(self.access_error(st, addr, size, write)),
                };
            }
            Value::Sym(e) => *e,
            Value::Agg(_) | Value::Wide { .. } => {
                return Err(self.error(st, ErrorKind::Unsupported, "vector of pointers".into()))
            }
        };
        let obj = match self.provenance(st, e) {
            // A pointer computed from an object's address may only access that object.
            Some(obj) => {
                let in_bounds = self.in_bounds(e, &obj, size);
                match self.split(st, in_bounds)? {
                    Split::True => {}
                    Split::False => return Err(self.outside_object(st, e, size, write)?),
                    Split::Both(mut outside) => {
                        let err = self.outside_object(&mut outside, e, size, write)?;
                        self.finish(*outside, err);
                    }
                }
                obj
            }
            // Otherwise: the object an example value points into, else the one whose region holds it;
            // the inputs pointing elsewhere redo the access in a forked state.
            // An example inside an object the path turns out unable to stay in (the
            // solver could not decide that side in time, or answered wrongly) is no
            // witness of an invalid access: another example is solved for, under the
            // path's new constraint, and resolved in turn.
            None => loop {
                let example = self.address_example(st, e)?;
                let candidate = match st.mem.find(example) {
                    Some(o) if o.freed => None,
                    Some(o) => Some(o.clone()),
                    None => st.mem.region_owner_live(example).cloned(),
                };
                let bad = Invalid {
                    ptr: e,
                    example,
                    size,
                    write,
                    implied: false,
                };
                let Some(obj) = candidate else {
                    return Err(self.invalid_symbolic_access(st, bad));
                };
                let in_bounds = self.in_bounds(e, &obj, size);
                match self.split(st, in_bounds)? {
                    Split::True => {}
                    Split::False if Self::concrete_access_ok(&obj, example, size, false) => {
                        continue
                    }
                    Split::False => return Err(self.invalid_symbolic_access(st, bad)),
                    Split::Both(mut rest) => {
                        rest.frame_mut().pc -= 1;
                        self.enqueue(*rest);
                    }
                }
                break obj;
            },
        };
        if write && obj.read_only {
            return Err(self.error(
                st,
                ErrorKind::OutOfBounds,
                format!("write to read-only memory `{}`", obj.name),
            ));
        }
        let base = self.pool.constant(obj.base as u128, 64);
        let off = self.pool.sub(e, base);
        let offset = match self.pool.as_const(off) {
            Some(c) => Offset::Con(c as u64),
            None => Offset::Sym(off),
        };
        Ok(Resolved {
            base: obj.base,
            offset,
        })
    }

    /// One feasible value of `e` on the path of `st`.
    fn address_example(&mut self, st: &mut State, e: ExprId) -> Exec<u64> {
        Ok(self.example(st, e)? as u64)
    }

    /// The object a pointer of the form `address + offset` was derived from: the live
    /// object containing the constant address.
    fn provenance(&self, st: &State, e: ExprId) -> Option<Rc<MemObject>> {
        let augur_expr::ExprKind::Bin {
            op: augur_expr::BinOp::Add,
            lhs,
            rhs,
        } = self.pool.kind(e)
        else {
            return None;
        };
        let base = self
            .pool
            .as_const(*lhs)
            .or_else(|| self.pool.as_const(*rhs))? as u64;
        st.mem.find(base).filter(|o| !o.freed).cloned()
    }

    /// `ptr` lies in `obj` with room for `size` bytes.
    fn in_bounds(&mut self, ptr: ExprId, obj: &Rc<MemObject>, size: u64) -> ExprId {
        if obj.size < size {
            return self.pool.bool_const(false);
        }
        let base = self.pool.constant(obj.base as u128, 64);
        let off = self.pool.sub(ptr, base);
        sym_offset::at_most(&mut self.pool, off, obj.size - size)
    }

    /// The error on a path whose condition says the pointer `ptr` is outside the object it
    /// was derived from.
    fn outside_object(
        &mut self,
        st: &mut State,
        ptr: ExprId,
        size: u64,
        write: bool,
    ) -> Exec<Outcome> {
        let example = self.address_example(st, ptr)?;
        let bad = Invalid {
            ptr,
            example,
            size,
            write,
            implied: true,
        };
        Ok(self.invalid_symbolic_access(st, bad))
    }

    /// The error for a symbolic pointer whose example value is invalid. The pointer is
    /// pinned to that value so the test reproduces this very access, unless the path
    /// condition already implies the access is invalid and the options keep such error
    /// paths general (`augur diff` compares them with other revisions' paths).
    fn invalid_symbolic_access(&mut self, st: &mut State, bad: Invalid) -> Outcome {
        if !bad.implied || self.opts.pin_invalid_pointers {
            let c = self.pool.constant(bad.example as u128, 64);
            let eq = self.pool.eq(bad.ptr, c);
            st.constraints.push(eq);
        }
        self.access_error(st, bad.example, bad.size, bad.write)
    }

    /// Read `size` bytes at a resolved location.
    pub fn read_bytes(&mut self, st: &State, r: &Resolved, size: u64) -> Vec<Byte> {
        let obj = st.mem.get(r.base).expect("resolved object exists");
        match &r.offset {
            Offset::Con(o) => obj.read(*o, size, &mut self.pool),
            Offset::Sym(off) => sym_offset::read_at(&mut self.pool, obj, *off, size),
        }
    }

    /// Write bytes at a resolved location. A symbolic offset stores into the object's array
    /// expression (one store per byte written); every byte of the object then reads from
    /// that array (the read made when the byte is read), which stays cached for later
    /// symbolic-offset reads.
    pub fn write_bytes(&mut self, st: &mut State, r: &Resolved, bytes: &[Byte]) {
        let obj = st.mem.get_mut(r.base).expect("resolved object exists");
        match &r.offset {
            Offset::Con(o) => obj.write(*o, bytes),
            Offset::Sym(off) if sym_offset::write_at_leaves(&mut self.pool, obj, *off, bytes) => {}
            Offset::Sym(off) => {
                obj.written_at_symbolic_offset = true;
                let mut arr = obj.as_array(&mut self.pool);
                for (k, b) in bytes.iter().enumerate() {
                    let kc = self.pool.constant(k as u128, 64);
                    let idx = self.pool.add(*off, kc);
                    let v = byte_expr(&mut self.pool, *b);
                    arr = self.pool.store(arr, idx, v);
                }
                obj.become_array(arr);
            }
        }
    }

    /// A scalar load of concrete bytes at a concrete offset, read without allocating.
    fn concrete_scalar_load(&self, st: &State, r: &Resolved, ty: TyId) -> Option<Value> {
        let Offset::Con(o) = r.offset else {
            return None;
        };
        let (bits, width) = self.known_scalar(st.mem.get(r.base)?, o, ty)?;
        Some(Value::Con { width, bits })
    }

    /// The bits and width of the scalar of type `ty` (at most 128 bits) at offset `o` of
    /// `obj` (in bounds), if its bytes are known.
    #[inline(always)]
    pub(super) fn known_scalar(&self, obj: &MemObject, o: u64, ty: TyId) -> Option<(u128, u32)> {
        let width = match self.program.ty(ty).ty {
            Ty::Int(w) => w,
            Ty::Ptr => 64,
            Ty::Float(k) => k.bits(),
            _ => return None,
        };
        let size = self.program.ty(ty).store_size;
        if size > 16 || width > 128 {
            return None;
        }
        let bits = obj.read_known(o, size)?;
        Some((crate::value::mask(bits, width), width))
    }

    pub(super) fn load(&mut self, st: &mut State, dst: Reg, addr: &Value, ty: TyId) -> Exec<Flow> {
        let size = self.program.ty(ty).store_size;
        for o in &mut self.observers {
            o.on_memory(st, addr, size, false);
        }
        let r = self.resolve(st, addr, size, false)?;
        let prog = self.program.clone();
        let v = match self.concrete_scalar_load(st, &r, ty) {
            Some(v) => v,
            None => {
                let bytes = self.read_bytes(st, &r, size);
                if matches!(prog.ty(ty).ty, Ty::Int(w) if w > 128) && !all_concrete(&bytes) {
                    let out = self.error(
                        st,
                        ErrorKind::Unsupported,
                        "integers wider than 128 bits are only supported on concrete values".into(),
                    );
                    return Err(out);
                }
                bytes_to_value(&mut self.pool, &prog, ty, &bytes)
            }
        };
        st.set(dst, v);
        Ok(Flow::Continue)
    }

    pub(super) fn store(
        &mut self,
        st: &mut State,
        addr: &Value,
        v: &Value,
        ty: TyId,
    ) -> Exec<Flow> {
        let prog = self.program.clone();
        let size = prog.ty(ty).store_size;
        for o in &mut self.observers {
            o.on_memory(st, addr, size, true);
        }
        let r = self.resolve(st, addr, size, true)?;
        match (&r.offset, v, size) {
            // Fast path: a concrete scalar at a concrete offset, no allocation.
            (Offset::Con(o), Value::Con { bits, width }, 1..=16) if *width <= 128 => {
                let obj = st.mem.get_mut(r.base).expect("resolved object exists");
                obj.write_known(*o, *bits, size);
            }
            _ => {
                let bytes = value_to_bytes(&mut self.pool, &prog, ty, v);
                self.write_bytes(st, &r, &bytes);
            }
        }
        Ok(Flow::Continue)
    }

    pub(super) fn alloca(
        &mut self,
        st: &mut State,
        elem_size: u64,
        count: &Value,
        align: u64,
        var: Option<&str>,
    ) -> Exec<Value> {
        let n = self.concretize(st, count)? as u64;
        let size = elem_size.saturating_mul(n);
        if size > crate::memory::MAX_OBJECT_SIZE {
            return Err(self.error(
                st,
                ErrorKind::OutOfBounds,
                format!("stack allocation of {size} bytes"),
            ));
        }
        let loc = self.current_loc(st);
        let name: Rc<str> = var.unwrap_or("stack object").into();
        let base = st
            .mem
            .allocate(elem_size * n, align, ObjKind::Stack, loc, name);
        st.frame_mut().allocas.push(base);
        Ok(Value::con(base as u128, 64))
    }

    /// Read a NUL-terminated string (at most `max` bytes), concretizing symbolic bytes.
    pub fn read_c_string(&mut self, st: &mut State, ptr: &Value, max: usize) -> Exec<String> {
        let mut out = Vec::new();
        let mut addr = self.concretize(st, ptr)? as u64;
        while out.len() < max {
            let r = self.resolve(st, &Value::con(addr as u128, 64), 1, false)?;
            let b = match self.read_bytes(st, &r, 1)[0] {
                Byte::C(c) => c,
                Byte::S(e) => self.concretize(st, &Value::Sym(e))? as u8,
            };
            if b == 0 {
                break;
            }
            out.push(b);
            addr += 1;
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}
