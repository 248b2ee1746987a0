//! The memory model: objects at concrete base addresses (globals, stack, heap), each holding
//! concrete and symbolic bytes, in a persistent map so that forking a state shares every
//! object it does not change (copy-on-write per object).

use augur_expr::{ExprId, ExprPool};
use augur_ir::LocId;
use std::cell::Cell;
use std::rc::Rc;

/// Where an object lives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObjKind {
    /// A global variable.
    Global,
    /// A stack slot (alloca) or the varargs area of a call.
    Stack,
    /// A heap block (malloc family).
    Heap,
}

/// One byte of an object.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Byte {
    /// A known byte.
    C(u8),
    /// A symbolic 8-bit expression.
    S(ExprId),
}

/// A memory object.
#[derive(Clone, Debug)]
pub struct MemObject {
    /// Base address.
    pub base: u64,
    /// Size in bytes.
    pub size: u64,
    /// Where it lives.
    pub kind: ObjKind,
    /// The instruction that allocated it.
    pub site: LocId,
    /// A name for messages (variable or global name).
    pub name: Rc<str>,
    /// Freed (heap objects stay in the map after `free` so later uses are caught)?
    pub freed: bool,
    /// Writes are errors (string literals, const globals)?
    pub read_only: bool,
    /// The contents.
    pub bytes: Vec<Byte>,
    /// The contents as an array expression, built on the first symbolic-offset read and
    /// dropped by any write.
    array_cache: Cell<Option<ExprId>>,
}

impl MemObject {
    /// A fresh zero-filled object.
    pub fn new(base: u64, size: u64, kind: ObjKind, site: LocId, name: Rc<str>) -> Self {
        MemObject {
            base,
            size,
            kind,
            site,
            name,
            freed: false,
            read_only: false,
            bytes: vec![Byte::C(0); size as usize],
            array_cache: Cell::new(None),
        }
    }

    /// Does `addr` lie inside this object?
    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.base && addr - self.base < self.size.max(1)
    }

    /// Overwrite bytes at a concrete offset (caller checked bounds).
    pub fn write(&mut self, offset: u64, bytes: &[Byte]) {
        self.array_cache.set(None);
        let o = offset as usize;
        self.bytes[o..o + bytes.len()].copy_from_slice(bytes);
    }

    /// Bytes at a concrete offset (caller checked bounds).
    pub fn read(&self, offset: u64, n: u64) -> &[Byte] {
        &self.bytes[offset as usize..(offset + n) as usize]
    }

    /// Record that `array` is exactly this object's contents (after a symbolic-offset write).
    pub fn set_array(&mut self, array: ExprId) {
        self.array_cache.set(Some(array));
    }

    /// Are all bytes concrete?
    pub fn is_concrete(&self) -> bool {
        self.bytes.iter().all(|b| matches!(b, Byte::C(_)))
    }

    /// The object's contents as an array expression (for symbolic-offset reads).
    pub fn as_array(&self, pool: &mut ExprPool) -> ExprId {
        if let Some(a) = self.array_cache.get() {
            return a;
        }
        let concrete: Vec<u8> = self
            .bytes
            .iter()
            .map(|b| match b {
                Byte::C(c) => *c,
                Byte::S(_) => 0,
            })
            .collect();
        let mut arr = pool.array_const(&concrete);
        for (i, b) in self.bytes.iter().enumerate() {
            if let Byte::S(e) = b {
                let idx = pool.constant(i as u128, 64);
                arr = pool.store(arr, idx, *e);
            }
        }
        self.array_cache.set(Some(arr));
        arr
    }
}

/// First addresses of the three regions; objects are spaced so that a small overflow
/// lands between objects and is caught.
const GLOBAL_BASE: u64 = 0x0010_0000;
const HEAP_BASE: u64 = 0x1000_0000_0000;
const STACK_BASE: u64 = 0x7ff0_0000_0000;
/// Gap left after every object.
const RED_ZONE: u64 = 64;
/// Where function addresses live (not backed by objects).
pub const FUNC_BASE: u64 = 0x0001_0000;
/// Distance between two function addresses.
pub const FUNC_STRIDE: u64 = 16;

