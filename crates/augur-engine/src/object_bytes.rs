//! The contents of a memory object: fixed-size chunks, each shared between states until one
//! of them writes it (copy-on-write per chunk, so a fork that writes one byte of a large
//! buffer copies one chunk, not the buffer). A chunk holding only known bytes stores them
//! as plain `u8`s (one byte per byte, not eight); it switches to [`Byte`]s when a symbolic
//! byte is written into it. Every full chunk of a fresh object is the same shared zero
//! chunk.

use crate::bytes::expr_byte;
use crate::cow::own;
use crate::memory::Byte;
use augur_expr::{ExprId, ExprPool};
use std::rc::Rc;

/// Bytes per chunk.
const CHUNK: usize = 256;

/// One chunk of an object's bytes.
#[derive(Clone, Debug)]
enum Chunk {
    /// Known bytes only.
    Con(Box<[u8]>),
    /// Some symbolic bytes.
    Sym(Box<[Byte]>),
    /// Every byte is the read of this array at the byte's offset in the object (after a
    /// write at a symbolic offset: the read is made when the byte is, not for every byte
    /// of the object at the write).
    Read(ExprId),
    /// The bytes given; those absent read the array at their offset, as in `Read`.
    Partly(ExprId, Box<[Option<Byte>]>),
}

/// One byte of a chunk: itself, or the read of an array at its offset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Slot {
    /// The byte.
    Is(Byte),
    /// The read of this array at the byte's offset.
    Reads(ExprId),
}

impl Chunk {
    fn get(&self, i: usize) -> Slot {
        match self {
            Chunk::Con(b) => Slot::Is(Byte::C(b[i])),
            Chunk::Sym(b) => Slot::Is(b[i]),
            Chunk::Read(a) => Slot::Reads(*a),
            Chunk::Partly(a, b) => b[i].map_or(Slot::Reads(*a), Slot::Is),
        }
    }

    /// Overwrite `bytes.len()` bytes from `at` of this chunk of `len` bytes, becoming
    /// symbolic if one of them is.
    fn write(&mut self, at: usize, bytes: &[Byte], len: usize) {
        match self {
            Chunk::Con(con) => {
                if let Some(known) = concrete(bytes) {
                    for (slot, b) in con[at..].iter_mut().zip(known) {
                        *slot = b;
                    }
                    return;
                }
                *self = Chunk::Sym(con.iter().map(|b| Byte::C(*b)).collect());
            }
            Chunk::Read(a) => *self = Chunk::Partly(*a, vec![None; len].into()),
            Chunk::Sym(_) | Chunk::Partly(..) => {}
        }
        match self {
            Chunk::Sym(sym) => sym[at..at + bytes.len()].copy_from_slice(bytes),
            Chunk::Partly(_, some) => {
                for (slot, b) in some[at..].iter_mut().zip(bytes) {
                    *slot = Some(*b);
                }
            }
            Chunk::Con(_) | Chunk::Read(_) => unreachable!("made symbolic above"),
        }
    }
}

/// The known values of `bytes`, if all are known.
fn concrete(bytes: &[Byte]) -> Option<impl Iterator<Item = u8> + '_> {
    bytes.iter().all(|b| matches!(b, Byte::C(_))).then(|| {
        bytes
            .iter()
            .map(|b| if let Byte::C(c) = b { *c } else { 0 })
    })
}

/// The little-endian number of at most 16 `bytes`, read with one load for the common
/// sizes (copying them into a 16-byte buffer first stalls the load on the copy).
#[inline(always)]
fn le_bits(bytes: &[u8]) -> u128 {
    match bytes.len() {
        1 => bytes[0] as u128,
        2 => u16::from_le_bytes([bytes[0], bytes[1]]) as u128,
        4 => u32::from_le_bytes(bytes.try_into().expect("4 bytes")) as u128,
        8 => u64::from_le_bytes(bytes.try_into().expect("8 bytes")) as u128,
        _ => bytes.iter().rev().fold(0, |bits, b| bits << 8 | *b as u128),
    }
}

/// The byte at offset `i` of an object, `slot` there made a byte (an array read at `i`).
fn slot_byte(slot: Slot, i: usize, pool: &mut ExprPool) -> Byte {
    match slot {
        Slot::Is(b) => b,
        Slot::Reads(a) => {
            let idx = pool.constant(i as u128, 64);
            let e = pool.select(a, idx);
            expr_byte(pool, e)
        }
    }
}

/// An object's bytes, in copy-on-write chunks (see the module documentation).
#[derive(Clone, Debug)]
pub struct ObjectBytes {
    size: usize,
    chunks: Vec<Rc<Chunk>>,
}

