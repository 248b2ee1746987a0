//! Inputs for measuring how rare a bug is natively, beside the model-count estimate:
//! uniformly random bytes for every object of the trigger, and the trigger with 1 to 4
//! bytes set at random (a fuzzer's first steps from a known input); the program's own
//! tests (`--pool`) join them in the driver.

use crate::verify::Objects;
use augur_engine::Rng;

/// `n` inputs shaped as `shape` (same objects, same sizes) with random bytes.
pub fn random(shape: &Objects, n: usize, rng: &mut Rng) -> Vec<Objects> {
    (0..n)
        .map(|_| {
            shape
                .iter()
                .map(|(name, bytes)| (name.clone(), bytes.iter().map(|_| byte(rng)).collect()))
                .collect()
        })
        .collect()
}

/// `n` copies of `base`, each with 1 to 4 of its bytes (over all objects) set at random.
pub fn mutated(base: &Objects, n: usize, rng: &mut Rng) -> Vec<Objects> {
    let len: usize = base.iter().map(|(_, b)| b.len()).sum();
    if len == 0 {
        return Vec::new();
    }
    (0..n)
        .map(|_| {
            let mut m = base.clone();
            for _ in 0..1 + rng.below(4) {
                let mut at = rng.below(len as u64) as usize;
                for (_, bytes) in m.iter_mut() {
                    if at < bytes.len() {
                        bytes[at] = byte(rng);
                        break;
                    }
                    at -= bytes.len();
                }
            }
            m
        })
        .collect()
}

fn byte(rng: &mut Rng) -> u8 {
    rng.below(256) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_kept_and_mutants_differ_in_at_most_four_bytes() {
        let base: Objects = vec![("a".into(), vec![1, 2, 3]), ("b".into(), vec![9; 5])];
        let mut rng = Rng::new(7);
        for r in random(&base, 20, &mut rng) {
            assert_eq!(r.len(), 2);
            assert_eq!((r[0].0.as_str(), r[0].1.len()), ("a", 3));
            assert_eq!((r[1].0.as_str(), r[1].1.len()), ("b", 5));
        }
        let ms = mutated(&base, 200, &mut rng);
        assert_eq!(ms.len(), 200);
        for m in &ms {
            let changed: usize = m
                .iter()
                .zip(&base)
                .map(|((_, x), (_, y))| x.iter().zip(y).filter(|(p, q)| p != q).count())
                .sum();
            assert!(changed <= 4, "{m:?}");
        }
        assert!(ms.iter().any(|m| m != &base), "some mutant changes a byte");
    }
}