/// The address space of one state.
#[derive(Clone, Debug)]
pub struct Memory {
    objects: imbl::OrdMap<u64, Rc<MemObject>>,
    next_global: u64,
    next_heap: u64,
    next_stack: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Memory {
            objects: imbl::OrdMap::new(),
            next_global: GLOBAL_BASE,
            next_heap: HEAP_BASE,
            next_stack: STACK_BASE,
        }
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

impl Memory {
    /// Allocate a zero-filled object; returns its base address.
    pub fn allocate(
        &mut self,
        size: u64,
        align: u64,
        kind: ObjKind,
        site: LocId,
        name: Rc<str>,
    ) -> u64 {
        let next = match kind {
            ObjKind::Global => &mut self.next_global,
            ObjKind::Heap => &mut self.next_heap,
            ObjKind::Stack => &mut self.next_stack,
        };
        let base = align_up(*next, align.max(16));
        *next = base + size.max(1) + RED_ZONE;
        self.objects
            .insert(base, Rc::new(MemObject::new(base, size, kind, site, name)));
        base
    }

    /// The object containing `addr`, if any (freed objects included).
    pub fn find(&self, addr: u64) -> Option<&Rc<MemObject>> {
        let (_, obj) = self.objects.get_prev(&addr)?;
        obj.contains(addr).then_some(obj)
    }

    /// The live (not freed) object closest to `addr`, below or above it.
    pub fn nearest_live(&self, addr: u64) -> Option<&Rc<MemObject>> {
        let below = self
            .objects
            .range(..=addr)
            .rev()
            .map(|(_, o)| o)
            .find(|o| !o.freed);
        let above = self
            .objects
            .range(addr..)
            .map(|(_, o)| o)
            .find(|o| !o.freed);
        match (below, above) {
            (Some(b), Some(a)) => Some(
                if addr.saturating_sub(b.base + b.size) <= a.base.saturating_sub(addr) {
                    b
                } else {
                    a
                },
            ),
            (b, a) => b.or(a),
        }
    }

    /// The object starting at `base`.
    pub fn get(&self, base: u64) -> Option<&Rc<MemObject>> {
        self.objects.get(&base)
    }

    /// Mutable access to the object starting at `base` (copied if shared with another state).
    pub fn get_mut(&mut self, base: u64) -> Option<&mut MemObject> {
        self.objects.get_mut(&base).map(Rc::make_mut)
    }

    /// Remove an object entirely (stack slots at function return).
    pub fn remove(&mut self, base: u64) {
        self.objects.remove(&base);
    }

    /// All objects, in address order.
    pub fn objects(&self) -> impl Iterator<Item = &Rc<MemObject>> {
        self.objects.values()
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// No objects?
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_found_by_interior_address_and_separated() {
        let mut m = Memory::default();
        let a = m.allocate(10, 8, ObjKind::Heap, LocId(0), "a".into());
        let b = m.allocate(4, 8, ObjKind::Heap, LocId(0), "b".into());
        assert_eq!(m.find(a + 9).unwrap().base, a);
        assert!(m.find(a + 10).is_none(), "one past the end is in no object");
        assert_eq!(m.find(b).unwrap().base, b);
        assert!(m.find(0).is_none());
    }

    #[test]
    fn forks_share_until_written() {
        let mut m = Memory::default();
        let a = m.allocate(4, 4, ObjKind::Global, LocId(0), "g".into());
        let snapshot = m.clone();
        m.get_mut(a).unwrap().write(0, &[Byte::C(7)]);
        assert_eq!(m.get(a).unwrap().read(0, 1), &[Byte::C(7)]);
        assert_eq!(snapshot.get(a).unwrap().read(0, 1), &[Byte::C(0)]);
    }
}
