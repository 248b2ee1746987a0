//! Layer 6 (in front of Z3): a query that reads at most [`MOST_BYTES`] input bytes, each
//! at a known index, is decided by trying their values: the constraints that read one
//! byte alone on its 256 values, then the constraints that read both on the pairs of
//! values left. At most [`MOST_WORK`] instructions in all, an exact answer either way,
//! in milliseconds.
//!
//! Z3 4.8.12's incremental solver is slow on some of these. coreutils od reads a
//! character class through a table at `2 * c` for one input byte `c`; the read is a tree
//! of the table's known words, chosen by ranges of the index. Those queries took Z3's
//! scoped solver 0.2 to 10 s each (27 of od's 30 s went to five of them) where the same
//! query asserted whole took a millisecond. A model search beside Z3 finds models but
//! cannot show such a query unsatisfiable; trying every value can.
//!
//! Trying each byte's own constraints first matters: a path condition is mostly
//! constraints over one byte each (`c != '-'`), and evaluating all of them on every one
//! of 65,536 pairs took more than half of coreutils expr's time outside Z3.

use crate::independence::{Elem, SharedElements, WHOLE};
use crate::stats::SharedStats;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, CompiledQuery, ExprId, ExprPool, Scratch};

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
    /// read at known indices, and for each constraint the mask of those it reads (bit `k`:
    /// the `k`th byte).
    fn bytes_read(&self, pool: &ExprPool, constraints: &[ExprId]) -> Option<(Vec<Elem>, Vec<u8>)> {
        let mut elems = self.elems.borrow_mut();
        let mut read: Vec<Elem> = Vec::new();
        let mut masks = Vec::with_capacity(constraints.len());
        for &c in constraints {
            let mut mask = 0u8;
            for &(array, index) in elems.of(pool, c).iter() {
                if index == WHOLE {
                    return None;
                }
                let k = match read.iter().position(|&e| e == (array, index)) {
                    Some(k) => k,
                    None => {
                        read.push((array, index));
                        read.len() - 1
                    }
                };
                if read.len() > MOST_BYTES {
                    return None;
                }
                mask |= 1 << k;
            }
            masks.push(mask);
        }
        Some((read, masks))
    }
}

/// The constraints of a query that read one set of its bytes, compiled: evaluated on
/// values of those bytes alone.
struct Part {
    query: CompiledQuery,
    /// Where each byte of the query's read set sits in this part's input; None when the
    /// part does not read it, or reads it past its array's end (0 whatever the input).
    at: Vec<Option<usize>>,
    input: Vec<u8>,
    scratch: Scratch,
}

impl Part {
    /// The constraints whose mask is `mask`, compiled; None when they do not compile.
    fn of(
        pool: &ExprPool,
        constraints: &[ExprId],
        masks: &[u8],
        read: &[Elem],
        mask: u8,
    ) -> Option<Part> {
        let mine: Vec<ExprId> = constraints
            .iter()
            .zip(masks)
            .filter(|&(_, &m)| m == mask)
            .map(|(&c, _)| c)
            .collect();
        let query = CompiledQuery::compile(pool, &mine)?;
        let at = read.iter().map(|&elem| position(&query, elem)).collect();
        Some(Part {
            input: vec![0; query.input_len()],
            scratch: query.scratch(),
            query,
            at,
        })
    }

    /// The instructions one evaluation runs at most, counted at least 1.
    fn cost(&self) -> u64 {
        self.query.instructions() as u64 + 1
    }

    /// Whether the part's constraints hold when the read set's bytes are `values`.
    fn holds(&mut self, values: &[u8]) -> bool {
        for (&at, &v) in self.at.iter().zip(values) {
            if let Some(at) = at {
                self.input[at] = v;
            }
        }
        self.query.holds(&self.input, &mut self.scratch)
    }
}

/// Where byte `elem` sits in `query`'s input; None when the query does not read it or
/// reads it past its array's end.
fn position(query: &CompiledQuery, (array, index): Elem) -> Option<usize> {
    let mut start = 0;
    for &(a, size) in query.arrays() {
        if a == array && index < size as u64 {
            return Some(start + index as usize);
        }
        start += size;
    }
    None
}

