//! The one random number generator (SplitMix64), deterministic and dependency-free: the
//! same `--seed` gives the same choices and so the same tests, and the randomised unit
//! tests of every crate draw their instances from it.

/// SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// One of `items` (not empty), uniformly.
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize].clone()
    }

    /// A `width`-bit value biased toward edge cases (0, 1, all ones, the sign bit, small),
    /// for randomised tests.
    pub fn edge_value(&mut self, width: u32) -> u128 {
        let v = match self.below(6) {
            0 => 0,
            1 => 1,
            2 => u128::MAX,
            3 => 1 << (width - 1),
            4 => u128::from(self.below(16)),
            _ => (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64()),
        };
        v & crate::bits::mask(width)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            let x = a.below(10);
            assert_eq!(x, b.below(10));
            assert!(x < 10);
            let u = a.unit();
            b.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
