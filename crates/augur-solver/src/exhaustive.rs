//! Layer 6 (in front of Z3): a query that reads at most [`MOST_BYTES`] input bytes, each
//! at a known index, is decided by evaluating its compiled form on every value of those
//! bytes: at most 65,536 evaluations of at most [`MOST_WORK`] instructions in all, an
//! exact answer either way, in milliseconds.
//!
//! Z3 4.8.12's incremental solver is slow on some of these. coreutils od reads a
//! character class through a table at `2 * c` for one input byte `c`; the read is a tree
//! of the table's known words, chosen by ranges of the index. Those queries took Z3's
//! scoped solver 0.2 to 10 s each (27 of od's 30 s went to five of them) where the same
//! query asserted whole took a millisecond. A model search beside Z3 finds models but
//! cannot show such a query unsatisfiable; trying every value can.

use crate::independence::{Elem, SharedElements, WHOLE};
use crate::stats::SharedStats;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{CompiledQuery, ExprId, ExprPool};

/// The most input bytes a query may read to be decided here (256^2 evaluations).
pub(crate) const MOST_BYTES: usize = 2;

/// The most instructions all the evaluations of one query may run (each evaluation
/// counted at its full length, though most stop at their first false constraint): a
/// few tenths of a second at most, so the layer needs no clock of its own to keep to
/// `--max-time`. A longer query goes on to Z3.
const MOST_WORK: u64 = 1 << 26;

/// Decides queries over at most [`MOST_BYTES`] bytes read at known indices; passes the
/// rest on.
pub(crate) struct Exhaustive {
    inner: Box<dyn Solver>,
    elems: SharedElements,
    stats: SharedStats,
}

impl Exhaustive {
    /// The layer in front of `inner`, reading the input bytes of expressions from `elems`.
    pub(crate) fn new(inner: Box<dyn Solver>, elems: SharedElements, stats: SharedStats) -> Self {
        Exhaustive {
            inner,
            elems,
            stats,
        }
    }

    /// The input bytes `constraints` read, when they are at most [`MOST_BYTES`] bytes
    /// read at known indices.
    fn bytes_read(&self, pool: &ExprPool, constraints: &[ExprId]) -> Option<Vec<Elem>> {
        let mut elems = self.elems.borrow_mut();
        let mut read = Vec::new();
        for &c in constraints {
            for &(array, index) in elems.of(pool, c).iter() {
                if index == WHOLE {
                    return None;
                }
                if !read.contains(&(array, index)) {
                    read.push((array, index));
                }
                if read.len() > MOST_BYTES {
                    return None;
                }
            }
        }
        Some(read)
    }
}

/// The positions of the bytes `read` in `query`'s input. A read past an array's end is 0
/// whatever the input, so it is no position at all.
fn positions(query: &CompiledQuery, read: &[Elem]) -> Vec<usize> {
    let mut positions = Vec::with_capacity(read.len());
    for &(array, index) in read {
        let mut start = 0;
        for &(a, size) in query.arrays() {
            if a == array && index < size as u64 {
                positions.push(start + index as usize);
            }
            start += size;
        }
    }
    positions
}

/// The first input (the bytes at `positions` counted up from all zeros, the rest 0) that
/// satisfies `query`; None when none does.
fn first_model(query: &CompiledQuery, positions: &[usize]) -> Option<Vec<u8>> {
    let mut input = vec![0u8; query.input_len()];
    let mut scratch = query.scratch();
    let values = 1u32 << (8 * positions.len());
    for value in 0..values {
        for (k, &at) in positions.iter().enumerate() {
            input[at] = (value >> (8 * k)) as u8;
        }
        if query.holds(&input, &mut scratch) {
            return Some(input);
        }
    }
    None
}