/// The answer to `constraints`, which read the bytes `read` (constraint `k` those of
/// `masks[k]`), found by trying values: the constraints of each byte alone on its 256
/// values, then the constraints reading two bytes on the pairs of values left, in
/// increasing order. None when a part does not compile or the evaluations would run
/// more than [`MOST_WORK`] instructions.
fn decide(
    pool: &ExprPool,
    constraints: &[ExprId],
    read: &[Elem],
    masks: &[u8],
) -> Option<SatResult> {
    let mut none = Part::of(pool, constraints, masks, read, 0)?;
    if !none.holds(&[]) {
        return Some(SatResult::Unsat);
    }
    let mut work = 0;
    let mut domains: Vec<Vec<u8>> = Vec::with_capacity(read.len());
    for k in 0..read.len() {
        let mut own = Part::of(pool, constraints, masks, read, 1 << k)?;
        work += 256 * own.cost();
        if work > MOST_WORK {
            return None;
        }
        let mut values = [0u8; MOST_BYTES];
        let domain: Vec<u8> = (0..=255u8)
            .filter(|&v| {
                values[k] = v;
                own.holds(&values[..read.len()])
            })
            .collect();
        if domain.is_empty() {
            return Some(SatResult::Unsat);
        }
        domains.push(domain);
    }
    let chosen = match domains.as_slice() {
        [first, second] => {
            let mut both = Part::of(pool, constraints, masks, read, 0b11)?;
            let pairs = (first.len() * second.len()) as u64;
            if work + pairs * both.cost() > MOST_WORK {
                return None;
            }
            second
                .iter()
                .flat_map(|&w| first.iter().map(move |&v| [v, w]))
                .find(|pair| both.holds(pair))
                .map(|pair| pair.to_vec())
        }
        _ => Some(domains.iter().map(|d| d[0]).collect()),
    };
    Some(match chosen {
        Some(values) => SatResult::Sat(model(pool, constraints, read, &values)),
        None => SatResult::Unsat,
    })
}

/// The assignment of every array `constraints` read: all zeros but the bytes `read`,
/// which hold `values` (a byte past its array's end is not stored).
fn model(pool: &ExprPool, constraints: &[ExprId], read: &[Elem], values: &[u8]) -> Assignment {
    let mut out = Assignment::default();
    for a in pool.arrays_of_all(constraints) {
        let mut bytes = vec![0u8; pool.array_size(a) as usize];
        for (&(array, index), &v) in read.iter().zip(values) {
            if let Some(byte) = bytes.get_mut(index as usize).filter(|_| array == a) {
                *byte = v;
            }
        }
        out.set(a, bytes);
    }
    out
}

impl Solver for Exhaustive {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let Some((read, masks)) = self.bytes_read(pool, constraints) else {
            return self.inner.check(pool, constraints);
        };
        match decide(pool, constraints, &read, &masks) {
            Some(answer) => {
                self.stats.borrow_mut().exhaustive += 1;
                Ok(answer)
            }
            None => self.inner.check(pool, constraints),
        }
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

    /// `rounds` rounds of a multiplicative hash of the byte `x`, widened to 16 bits.
    fn hashed(p: &mut ExprPool, x: ExprId, rounds: u64) -> ExprId {
        let wide = p.zext(x, 16);
        let mut hash = wide;
        for round in 0..rounds {
            let k = p.constant(u128::from(31 + 2 * round), 16);
            let mixed = p.bin(BinOp::Mul, hash, k);
            hash = p.bin(BinOp::Add, mixed, wide);
        }
        hash
    }

    /// Two bytes, each behind a constraint of its own too long to evaluate on all 65,536
    /// pairs within the work, and one short constraint over both: each byte's own
    /// constraint is tried on its 256 values, the pairs left on the short one. Decided
    /// here, with a model that satisfies the query, and unsat when no pair is left.
    #[test]
    fn each_bytes_own_constraints_narrow_the_pairs() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 1);
        let (_, y) = var(&mut p, "y", 1);
        let rounds = MOST_WORK >> 17;
        let (hx, hy) = (hashed(&mut p, x, rounds), hashed(&mut p, y, rounds));
        let odd = p.constant(1, 16);
        let (lx, ly) = (p.bin(BinOp::And, hx, odd), p.bin(BinOp::And, hy, odd));
        let own_x = p.eq(lx, odd);
        let own_y = p.eq(ly, odd);
        let distinct = p.ne(x, y);
        let query = [own_x, own_y, distinct];
        let work = 65_536 * (CompiledQuery::compile(&p, &query).unwrap().instructions() as u64);
        assert!(
            work > MOST_WORK,
            "every pair through every constraint is too much"
        );
        let (rec, log) = Recorder::new(false);
        let (mut ex, stats) = layer(Box::new(rec));
        match ex.check(&p, &query) {
            Ok(SatResult::Sat(m)) => assert!(query.iter().all(|&c| p.eval(c, &m) == 1)),
            other => panic!("{other:?}"),
        }
        let (same, even_y) = (p.eq(x, y), p.not(own_y));
        assert_eq!(ex.check(&p, &[own_x, even_y, same]), Ok(SatResult::Unsat));
        assert!(log.borrow().is_empty(), "both decided here");
        assert_eq!(stats.borrow().exhaustive, 2);
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
