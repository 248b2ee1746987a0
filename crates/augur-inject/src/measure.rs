//! Inputs for measuring how rare a bug is natively, beside the model-count estimate:
//! uniformly random bytes for every object of the trigger, and inputs with 1 to 4 of
//! their bytes changed at random (a fuzzer's first steps from a known input): of the
//! program's own inputs ([`own_inputs`], [`mutated_among`]), which is what a tester or
//! fuzzer starts from, and of the trigger ([`mutated`]), reported beside them; the
//! program's own tests (`--pool`) join them in the driver.

use crate::verify::Objects;
use augur_engine::Rng;

/// Whether byte `at` of the object `name` of `len` bytes is one the analysis fixes, and
/// a native run needs: the NUL that ends each argument object (`--sym-arg N` makes N+1
/// bytes, the last one 0, as every string the kernel passes in argv ends in one).
fn fixed(name: &str, len: usize, at: usize) -> bool {
    augur_env::is_arg_name(name) && at + 1 == len
}

/// The number of argument objects that follow the count at `at` in `shape` (before the
/// next count): the most it can keep.
fn group_size(shape: &Objects, at: usize) -> usize {
    shape[at + 1..]
        .iter()
        .take_while(|(name, _)| !augur_env::is_count_name(name))
        .filter(|(name, _)| augur_env::is_arg_name(name))
        .count()
}

/// `n` inputs shaped as `shape` (same objects, same sizes) with random bytes (but each
/// argument's final NUL), each argument count (`n_args`) drawn uniformly from 0 to the
/// arguments of its group: random argv of up to that many arguments.
pub fn random(shape: &Objects, n: usize, rng: &mut Rng) -> Vec<Objects> {
    (0..n)
        .map(|_| {
            shape
                .iter()
                .enumerate()
                .map(|(i, (name, bytes))| {
                    let len = bytes.len();
                    if augur_env::is_count_name(name) {
                        let count = rng.below(group_size(shape, i) as u64 + 1) as u32;
                        let mut le = count.to_le_bytes().to_vec();
                        le.resize(len, 0);
                        return (name.clone(), le);
                    }
                    let random =
                        (0..len).map(|at| if fixed(name, len, at) { 0 } else { byte(rng) });
                    (name.clone(), random.collect())
                })
                .collect()
        })
        .collect()
}

/// Draws per mutant at most, before [`mutated`] gives up on a trigger whose bytes the
/// program cannot see.
const DRAWS_PER_MUTANT: usize = 100;

/// What the program sees of a test: each argument up to its NUL (of those its count
/// keeps), standard input, the files, and every other object whole.
#[derive(PartialEq, Eq)]
struct Seen {
    args: Vec<Vec<u8>>,
    env: augur_env::Environment,
    others: Objects,
}

impl Seen {
    fn of(t: &Objects) -> Seen {
        let mut env = augur_env::environment(t);
        let args = env.args().iter().map(|a| a.to_vec()).collect();
        // The whole argument objects hold bytes past their NULs: compared as text only.
        env.arg_objects.clear();
        let others = t
            .iter()
            .filter(|(name, _)| {
                !(augur_env::is_count_name(name)
                    || name == "stdin"
                    || name.starts_with("file:")
                    || augur_env::is_arg_name(name))
            })
            .cloned()
            .collect();
        Seen { args, env, others }
    }
}

/// Up to `n` copies of `base`, each with 1 to 4 distinct bytes (over all objects; at
/// most all of them; never an argument's final NUL) changed to another value at random,
/// and each a new input to the program: a mutant it cannot tell from `base` (a change
/// past an argument's NUL, or in an argument its count drops) is drawn again, since it
/// is `base` again and fires every bug `base` triggers.
pub fn mutated(base: &Objects, n: usize, rng: &mut Rng) -> Vec<Objects> {
    let free: Vec<(usize, usize)> = base
        .iter()
        .enumerate()
        .flat_map(|(i, (name, bytes))| {
            (0..bytes.len())
                .filter(|&at| !fixed(name, bytes.len(), at))
                .map(move |at| (i, at))
        })
        .collect();
    if free.is_empty() {
        return Vec::new();
    }
    let original = Seen::of(base);
    (0..n * DRAWS_PER_MUTANT)
        .map(|_| {
            let mut m = base.clone();
            let k = (1 + rng.below(4) as usize).min(free.len());
            let mut picked: Vec<usize> = Vec::with_capacity(k);
            while picked.len() < k {
                let at = rng.below(free.len() as u64) as usize;
                if !picked.contains(&at) {
                    picked.push(at);
                }
            }
            for p in picked {
                let (i, at) = free[p];
                let b = &mut m[i].1[at];
                *b = b.wrapping_add(1 + rng.below(255) as u8);
            }
            m
        })
        .filter(|m| Seen::of(m) != original)
        .take(n)
        .collect()
}

