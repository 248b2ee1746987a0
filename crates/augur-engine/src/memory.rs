//! The memory model: objects at concrete base addresses (globals, stack, heap), each holding
//! concrete and symbolic bytes, in a persistent map so that forking a state shares every
//! object it does not change (copy-on-write per object).

use crate::object_bytes::ObjectBytes;
use augur_expr::{ExprId, ExprPool};
use augur_ir::{FuncId, LocId};
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
    bytes: ObjectBytes,
    /// Has it been written at a symbolic offset (which chooses how later symbolic-offset
    /// reads are encoded: `executor/access.rs`)?
    pub written_at_symbolic_offset: bool,
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
            bytes: ObjectBytes::zeroed(size as usize),
            written_at_symbolic_offset: false,
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
        self.bytes.write(offset as usize, bytes);
    }

    /// Overwrite `n` (at most 16) bytes at a concrete offset with the little-endian bytes of
    /// `bits` (caller checked bounds).
    #[inline]
    pub fn write_known(&mut self, offset: u64, bits: u128, n: u64) {
        self.array_cache.set(None);
        self.bytes.write_known(offset as usize, bits, n as usize);
    }

    /// Bytes at a concrete offset (caller checked bounds).
    pub fn read(&self, offset: u64, n: u64) -> Vec<Byte> {
        self.bytes.read(offset as usize, n as usize)
    }

    /// The `n` (at most 16) bytes at a concrete offset as a little-endian number, if all
    /// are known (caller checked bounds).
    #[inline]
    pub fn read_known(&self, offset: u64, n: u64) -> Option<u128> {
        self.bytes.read_known(offset as usize, n as usize)
    }

    /// All the object's bytes.
    pub fn contents(&self) -> Vec<Byte> {
        self.bytes.to_vec()
    }

    /// Record that `array` is exactly this object's contents (after a symbolic-offset write).
    pub fn set_array(&mut self, array: ExprId) {
        self.array_cache.set(Some(array));
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
                Byte::C(c) => c,
                Byte::S(_) => 0,
            })
            .collect();
        let mut arr = pool.array_const(&concrete);
        for (i, b) in self.bytes.iter().enumerate() {
            if let Byte::S(e) = b {
                let idx = pool.constant(i as u128, 64);
                arr = pool.store(arr, idx, e);
            }
        }
        self.array_cache.set(Some(arr));
        arr
    }
}

/// Objects live in 4 GiB regions, one per object, from this address on: finding the object
/// of an address is an index computation, an overflow past an object's end stays in its
/// own region (reported against it), and no two objects are ever adjacent.
const REGION_BASE: u64 = 1 << 36;
/// log2 of the region size.
const REGION_SHIFT: u32 = 32;
/// The largest object the model holds.
pub const MAX_OBJECT_SIZE: u64 = 1 << 31;
/// Where function addresses live (not backed by objects).
const FUNC_BASE: u64 = 0x0001_0000;
/// Distance between two function addresses.
const FUNC_STRIDE: u64 = 16;

/// The address of function `f` (the same in every state).
pub fn function_addr(f: FuncId) -> u64 {
    FUNC_BASE + f.0 as u64 * FUNC_STRIDE
}

/// The function of a program of `count` functions whose address is `addr`, if any.
pub fn function_at(addr: u64, count: usize) -> Option<FuncId> {
    let rel = addr.checked_sub(FUNC_BASE)?;
    (rel % FUNC_STRIDE == 0 && rel / FUNC_STRIDE < count as u64)
        .then_some(FuncId((rel / FUNC_STRIDE) as u32))
}

/// The address space of one state: objects by region number in a persistent vector.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    objects: imbl::Vector<Option<Rc<MemObject>>>,
}

/// The region number of an address.
fn region(addr: u64) -> Option<usize> {
    addr.checked_sub(REGION_BASE)
        .map(|r| (r >> REGION_SHIFT) as usize)
}

impl Memory {
    /// Allocate a zero-filled object (at most [`MAX_OBJECT_SIZE`] bytes); returns its base
    /// address, which is aligned to any alignment up to 4 GiB.
    pub fn allocate(
        &mut self,
        size: u64,
        _align: u64,
        kind: ObjKind,
        site: LocId,
        name: Rc<str>,
    ) -> u64 {
        assert!(
            size <= MAX_OBJECT_SIZE,
            "objects are at most MAX_OBJECT_SIZE bytes"
        );
        let base = REGION_BASE + ((self.objects.len() as u64) << REGION_SHIFT);
        self.objects
            .push_back(Some(Rc::new(MemObject::new(base, size, kind, site, name))));
        base
    }

    /// The object whose region contains `addr` (live, freed, or removed: None).
    #[inline]
    fn owner(&self, addr: u64) -> Option<&Rc<MemObject>> {
        self.objects.get(region(addr)?)?.as_ref()
    }

    /// The object containing `addr`, if any (freed objects included).
    #[inline]
    pub fn find(&self, addr: u64) -> Option<&Rc<MemObject>> {
        self.owner(addr).filter(|o| o.contains(addr))
    }

    /// The live object an invalid address most likely belongs to: the one whose region
    /// holds it (an overflow past its end).
    pub fn region_owner_live(&self, addr: u64) -> Option<&Rc<MemObject>> {
        self.owner(addr).filter(|o| !o.freed)
    }

    /// The object starting at `base`.
    #[inline]
    pub fn get(&self, base: u64) -> Option<&Rc<MemObject>> {
        self.owner(base).filter(|o| o.base == base)
    }

    /// Mutable access to the object starting at `base` (copied if shared with another state).
    pub fn get_mut(&mut self, base: u64) -> Option<&mut MemObject> {
        let slot = self.objects.get_mut(region(base)?)?.as_mut()?;
        (slot.base == base).then(|| crate::cow::own(slot))
    }

    /// Remove an object entirely (stack slots at function return).
    pub fn remove(&mut self, base: u64) {
        if let Some(slot) = region(base).and_then(|r| self.objects.get_mut(r)) {
            *slot = None;
        }
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
        assert_eq!(
            m.region_owner_live(a + 10).unwrap().base,
            a,
            "but it is attributed to it"
        );
        assert_eq!(m.find(b).unwrap().base, b);
        assert!(m.find(0).is_none());
    }

    #[test]
    fn forks_share_until_written() {
        let mut m = Memory::default();
        let a = m.allocate(4, 4, ObjKind::Global, LocId(0), "g".into());
        let snapshot = m.clone();
        m.get_mut(a).unwrap().write(0, &[Byte::C(7)]);
        assert_eq!(m.get(a).unwrap().read(0, 1), [Byte::C(7)]);
        assert_eq!(snapshot.get(a).unwrap().read(0, 1), [Byte::C(0)]);
    }
}
