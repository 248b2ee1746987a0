//! The offsets an index expression can take, from its form and bounds: a table's
//! elements (`base + 8 * i`: every eighth byte from `base` on), not every byte.

use crate::{BinOp, ExprId, ExprKind, ExprPool};

/// The offsets from `first` to `last` in steps of `step` (a power of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stride {
    /// The lowest offset.
    pub first: u64,
    /// The highest offset (below `first`: none).
    pub last: u64,
    /// The distance between two offsets.
    pub step: u64,
}

impl Stride {
    /// How many offsets.
    pub fn count(&self) -> u64 {
        match self.last.checked_sub(self.first) {
            Some(span) => span / self.step + 1,
            None => 0,
        }
    }

    /// The offsets, in increasing order.
    pub fn offsets(&self) -> impl Iterator<Item = u64> {
        let (first, step) = (self.first, self.step);
        (0..self.count()).map(move |k| first + k * step)
    }
}

/// `v` as an offset (a bound past `u64` is no bound).
fn clamp(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

impl ExprPool {
    /// The offsets up to `room` that the 64-bit `off` can take, by its form `c + x`: from
    /// `c` to `c` plus the bound of `x` when that does not wrap (else from 0 to the bound
    /// of `off`), in steps of the low zero bits `x` (or `off`) is known to have.
    pub fn index_stride(&self, off: ExprId, room: u64) -> Stride {
        let within = match *self.kind(off) {
            ExprKind::Bin {
                op: BinOp::Add,
                lhs,
                rhs,
            } => self.as_const(lhs).and_then(|c| {
                let end = u64::try_from(c.checked_add(self.umax(rhs))?).ok()?;
                Some((c as u64, end, self.known_low_zeros(rhs)))
            }),
            _ => None,
        };
        let (first, last, zeros) =
            within.unwrap_or_else(|| (0, clamp(self.umax(off)), self.known_low_zeros(off)));
        Stride {
            first,
            last: last.min(room),
            step: 1u64 << zeros.min(16),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_element_index_takes_the_elements_offsets() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 1);
        let arr = p.array_sym(a);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let z = p.zext(b, 64);
        let eight = p.constant(8, 64);
        let scaled = p.mul(z, eight);
        let base = p.constant(100, 64);
        let off = p.add(base, scaled);
        let s = p.index_stride(off, u64::MAX);
        assert_eq!(
            (s.first, s.last, s.step, s.count()),
            (100, 100 + 8 * 255, 8, 256)
        );
        assert_eq!(s.offsets().nth(3), Some(124));
        let s = p.index_stride(off, 1000);
        assert_eq!((s.last, s.count()), (1000, 113));
        let s = p.index_stride(z, u64::MAX);
        assert_eq!((s.first, s.last, s.step), (0, 255, 1));
    }
}