impl ObjectBytes {
    /// `size` zero bytes.
    pub fn zeroed(size: usize) -> Self {
        let full = size / CHUNK;
        let mut chunks = Vec::with_capacity(full + 1);
        if full > 0 {
            let zero = Rc::new(Chunk::Con(vec![0; CHUNK].into()));
            chunks.resize(full, zero);
        }
        if !size.is_multiple_of(CHUNK) {
            chunks.push(Rc::new(Chunk::Con(vec![0; size % CHUNK].into())));
        }
        ObjectBytes { size, chunks }
    }

    /// Every byte becomes the read of `array` at its offset (the bytes are made when
    /// read, so a write at a symbolic offset costs a pointer per chunk, not an expression
    /// per byte).
    pub fn read_from(&mut self, array: ExprId) {
        let read = Rc::new(Chunk::Read(array));
        self.chunks.iter_mut().for_each(|c| *c = read.clone());
    }

    /// The byte at `i` (in bounds).
    #[inline]
    pub fn get(&self, i: usize, pool: &mut ExprPool) -> Byte {
        slot_byte(self.chunks[i / CHUNK].get(i % CHUNK), i, pool)
    }

    /// `n` bytes from `offset` (in bounds).
    pub fn read(&self, offset: usize, n: usize, pool: &mut ExprPool) -> Vec<Byte> {
        let mut out = Vec::with_capacity(n);
        self.for_each_span(offset, n, |chunk, at, len| match chunk {
            Chunk::Con(b) => out.extend(b[at..at + len].iter().map(|c| Byte::C(*c))),
            Chunk::Sym(b) => out.extend_from_slice(&b[at..at + len]),
            Chunk::Read(_) | Chunk::Partly(..) => {
                let first = offset + out.len() - at;
                out.extend((at..at + len).map(|i| slot_byte(chunk.get(i), first + i, pool)))
            }
        });
        out
    }

    /// `n` bytes from `offset` (in bounds), unless one of them is still to be read from
    /// an array (which needs the expression pool: [`ObjectBytes::read`]).
    pub fn peek(&self, offset: usize, n: usize) -> Option<Vec<Byte>> {
        let mut out = Vec::with_capacity(n);
        let mut all = true;
        self.for_each_span(offset, n, |chunk, at, len| match chunk {
            Chunk::Con(b) => out.extend(b[at..at + len].iter().map(|c| Byte::C(*c))),
            Chunk::Sym(b) => out.extend_from_slice(&b[at..at + len]),
            Chunk::Partly(_, b) => match b[at..at + len].iter().copied().collect() {
                Some(given) => out.extend::<Vec<Byte>>(given),
                None => all = false,
            },
            Chunk::Read(_) => all = false,
        });
        all.then_some(out)
    }

    /// The `n` (at most 16) bytes from `offset` as a little-endian number, if all are known.
    #[inline(always)]
    pub fn read_known(&self, offset: usize, n: usize) -> Option<u128> {
        debug_assert!(n <= 16);
        if let Chunk::Con(b) = &*self.chunks[offset / CHUNK] {
            let at = offset % CHUNK;
            if let Some(bytes) = b.get(at..at + n) {
                return Some(le_bits(bytes));
            }
        }
        self.read_known_bytewise(offset, n)
    }

    /// [`ObjectBytes::read_known`] across chunks or in a chunk with symbolic bytes (out of
    /// line: the inlined common case stays small).
    #[inline(never)]
    fn read_known_bytewise(&self, offset: usize, n: usize) -> Option<u128> {
        let mut bits = 0u128;
        for i in (offset..offset + n).rev() {
            let Slot::Is(Byte::C(c)) = self.chunks[i / CHUNK].get(i % CHUNK) else {
                return None;
            };
            bits = bits << 8 | c as u128;
        }
        Some(bits)
    }

    /// Overwrite the `n` (at most 16) bytes from `offset` (in bounds) with the little-endian
    /// bytes of `bits`.
    #[inline]
    pub fn write_known(&mut self, offset: usize, bits: u128, n: usize) {
        let at = offset % CHUNK;
        if let Chunk::Con(b) = own(&mut self.chunks[offset / CHUNK]) {
            if at + n <= b.len() {
                b[at..at + n].copy_from_slice(&bits.to_le_bytes()[..n]);
                return;
            }
        }
        let bytes: Vec<Byte> = bits.to_le_bytes()[..n]
            .iter()
            .map(|c| Byte::C(*c))
            .collect();
        self.write(offset, &bytes);
    }

    /// Overwrite bytes from `offset` (in bounds), copying only the chunks shared with
    /// another state.
    pub fn write(&mut self, offset: usize, bytes: &[Byte]) {
        let mut done = 0;
        while done < bytes.len() {
            let pos = offset + done;
            let at = pos % CHUNK;
            let chunk_len = CHUNK.min(self.size - (pos - at));
            let chunk = own(&mut self.chunks[pos / CHUNK]);
            let len = (CHUNK - at).min(bytes.len() - done);
            chunk.write(at, &bytes[done..done + len], chunk_len);
            done += len;
        }
    }

