//! A frame's register file, in copy-on-write chunks of [`CHUNK`] registers. Forked states
//! share their frames; the first side to write a register copies that register's chunk
//! (and the frame's small list of chunk pointers), not the whole file. A large function
//! (a program's `main`, a table-driven loop) has hundreds of registers: copied whole, its
//! file was nearly all of a live state's memory (wc at 20 s: 2.15 of 2.57 GB, 14.5 KB per
//! state).

use crate::cow::own;
use crate::value::Value;
use std::ops::{Index, IndexMut};
use std::rc::Rc;

/// Registers per chunk: 16 values of 32 bytes, 512 bytes copied per chunk written after a
/// fork.
const CHUNK: usize = 16;

/// One chunk of registers.
type Chunk = [Value; CHUNK];

/// A register file: `len` registers, each a [`Value`], indexed by register number.
#[derive(Clone, Debug)]
pub struct Registers {
    chunks: Vec<Rc<Chunk>>,
    len: usize,
}

impl Registers {
    /// `len` registers, each `init`.
    pub fn new(len: usize, init: &Value) -> Self {
        let chunks = (0..len.div_ceil(CHUNK))
            .map(|_| Rc::new(std::array::from_fn(|_| init.clone())))
            .collect();
        Registers { chunks, len }
    }

    /// The number of registers.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there is no register.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Register `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<&Value> {
        (i < self.len).then(|| &self[i])
    }
}

impl Index<usize> for Registers {
    type Output = Value;

    /// Register `i`. Register numbers come from the function's IR, all below its register
    /// count; that is checked in debug builds only (the read is on every instruction).
    #[inline(always)]
    fn index(&self, i: usize) -> &Value {
        debug_assert!(i < self.len, "register {i} of {}", self.len);
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

impl IndexMut<usize> for Registers {
    /// Register `i` for writing: its chunk is copied first if another frame shares it.
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut Value {
        debug_assert!(i < self.len, "register {i} of {}", self.len);
        &mut own(&mut self.chunks[i / CHUNK])[i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::{Registers, CHUNK};
    use crate::value::Value;
    use std::rc::Rc;

    #[test]
    fn a_copy_shares_chunks_until_one_side_writes_one() {
        let mut a = Registers::new(3 * CHUNK + 1, &Value::con(0, 1));
        a[5] = Value::con(7, 32);
        let mut b = a.clone();
        b[CHUNK + 2] = Value::con(9, 32);
        assert_eq!(a[CHUNK + 2], Value::con(0, 1), "the other side unchanged");
        assert_eq!(b[CHUNK + 2], Value::con(9, 32));
        assert_eq!(b[5], Value::con(7, 32), "values before the copy are kept");
        let shared = (0..a.chunks.len())
            .filter(|&c| Rc::ptr_eq(&a.chunks[c], &b.chunks[c]))
            .count();
        assert_eq!(shared, 3, "only the written chunk was copied");
        assert_eq!(b.len(), 3 * CHUNK + 1);
        assert_eq!(b.get(3 * CHUNK + 1), None);
    }
}