/// The program's own inputs, whose mutations measure rarity: the `pool` tests and the
/// `explored` tests of the original program, in that order; with none of either, the
/// `seeds` (the seed paths' inputs), so that there is still something to mutate.
pub fn own_inputs(pool: &[Objects], explored: &[Objects], seeds: &[Objects]) -> Vec<Objects> {
    let own: Vec<Objects> = pool.iter().chain(explored).cloned().collect();
    if own.is_empty() {
        seeds.to_vec()
    } else {
        own
    }
}

/// `n` mutations (as [`mutated`] makes them) of `bases`, each of a base drawn uniformly
/// (fewer when a base drawn has no byte the program sees; none when `bases` is empty).
pub fn mutated_among(bases: &[Objects], n: usize, rng: &mut Rng) -> Vec<Objects> {
    if bases.is_empty() {
        return Vec::new();
    }
    (0..n)
        .filter_map(|_| {
            let base = &bases[rng.below(bases.len() as u64) as usize];
            mutated(base, 1, rng).pop()
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
    fn shapes_are_kept_and_mutants_differ_in_one_to_four_bytes() {
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
            assert!((1..=4).contains(&changed), "{m:?}");
        }
        let one: Objects = vec![("c".into(), vec![7])];
        for m in mutated(&one, 300, &mut rng) {
            assert_ne!(m[0].1, vec![7], "a one-byte input changes too");
        }
        // The count keeps the first of two arguments, `a` (then its NUL and two bytes
        // the program never sees): every mutant changes the count or the first
        // argument's text or NUL.
        let args: Objects = vec![
            ("n_args".into(), vec![1, 0, 0, 0]),
            ("arg00".into(), vec![b'a', 0, 0, 0]),
            ("arg01".into(), vec![b'b', 0]),
        ];
        let ms = mutated(&args, 300, &mut rng);
        assert_eq!(ms.len(), 300);
        for m in &ms {
            let changed = |i: usize, at: &[usize]| at.iter().any(|&j| m[i].1[j] != args[i].1[j]);
            assert!(
                changed(0, &[0, 1, 2, 3]) || changed(1, &[0, 1]),
                "the program sees no change: {m:?}"
            );
        }
        let ends_in_nul = |t: &Objects| {
            t.iter()
                .filter(|(name, _)| name.starts_with("arg"))
                .all(|(_, bytes)| bytes.last() == Some(&0))
        };
        assert!(ms.iter().all(ends_in_nul), "an argument lost its NUL");
        let randoms = random(&args, 300, &mut rng);
        assert!(randoms.iter().all(ends_in_nul));
        let mut counts = [0usize; 3];
        for r in &randoms {
            counts[u32::from_le_bytes(r[0].1[..4].try_into().unwrap()) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (70..=130).contains(&c)),
            "{counts:?}"
        );
        let unseen: Objects = vec![
            ("n_args".into(), vec![0, 0, 0, 0]),
            ("arg00".into(), vec![b'a', 0]),
        ];
        assert!(
            mutated(&unseen, 5, &mut rng)
                .iter()
                .all(|m| m[0].1 != unseen[0].1),
            "with no argument kept, only the count is seen"
        );
    }

    /// The bytes in which `m` differs from `base` (None when the shapes differ).
    fn distance(m: &Objects, base: &Objects) -> Option<usize> {
        let same_shape = m.len() == base.len()
            && m.iter()
                .zip(base)
                .all(|((n, x), (o, y))| n == o && x.len() == y.len());
        same_shape.then(|| {
            m.iter()
                .zip(base)
                .map(|((_, x), (_, y))| x.iter().zip(y).filter(|(p, q)| p != q).count())
                .sum()
        })
    }

    #[test]
    fn own_inputs_are_mutated_each_from_a_base_drawn_uniformly() {
        let pool: Vec<Objects> = vec![vec![("in".into(), vec![0; 8])]];
        let explored: Vec<Objects> = vec![
            vec![("in".into(), vec![100; 8])],
            vec![("in".into(), vec![200; 8]), ("x".into(), vec![1])],
        ];
        let seeds: Vec<Objects> = vec![vec![("in".into(), vec![50; 4])]];
        let own = own_inputs(&pool, &explored, &seeds);
        assert_eq!(own.len(), 3);
        assert_eq!((&own[0], &own[1..]), (&pool[0], &explored[..]));
        assert_eq!(own_inputs(&[], &[], &seeds), seeds, "the fallback");
        assert_eq!(own_inputs(&[], &explored, &seeds), explored);
        let mut rng = Rng::new(3);
        let ms = mutated_among(&own, 900, &mut rng);
        assert_eq!(ms.len(), 900);
        let mut from = [0usize; 3];
        for m in &ms {
            let near: Vec<usize> = (0..3)
                .filter(|&i| distance(m, &own[i]).is_some_and(|d| (1..=4).contains(&d)))
                .collect();
            assert_eq!(near.len(), 1, "one base 1-4 bytes away: {m:?}");
            from[near[0]] += 1;
        }
        assert!(from.iter().all(|&k| (240..=360).contains(&k)), "{from:?}");
        assert!(mutated_among(&[], 10, &mut rng).is_empty());
    }
}