impl Solver for Exhaustive {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let Some(read) = self.bytes_read(pool, constraints) else {
            return self.inner.check(pool, constraints);
        };
        let compiled = CompiledQuery::compile(pool, constraints);
        let values = 1u64 << (8 * read.len());
        let Some(query) = compiled.filter(|q| values * (q.instructions() as u64 + 1) <= MOST_WORK)
        else {
            return self.inner.check(pool, constraints);
        };
        self.stats.borrow_mut().exhaustive += 1;
        Ok(match first_model(&query, &positions(&query, &read)) {
            Some(input) => SatResult::Sat(query.assignment(&input)),
            None => SatResult::Unsat,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder, Rng};
    use crate::z3_backend::Z3Backend;
    use augur_expr::{BinOp, CmpOp};

    fn layer(inner: Box<dyn Solver>) -> (Exhaustive, SharedStats) {
        let stats = SharedStats::default();
        let layer = Exhaustive::new(inner, SharedElements::default(), stats.clone());
        (layer, stats)
    }

    /// Random queries over two input bytes (products, shifts, if-then-else trees of
    /// constants, comparisons): the layer decides each, agrees with Z3 on every verdict,
    /// and every model it gives satisfies the query.
    #[test]
    fn verdicts_agree_with_z3_and_models_hold() {
        let mut p = ExprPool::new();
        let (_, a) = var(&mut p, "a", 1);
        let (_, b) = var(&mut p, "b", 1);
        let mut rng = Rng::new(0xe7a5_7e5c_0de0_0001);
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        let (rec, log) = Recorder::new(true);
        let (mut ex, stats) = layer(Box::new(rec));
        let (mut sat, mut unsat) = (0, 0);
        for round in 0..300 {
            let wide = |p: &mut ExprPool, x| p.zext(x, 16);
            let (wa, wb) = (wide(&mut p, a), wide(&mut p, b));
            let k = p.constant(u128::from(rng.next_u64() % 0x300), 16);
            let op = rng.pick(&BinOp::ALL);
            let mixed = p.bin(op, wa, wb);
            let cmp = rng.pick(&CmpOp::ALL);
            let first = p.cmp(cmp, mixed, k);
            let small = p.constant(u128::from(rng.next_u64() % 256), 8);
            let picked = p.ult(a, small);
            let (t, e) = (p.constant(7, 16), p.constant(round % 9, 16));
            let tree = p.ite(picked, t, e);
            let second = p.ne(tree, mixed);
            let query = [first, second];
            let mine = ex.check(&p, &query).unwrap();
            match (&mine, z3.check(&p, &query).unwrap()) {
                (SatResult::Sat(m), SatResult::Sat(_)) => {
                    sat += 1;
                    assert!(query.iter().all(|&c| p.eval(c, m) == 1), "round {round}");
                }
                (SatResult::Unsat, SatResult::Unsat) => unsat += 1,
                (mine, z3) => panic!("round {round}: exhaustive {mine:?}, Z3 {z3:?}"),
            }
        }
        assert!(log.borrow().is_empty(), "every query was decided here");
        assert_eq!(stats.borrow().exhaustive, 300);
        assert!(sat >= 30 && unsat >= 30, "{sat} sat, {unsat} unsat");
    }

    /// A query that one pair of byte values satisfies, for pairs at the ends of the
    /// range: each is found, as the model's exact bytes.
    #[test]
    fn every_value_is_tried() {
        let mut p = ExprPool::new();
        let (a, x) = var(&mut p, "a", 1);
        let (b, y) = var(&mut p, "b", 1);
        let (rec, _) = Recorder::new(false);
        let (mut ex, _) = layer(Box::new(rec));
        for (va, vb) in [(0u8, 0u8), (255, 255), (0, 255), (255, 0), (17, 200)] {
            let (ka, kb) = (p.constant(va.into(), 8), p.constant(vb.into(), 8));
            let query = [p.eq(x, ka), p.eq(y, kb)];
            match ex.check(&p, &query) {
                Ok(SatResult::Sat(m)) => {
                    assert_eq!((m.get(a), m.get(b)), (Some(&[va][..]), Some(&[vb][..])))
                }
                other => panic!("{va}, {vb}: {other:?}"),
            }
        }
    }

    /// Three bytes, a byte at a symbolic index, or two bytes through more instructions
    /// than the work allows, go on to the next layer.
    #[test]
    fn larger_queries_pass_on() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 3);
        let (table, i) = var(&mut p, "t", 1);
        let zero = p.constant(0, 24);
        let three_bytes = p.ne(x, zero);
        let arr = p.array_sym(table);
        let at = p.zext(i, 64);
        let read = p.select(arr, at);
        let k = p.constant(9, 8);
        let symbolic_index = p.eq(read, k);
        let (_, two) = var(&mut p, "two", 2);
        let mut hash = two;
        let rounds = MOST_WORK >> 16;
        for round in 0..rounds {
            let k = p.constant(u128::from(31 + 2 * round), 16);
            let mixed = p.bin(BinOp::Mul, hash, k);
            hash = p.bin(BinOp::Add, mixed, two);
        }
        let target = p.constant(0x1234, 16);
        let long = p.eq(hash, target);
        let (rec, log) = Recorder::new(false);
        let (mut ex, stats) = layer(Box::new(rec));
        assert_eq!(ex.check(&p, &[three_bytes]), Ok(SatResult::Unsat));
        assert_eq!(ex.check(&p, &[symbolic_index]), Ok(SatResult::Unsat));
        assert_eq!(ex.check(&p, &[long]), Ok(SatResult::Unsat));
        let passed = [vec![three_bytes], vec![symbolic_index], vec![long]];
        assert_eq!(*log.borrow(), passed);
        assert_eq!(stats.borrow().exhaustive, 0);
    }

    /// A byte read past its array's end is 0 whatever the input: the query is decided
    /// over the bytes that exist, and its model is the array's full size.
    #[test]
    fn reads_past_the_end_are_zero() {
        let mut p = ExprPool::new();
        let (a, x) = var(&mut p, "x", 1);
        let arr = p.array_sym(a);
        let past = p.constant(4, 64);
        let beyond = p.select(arr, past);
        let zero = p.constant(0, 8);
        let k = p.constant(0x41, 8);
        let query = [p.eq(beyond, zero), p.eq(x, k)];
        let (rec, _) = Recorder::new(false);
        let (mut ex, _) = layer(Box::new(rec));
        match ex.check(&p, &query) {
            Ok(SatResult::Sat(m)) => assert_eq!(m.get(a), Some(&[0x41][..])),
            other => panic!("{other:?}"),
        }
        let nonzero = p.ne(beyond, zero);
        assert_eq!(ex.check(&p, &[nonzero]), Ok(SatResult::Unsat));
    }
}