    /// Every byte, in order.
    pub fn to_vec(&self, pool: &mut ExprPool) -> Vec<Byte> {
        self.read(0, self.size, pool)
    }

    /// Call `f(chunk, start, len)` for each chunk's part of `[offset, offset + n)`.
    fn for_each_span(&self, offset: usize, n: usize, mut f: impl FnMut(&Chunk, usize, usize)) {
        let mut done = 0;
        while done < n {
            let pos = offset + done;
            let at = pos % CHUNK;
            let len = (CHUNK - at).min(n - done);
            f(&self.chunks[pos / CHUNK], at, len);
            done += len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte at `i` of `b`, which has no array reads.
    fn at(b: &ObjectBytes, i: usize) -> Byte {
        b.peek(i, 1).expect("no array reads")[0]
    }

    #[test]
    fn reads_back_writes_across_chunks() {
        let mut b = ObjectBytes::zeroed(3 * CHUNK + 5);
        let data: Vec<Byte> = (0..CHUNK + 10).map(|i| Byte::C(i as u8)).collect();
        b.write(CHUNK - 5, &data);
        assert_eq!(b.peek(CHUNK - 5, data.len()), Some(data));
        assert_eq!(at(&b, CHUNK - 6), Byte::C(0));
        assert_eq!(at(&b, 3 * CHUNK + 4), Byte::C(0));
        assert_eq!(b.read_known(CHUNK - 5, 4), Some(0x0302_0100));
        assert_eq!(
            b.read_known(CHUNK - 2, 4),
            Some(0x0605_0403),
            "across a chunk"
        );
        b.write_known(CHUNK - 1, 0xaabb, 2);
        assert_eq!(
            b.peek(CHUNK - 1, 2),
            Some(vec![Byte::C(0xbb), Byte::C(0xaa)])
        );
        b.write_known(1, 0xccdd, 2);
        assert_eq!(b.read_known(0, 4), Some(0x00cc_dd00));
    }

    #[test]
    fn symbolic_bytes_are_kept_and_not_known() {
        let mut b = ObjectBytes::zeroed(10);
        b.write(3, &[Byte::C(1), Byte::S(ExprId(7))]);
        assert_eq!(at(&b, 4), Byte::S(ExprId(7)));
        assert_eq!(b.read_known(2, 2), Some(0x0100));
        assert_eq!(b.read_known(3, 2), None);
        b.write(4, &[Byte::C(9)]);
        assert_eq!(b.read_known(3, 2), Some(0x0901));
        let all = b.peek(0, 10).expect("no array reads");
        assert_eq!(all.iter().filter(|x| **x == Byte::C(0)).count(), 8);
    }

    #[test]
    fn a_write_copies_only_its_chunk() {
        let mut a = ObjectBytes::zeroed(4 * CHUNK);
        a.write(0, &[Byte::C(1)]);
        let mut b = a.clone();
        b.write(2 * CHUNK, &[Byte::C(2)]);
        assert_eq!(at(&a, 2 * CHUNK), Byte::C(0));
        assert_eq!(at(&b, 2 * CHUNK), Byte::C(2));
        assert_eq!(at(&b, 0), Byte::C(1));
        let copied = b.chunks.iter().filter(|c| Rc::strong_count(c) == 1).count();
        assert_eq!(copied, 1, "only the written chunk is b's own");
    }

    #[test]
    fn bytes_read_from_an_array_are_made_when_read_and_share_one_chunk() {
        let mut pool = ExprPool::new();
        let input = pool.new_array("i", 1);
        let array = pool.array_sym(input);
        let mut b = ObjectBytes::zeroed(3 * CHUNK + 7);
        b.read_from(array);
        let first = &b.chunks[0];
        assert!(b.chunks.iter().all(|c| Rc::ptr_eq(c, first)));
        assert_eq!(b.read_known(0, 1), None);
        b.write(CHUNK + 1, &[Byte::C(5), Byte::S(ExprId(3))]);
        let read = |pool: &mut ExprPool, i: usize| {
            let idx = pool.constant(i as u128, 64);
            Byte::S(pool.select(array, idx))
        };
        let got = b.read(CHUNK, 4, &mut pool);
        let want = vec![
            read(&mut pool, CHUNK),
            Byte::C(5),
            Byte::S(ExprId(3)),
            read(&mut pool, CHUNK + 3),
        ];
        assert_eq!(got, want);
        assert_eq!(
            b.get(3 * CHUNK + 6, &mut pool),
            read(&mut pool, 3 * CHUNK + 6)
        );
        b.write(3 * CHUNK + 6, &[Byte::C(1)]);
        assert_eq!(
            b.read_known(3 * CHUNK + 6, 1),
            Some(1),
            "the short last chunk"
        );
    }
}
