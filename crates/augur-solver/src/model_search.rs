//! Model search: looks for a model of a query by evaluating its compiled form
//! ([`CompiledQuery`]) on sampled inputs. Some queries that are hopeless for Z3 in seconds
//! are easy to sample: a 16-bit check of a hash computed through memory written at
//! symbolic indices holds for one input in 65,536, found in well under a second of
//! evaluation, while bit-blasting the chained array reads and writes does not finish in
//! minutes. A search can only find models, never show a query unsatisfiable, so it runs
//! beside Z3 ([`crate::race`]), never instead of it.

use augur_expr::CompiledQuery;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many inputs are tried between two looks at the stop flag.
const BATCH: u64 = 256;

/// The most bytes one mutation of a seed changes.
const MAX_MUTATED: u64 = 8;

/// The first input satisfying `query`, trying the `seeds` (inputs laid out as the query's,
/// e.g. models of related queries) as they are, then alternately a seed with a few random
/// bytes changed and a uniformly random input, until `stop` is set. The same query and
/// seeds give the same sequence of tries.
pub(crate) fn search(
    query: &CompiledQuery,
    seeds: &[Vec<u8>],
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    let mut regs = query.scratch();
    if let Some(seed) = seeds.iter().find(|s| query.holds(s, &mut regs)) {
        return Some(seed.clone());
    }
    let len = query.input_len();
    if len == 0 {
        return query.holds(&[], &mut regs).then(Vec::new);
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(len as u64);
    let mut input = vec![0u8; len];
    for round in 0u64.. {
        if round % BATCH == 0 && stop.load(Ordering::Relaxed) {
            tracing::debug!(tries = round, "the model search stopped without a model");
            return None;
        }
        match seeds.get(round as usize % (2 * seeds.len().max(1))) {
            Some(seed) => {
                input.copy_from_slice(seed);
                for _ in 0..=rng.next_u64() % MAX_MUTATED.min(len as u64) {
                    let at = (rng.next_u64() % len as u64) as usize;
                    input[at] = rng.next_u64() as u8;
                }
            }
            None => rng.fill_bytes(&mut input),
        }
        if query.holds(&input, &mut regs) {
            tracing::debug!(tries = round + 1, "the model search found a model");
            return Some(input);
        }
    }
    unreachable!("the search loop only ends by returning")
}

#[cfg(test)]
mod tests {
    use super::*;
    use augur_expr::{BinOp, ExprPool};

    /// `h & 0xffff == target` for a 32-bit multiplicative hash of four input bytes: one
    /// input in 65,536 satisfies it.
    fn hash_query(p: &mut ExprPool, target: u128) -> Vec<augur_expr::ExprId> {
        let x = p.new_array("in", 4);
        let arr = p.array_sym(x);
        let mut h = p.constant(0, 32);
        for i in 0..4 {
            let idx = p.constant(i, 64);
            let b = p.select(arr, idx);
            let b = p.zext(b, 32);
            let k = p.constant(31, 32);
            let m = p.bin(BinOp::Mul, h, k);
            h = p.bin(BinOp::Add, m, b);
            let s = p.constant(7, 32);
            let r = p.bin(BinOp::LShr, h, s);
            h = p.bin(BinOp::Xor, h, r);
        }
        let low = p.extract(h, 0, 16);
        let t = p.constant(target, 16);
        vec![p.eq(low, t)]
    }

    #[test]
    fn finds_a_one_in_65536_model_and_it_evaluates_true() {
        let mut p = ExprPool::new();
        let q = hash_query(&mut p, 0xbeef);
        let compiled = CompiledQuery::compile(&p, &q).unwrap();
        let stop = AtomicBool::new(false);
        let input = search(&compiled, &[], &stop).expect("a model");
        let model = compiled.assignment(&input);
        assert_eq!(p.eval(q[0], &model), 1);
    }

    #[test]
    fn a_satisfying_seed_is_returned_as_it_is() {
        let mut p = ExprPool::new();
        let q = hash_query(&mut p, 0xbeef);
        let compiled = CompiledQuery::compile(&p, &q).unwrap();
        let found = search(&compiled, &[], &AtomicBool::new(false)).unwrap();
        let seeds = [vec![0; 4], found.clone()];
        assert_eq!(
            search(&compiled, &seeds, &AtomicBool::new(false)),
            Some(found)
        );
    }

    #[test]
    fn an_unsatisfiable_query_searches_until_stopped() {
        let mut p = ExprPool::new();
        let x = p.new_array("in", 1);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let wide = p.zext(b, 16);
        let big = p.constant(300, 16);
        let q = [p.eq(wide, big)];
        let compiled = CompiledQuery::compile(&p, &q).unwrap();
        let stop = AtomicBool::new(false);
        let found = std::thread::scope(|s| {
            let searcher = s.spawn(|| search(&compiled, &[vec![7]], &stop));
            std::thread::sleep(std::time::Duration::from_millis(20));
            stop.store(true, Ordering::Relaxed);
            searcher.join().unwrap()
        });
        assert_eq!(found, None);
    }
}
