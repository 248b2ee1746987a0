//! The memory model: objects at concrete base addresses (globals, stack, heap), each holding
//! concrete and symbolic bytes, in a persistent map so that forking a state shares every
//! object it does not change (copy-on-write per object).

use crate::bytes::byte_expr;
use crate::object_bytes::ObjectBytes;
use augur_expr::{ExprId, ExprPool};
use augur_ir::{FuncId, LocId};
use std::cell::RefCell;
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
    /// The contents as an array expression, for symbolic-offset accesses.
    array: RefCell<ArrayView>,
}

/// The most concrete-offset writes an array view keeps track of before it is dropped (and
/// the next array is built from the bytes alone).
const MAX_PENDING_WRITES: usize = 1 << 16;

/// An object's contents as an array expression, kept up to date across writes.
///
/// A concrete-offset write does not throw the array away: the next symbolic-offset access
/// stores just the bytes written since onto it. Rebuilding from the bytes instead would
/// store every symbolic byte again, and after a symbolic-offset write every byte is a
/// read of the previous array: each rebuild would nest the whole object once more (a
/// program that zeroes a table between symbolic updates, as deflate's Huffman counts are,
/// made queries tens of thousands of stores deep).
#[derive(Clone, Debug, Default)]
enum ArrayView {
    /// No array built yet (or too many writes since the last one).
    #[default]
    None,
    /// Exactly the object's contents.
    Exact(ExprId),
    /// The object's contents except at the (offset, length) ranges written since.
    Pending(ExprId, Vec<(u64, u64)>),
}

