//! Concrete values for symbolic arrays.

use crate::ArrayId;
use rustc_hash::FxHashMap;

/// Concrete values for symbolic arrays (a model). Arrays (or bytes) it lacks read as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assignment {
    /// The bytes of each assigned array.
    pub arrays: FxHashMap<ArrayId, Vec<u8>>,
}

impl Assignment {
    /// The bytes assigned to `a`, if any.
    pub fn get(&self, a: ArrayId) -> Option<&[u8]> {
        self.arrays.get(&a).map(Vec::as_slice)
    }

    /// Assigns `bytes` to `a`, replacing any previous value.
    pub fn set(&mut self, a: ArrayId, bytes: Vec<u8>) {
        self.arrays.insert(a, bytes);
    }

    /// The byte of `a` at `index` (0 when unassigned or out of range).
    pub fn byte(&self, a: ArrayId, index: u128) -> u8 {
        self.get(a)
            .zip(usize::try_from(index).ok())
            .and_then(|(bytes, i)| bytes.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Adds every array of `other`, overwriting arrays both assign.
    pub fn extend(&mut self, other: Assignment) {
        self.arrays.extend(other.arrays);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_bytes_read_zero() {
        let mut a = Assignment::default();
        a.set(ArrayId(0), vec![1, 2]);
        assert_eq!(a.byte(ArrayId(0), 1), 2);
        assert_eq!(a.byte(ArrayId(0), 2), 0);
        assert_eq!(a.byte(ArrayId(0), u128::MAX), 0);
        assert_eq!(a.byte(ArrayId(1), 0), 0);
        assert_eq!(a.get(ArrayId(0)), Some(&[1u8, 2][..]));
        let mut b = Assignment::default();
        b.set(ArrayId(1), vec![7]);
        a.extend(b);
        assert_eq!(a.byte(ArrayId(1), 0), 7);
    }
}
