//! The contents of a memory object: fixed-size chunks, each shared between states until one
//! of them writes it (copy-on-write per chunk, so a fork that writes one byte of a large
//! buffer copies one chunk, not the buffer). A chunk holding only known bytes stores them
//! as plain `u8`s (one byte per byte, not eight); it switches to [`Byte`]s when a symbolic
//! byte is written into it. Every full chunk of a fresh object is the same shared zero
//! chunk.

use crate::cow::own;
use crate::memory::Byte;
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
}

impl Chunk {
    fn get(&self, i: usize) -> Byte {
        match self {
            Chunk::Con(b) => Byte::C(b[i]),
            Chunk::Sym(b) => b[i],
        }
    }

    /// Overwrite `bytes.len()` bytes from `at`, becoming symbolic if one of them is.
    fn write(&mut self, at: usize, bytes: &[Byte]) {
        if let Chunk::Con(con) = self {
            if let Some(known) = concrete(bytes) {
                for (slot, b) in con[at..].iter_mut().zip(known) {
                    *slot = b;
                }
                return;
            }
            *self = Chunk::Sym(con.iter().map(|b| Byte::C(*b)).collect());
        }
        if let Chunk::Sym(sym) = self {
            sym[at..at + bytes.len()].copy_from_slice(bytes);
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

    /// The byte at `i` (in bounds).
    #[inline]
    pub fn get(&self, i: usize) -> Byte {
        self.chunks[i / CHUNK].get(i % CHUNK)
    }

    /// `n` bytes from `offset` (in bounds).
    pub fn read(&self, offset: usize, n: usize) -> Vec<Byte> {
        let mut out = Vec::with_capacity(n);
        self.for_each_span(offset, n, |chunk, at, len| match chunk {
            Chunk::Con(b) => out.extend(b[at..at + len].iter().map(|c| Byte::C(*c))),
            Chunk::Sym(b) => out.extend_from_slice(&b[at..at + len]),
        });
        out
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
        for i in (0..n).rev() {
            let Byte::C(c) = self.get(offset + i) else {
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
            let chunk = own(&mut self.chunks[pos / CHUNK]);
            let len = (CHUNK - at).min(bytes.len() - done);
            chunk.write(at, &bytes[done..done + len]);
            done += len;
        }
    }

    /// Every byte, in order.
    pub fn iter(&self) -> impl Iterator<Item = Byte> + '_ {
        (0..self.size).map(|i| self.get(i))
    }

    /// Every byte, as a vector.
    pub fn to_vec(&self) -> Vec<Byte> {
        self.read(0, self.size)
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
    use augur_expr::ExprId;

    #[test]
    fn reads_back_writes_across_chunks() {
        let mut b = ObjectBytes::zeroed(3 * CHUNK + 5);
        let data: Vec<Byte> = (0..CHUNK + 10).map(|i| Byte::C(i as u8)).collect();
        b.write(CHUNK - 5, &data);
        assert_eq!(b.read(CHUNK - 5, data.len()), data);
        assert_eq!(b.get(CHUNK - 6), Byte::C(0));
        assert_eq!(b.get(3 * CHUNK + 4), Byte::C(0));
        assert_eq!(b.read_known(CHUNK - 5, 4), Some(0x0302_0100));
        assert_eq!(
            b.read_known(CHUNK - 2, 4),
            Some(0x0605_0403),
            "across a chunk"
        );
        b.write_known(CHUNK - 1, 0xaabb, 2);
        assert_eq!(b.read(CHUNK - 1, 2), [Byte::C(0xbb), Byte::C(0xaa)]);
        b.write_known(1, 0xccdd, 2);
        assert_eq!(b.read_known(0, 4), Some(0x00cc_dd00));
    }

    #[test]
    fn symbolic_bytes_are_kept_and_not_known() {
        let mut b = ObjectBytes::zeroed(10);
        b.write(3, &[Byte::C(1), Byte::S(ExprId(7))]);
        assert_eq!(b.get(4), Byte::S(ExprId(7)));
        assert_eq!(b.read_known(2, 2), Some(0x0100));
        assert_eq!(b.read_known(3, 2), None);
        b.write(4, &[Byte::C(9)]);
        assert_eq!(b.read_known(3, 2), Some(0x0901));
        assert_eq!(b.iter().filter(|x| *x == Byte::C(0)).count(), 8);
    }

    #[test]
    fn a_write_copies_only_its_chunk() {
        let mut a = ObjectBytes::zeroed(4 * CHUNK);
        a.write(0, &[Byte::C(1)]);
        let mut b = a.clone();
        b.write(2 * CHUNK, &[Byte::C(2)]);
        assert_eq!(a.get(2 * CHUNK), Byte::C(0));
        assert_eq!(b.get(2 * CHUNK), Byte::C(2));
        assert_eq!(b.get(0), Byte::C(1));
        let copied = b.chunks.iter().filter(|c| Rc::strong_count(c) == 1).count();
        assert_eq!(copied, 1, "only the written chunk is b's own");
    }
}