impl ArrayView {
    /// Record a concrete-offset write of `n` bytes at `offset`.
    #[inline]
    fn written(&mut self, offset: u64, n: u64) {
        match self {
            ArrayView::None => {}
            ArrayView::Exact(a) => *self = ArrayView::Pending(*a, vec![(offset, n)]),
            ArrayView::Pending(_, writes) if writes.len() < MAX_PENDING_WRITES => {
                writes.push((offset, n))
            }
            ArrayView::Pending(..) => *self = ArrayView::None,
        }
    }
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
            array: RefCell::new(ArrayView::None),
        }
    }

    /// Does `addr` lie inside this object?
    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.base && addr - self.base < self.size.max(1)
    }

    /// Overwrite bytes at a concrete offset (caller checked bounds).
    pub fn write(&mut self, offset: u64, bytes: &[Byte]) {
        self.array.get_mut().written(offset, bytes.len() as u64);
        self.bytes.write(offset as usize, bytes);
    }

    /// Overwrite `n` (at most 16) bytes at a concrete offset with the little-endian bytes of
    /// `bits` (caller checked bounds).
    #[inline]
    pub fn write_known(&mut self, offset: u64, bits: u128, n: u64) {
        self.array.get_mut().written(offset, n);
        self.bytes.write_known(offset as usize, bits, n as usize);
    }

    /// Bytes at a concrete offset (caller checked bounds).
    pub fn read(&self, offset: u64, n: u64, pool: &mut ExprPool) -> Vec<Byte> {
        self.bytes.read(offset as usize, n as usize, pool)
    }

    /// Bytes at a concrete offset (caller checked bounds), unless one of them is still to
    /// be read from the array of a write at a symbolic offset ([`MemObject::read`] makes
    /// it; an observer, which has no expression pool, cannot).
    pub fn peek(&self, offset: u64, n: u64) -> Option<Vec<Byte>> {
        self.bytes.peek(offset as usize, n as usize)
    }

    /// The `n` (at most 16) bytes at a concrete offset as a little-endian number, if all
    /// are known (caller checked bounds).
    #[inline]
    pub fn read_known(&self, offset: u64, n: u64) -> Option<u128> {
        self.bytes.read_known(offset as usize, n as usize)
    }

    /// All the object's bytes.
    pub fn contents(&self, pool: &mut ExprPool) -> Vec<Byte> {
        self.bytes.to_vec(pool)
    }

    /// Make `array` the object's contents (after a symbolic-offset write): each byte is
    /// then the read of `array` at its offset, made when the byte is read.
    pub fn become_array(&mut self, array: ExprId) {
        self.bytes.read_from(array);
        *self.array.get_mut() = ArrayView::Exact(array);
    }

    /// The object's contents as an array expression (for symbolic-offset reads).
    pub fn as_array(&self, pool: &mut ExprPool) -> ExprId {
        let mut view = self.array.borrow_mut();
        let arr = match &*view {
            ArrayView::Exact(a) => return *a,
            ArrayView::Pending(base, writes) => {
                let mut arr = *base;
                for &(offset, n) in writes {
                    for i in offset..offset + n {
                        let idx = pool.constant(i as u128, 64);
                        let byte = self.bytes.get(i as usize, pool);
                        let value = byte_expr(pool, byte);
                        arr = pool.store(arr, idx, value);
                    }
                }
                arr
            }
            ArrayView::None => self.array_from_bytes(pool),
        };
        *view = ArrayView::Exact(arr);
        arr
    }

    /// The contents as a constant array with a store per symbolic byte.
    fn array_from_bytes(&self, pool: &mut ExprPool) -> ExprId {
        let bytes = self.bytes.to_vec(pool);
        let concrete: Vec<u8> = bytes
            .iter()
            .map(|b| match b {
                Byte::C(c) => *c,
                Byte::S(_) => 0,
            })
            .collect();
        let mut arr = pool.array_const(&concrete);
        for (i, b) in bytes.into_iter().enumerate() {
            if let Byte::S(e) = b {
                let idx = pool.constant(i as u128, 64);
                arr = pool.store(arr, idx, e);
            }
        }
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
        assert_eq!(m.get(a).unwrap().peek(0, 1), Some(vec![Byte::C(7)]));
        assert_eq!(snapshot.get(a).unwrap().peek(0, 1), Some(vec![Byte::C(0)]));
    }

    #[test]
    fn a_concrete_write_adds_one_store_to_the_array_not_the_whole_object() {
        let mut pool = ExprPool::new();
        let mut obj = MemObject::new(0, 4096, ObjKind::Global, LocId(0), "table".into());
        // After a symbolic-offset write the object is exactly array `a`, and every byte
        // reads from it.
        let input = pool.new_array("i", 1);
        let a = pool.array_sym(input);
        obj.become_array(a);
        obj.write_known(5, 0x0201, 2);
        let five = pool.constant(5, 64);
        let six = pool.constant(6, 64);
        let (one, two) = (pool.constant(1, 8), pool.constant(2, 8));
        let inner = pool.store(a, five, one);
        let expected = pool.store(inner, six, two);
        assert_eq!(obj.as_array(&mut pool), expected);
        assert_eq!(obj.as_array(&mut pool), expected, "and it is kept");
    }

    #[test]
    fn after_a_symbolic_offset_write_bytes_are_read_from_the_array_when_read() {
        let mut pool = ExprPool::new();
        let mut obj = MemObject::new(0, 1000, ObjKind::Heap, LocId(0), "buf".into());
        let input = pool.new_array("i", 1);
        let a = pool.array_sym(input);
        obj.become_array(a);
        obj.write(300, &[Byte::C(9)]);
        assert_eq!(obj.peek(299, 2), None, "byte 299 is still the array's");
        assert_eq!(obj.peek(300, 1), Some(vec![Byte::C(9)]));
        assert_eq!(obj.read_known(300, 1), Some(9));
        assert_eq!(obj.read_known(299, 1), None);
        let read = obj.read(299, 3, &mut pool);
        let at = |pool: &mut ExprPool, j| {
            let jc = pool.constant(j, 64);
            Byte::S(pool.select(a, jc))
        };
        let expected = vec![at(&mut pool, 299), Byte::C(9), at(&mut pool, 301)];
        assert_eq!(read, expected);
        let whole = obj.contents(&mut pool);
        assert_eq!(whole.len(), 1000);
        assert_eq!(
            whole[999],
            at(&mut pool, 999),
            "the last, shorter chunk too"
        );
    }
}
