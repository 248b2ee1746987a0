//! Approximate model counting and near-uniform sampling of a formula over the input
//! bytes, by hashing (ApproxMC's counting, UniGen's sampling).
//!
//! `m` random XOR constraints over the input bits (each bit in each XOR with
//! probability 1/2, a random parity) split the solutions into 2^m cells of expected equal
//! size. With the XORs nested (the constraints for `m + 1` are those for `m` plus one), a
//! cell only shrinks as `m` grows; we find the smallest `m` whose cell holds at most
//! [`CELL`] solutions, enumerate that cell with Z3 (through augur-solver's chain, each
//! solution blocked in turn), and estimate the count as `|cell| * 2^m`. Repeating with
//! fresh hashes gives independent estimates (their median is the count) and the cells'
//! solutions are the samples: each solution lands in the chosen cell with probability
//! 2^-m, so every solution is equally likely to be drawn. When the formula has at most
//! [`CELL`] solutions (`m = 0`), the count is exact and the samples are all solutions.
//!
//! Hashing needs about log2(count) XORs, which Z3 handles badly in the hundreds; where
//! solutions are dense enough, rejection sampling (random inputs kept when they satisfy
//! the formula) is exact in distribution and cheap, and is tried first: each byte drawn
//! from its possible values ([`crate::space`]: a byte the formula pins is not drawn at
//! all, nor hashed), and every point listed when there are few. The solver is asked for
//! pinned bytes only when that fails.

use augur_engine::Rng;
use augur_expr::{ArrayId, Assignment, BinOp, CmpOp, CompiledQuery, ExprId, ExprPool, Scratch};
use augur_solver::{SatResult, Solver, SolverChain};

use crate::space::Space;
use rustc_hash::FxHashMap;

/// Largest cell enumerated.
pub const CELL: usize = 32;
/// Hash rounds at most (estimates whose median is taken).
const MAX_ROUNDS: usize = 9;
/// Hash rounds at least, when the count is not exact.
const MIN_ROUNDS: usize = 3;
/// XOR constraints at most (Z3 slows down sharply beyond).
const MAX_XORS: usize = 64;
/// Random inputs drawn at most for rejection sampling.
const DRAWS: usize = 20_000;
/// Accepted draws needed to trust rejection sampling's count.
const ACCEPTED: usize = 32;
/// Points of a space listed at most, to count its solutions exactly.
const ENUMERATED: usize = 4096;

/// A count and samples.
#[derive(Clone, Debug)]
pub struct Counted {
    /// Estimated number of solutions (over the support bytes).
    pub count: f64,
    /// Is `count` exact?
    pub exact: bool,
    /// Are the samples all the solutions (each once)?
    pub complete: bool,
    /// Sampled solutions (each assigns every support array).
    pub samples: Vec<Assignment>,
    /// Input bits the formula depends on.
    pub bits: u32,
}

/// The input bytes `constraints` depend on: every byte of every array they mention.
pub fn support(pool: &ExprPool, constraints: &[ExprId]) -> Vec<(ArrayId, u64)> {
    let mut arrays: Vec<ArrayId> = constraints
        .iter()
        .flat_map(|c| pool.arrays_of(*c).iter().copied())
        .collect();
    arrays.sort_unstable();
    arrays.dedup();
    arrays
        .into_iter()
        .flat_map(|a| (0..pool.array_size(a)).map(move |i| (a, i)))
        .collect()
}

/// Byte `i` of array `a` as an expression.
pub(crate) fn byte(pool: &mut ExprPool, a: ArrayId, i: u64) -> ExprId {
    let arr = pool.array_sym(a);
    let idx = pool.constant(u128::from(i), 64);
    pool.select(arr, idx)
}

/// One random XOR constraint over the bits of `bytes`.
fn random_xor(pool: &mut ExprPool, rng: &mut Rng, bytes: &[(ArrayId, u64)]) -> ExprId {
    let mut acc: Option<ExprId> = None;
    for &(a, i) in bytes {
        let mask = rng.next_u64() as u8;
        if mask == 0 {
            continue;
        }
        let b = byte(pool, a, i);
        let m = pool.constant(u128::from(mask), 8);
        let picked = pool.bin(BinOp::And, b, m);
        acc = Some(match acc {
            None => picked,
            Some(x) => pool.bin(BinOp::Xor, x, picked),
        });
    }
    let parity = rng.next_u64() & 1;
    let Some(x) = acc else {
        return pool.bool_const(parity == 0);
    };
    // The parity of the xor of the picked bits: fold the byte's 8 bits.
    let bits: Vec<ExprId> = (0..8).map(|k| pool.extract(x, k, 1)).collect();
    let folded = bits[1..]
        .iter()
        .fold(bits[0], |p, &b| pool.bin(BinOp::Xor, p, b));
    let want = pool.constant(u128::from(parity), 1);
    pool.cmp(CmpOp::Eq, folded, want)
}

/// "Not exactly this assignment" over `bytes`.
fn block(pool: &mut ExprPool, model: &Assignment, bytes: &[(ArrayId, u64)]) -> ExprId {
    let mut all = pool.bool_const(true);
    for &(a, i) in bytes {
        let b = byte(pool, a, i);
        let v = pool.constant(u128::from(model.byte(a, u128::from(i))), 8);
        let eq = pool.cmp(CmpOp::Eq, b, v);
        all = pool.bin(BinOp::And, all, eq);
    }
    pool.not(all)
}

/// The solutions of `constraints`, at most `limit + 1` of them.
fn enumerate(
    pool: &mut ExprPool,
    solver: &mut SolverChain,
    constraints: &[ExprId],
    bytes: &[(ArrayId, u64)],
    limit: usize,
) -> Result<Vec<Assignment>, String> {
    let mut query = constraints.to_vec();
    let mut found = Vec::new();
    while found.len() <= limit {
        match solver.check(pool, &query).map_err(|e| e.to_string())? {
            SatResult::Unsat => break,
            SatResult::Sat(model) => {
                query.push(block(pool, &model, bytes));
                found.push(model);
            }
        }
    }
    Ok(found)
}

/// One hash round: nested XORs, drawn as needed, and the cells already enumerated.
struct Round<'a> {
    constraints: &'a [ExprId],
    bytes: &'a [(ArrayId, u64)],
    xors: Vec<ExprId>,
    cells: FxHashMap<usize, Vec<Assignment>>,
}

impl Round<'_> {
    /// The cell of the first `m` XORs (at most `CELL + 1` of its solutions).
    fn cell(
        &mut self,
        pool: &mut ExprPool,
        solver: &mut SolverChain,
        rng: &mut Rng,
        m: usize,
    ) -> Result<&Vec<Assignment>, String> {
        while self.xors.len() < m {
            let x = random_xor(pool, rng, self.bytes);
            self.xors.push(x);
        }
        if !self.cells.contains_key(&m) {
            let mut q = self.constraints.to_vec();
            q.extend_from_slice(&self.xors[..m]);
            let sols = enumerate(pool, solver, &q, self.bytes, CELL)?;
            self.cells.insert(m, sols);
        }
        Ok(&self.cells[&m])
    }

    /// The smallest `m` whose cell fits (galloping up from `hint`, then bisecting).
    fn fitting(
        &mut self,
        pool: &mut ExprPool,
        solver: &mut SolverChain,
        rng: &mut Rng,
        hint: usize,
        max: usize,
    ) -> Result<usize, String> {
        let fits =
            |r: &mut Self, pool: &mut ExprPool, solver: &mut SolverChain, rng: &mut Rng, m| {
                r.cell(pool, solver, rng, m).map(|c| c.len() <= CELL)
            };
        let (mut lo, mut hi); // cell(lo) overflows (or lo = -1), cell(hi) fits
        if fits(self, pool, solver, rng, hint)? {
            hi = hint;
            lo = None;
            let mut step = 1;
            while hi > 0 {
                let probe = hi.saturating_sub(step);
                if fits(self, pool, solver, rng, probe)? {
                    hi = probe;
                    step *= 2;
                } else {
                    lo = Some(probe);
                    break;
                }
            }
        } else {
            lo = Some(hint);
            let mut step = 1;
            loop {
                let probe = (hint + step).min(max);
                if fits(self, pool, solver, rng, probe)? || probe == max {
                    hi = probe;
                    break;
                }
                lo = Some(probe);
                step *= 2;
            }
        }
        while let Some(l) = lo {
            if l + 1 >= hi {
                break;
            }
            let mid = (l + hi) / 2;
            if fits(self, pool, solver, rng, mid)? {
                hi = mid;
            } else {
                lo = Some(mid);
            }
        }
        Ok(hi)
    }
}

/// Constraints checked under many assignments: compiled once into a program
/// ([`CompiledQuery`]), so that each check costs a run of it rather than a hash lookup per
/// node and assignment (augur-expr's evaluator); evaluated where a value is wider than 64
/// bits, which the program does not hold.
pub struct Checker<'p> {
    pool: &'p ExprPool,
    constraints: &'p [ExprId],
    compiled: Option<(CompiledQuery, Scratch)>,
}

impl<'p> Checker<'p> {
    /// A checker of `constraints` (of `pool`).
    pub fn new(pool: &'p ExprPool, constraints: &'p [ExprId]) -> Self {
        let compiled = CompiledQuery::compile(pool, constraints).map(|q| {
            let scratch = q.scratch();
            (q, scratch)
        });
        Checker {
            pool,
            constraints,
            compiled,
        }
    }

    /// Does `a` satisfy every constraint?
    pub fn holds(&mut self, a: &Assignment) -> bool {
        match &mut self.compiled {
            Some((q, scratch)) => q.holds(&q.input_of(a), scratch),
            None => {
                let mut ev = augur_expr::Evaluator::new(self.pool, a);
                self.constraints.iter().all(|&c| ev.eval(c) == 1)
            }
        }
    }

    /// Whether `a` satisfies each constraint, in order, into `out` (cleared first).
    pub fn holds_each(&mut self, a: &Assignment, out: &mut Vec<bool>) {
        match &mut self.compiled {
            Some((q, scratch)) => q.holds_each(&q.input_of(a), scratch, out),
            None => {
                let mut ev = augur_expr::Evaluator::new(self.pool, a);
                out.clear();
                out.extend(self.constraints.iter().map(|&c| ev.eval(c) == 1));
            }
        }
    }
}

/// Rejection sampling: up to `draws` uniform random inputs over `bytes`, stopping after
/// `want` satisfy `constraints` (and at least a tenth of the draws); the count is the
/// share accepted times the input space.
pub fn draw(
    pool: &ExprPool,
    constraints: &[ExprId],
    bytes: &[(ArrayId, u64)],
    want: usize,
    max_draws: usize,
    rng: &mut Rng,
) -> Counted {
    draw_in(pool, constraints, &Space::full(bytes), want, max_draws, rng)
}

/// [`draw`] over the points of `space` (a superset of the solutions): still uniform
/// over the solutions; the count is the share accepted times the space's size.
pub fn draw_in(
    pool: &ExprPool,
    constraints: &[ExprId],
    space: &Space,
    want: usize,
    max_draws: usize,
    rng: &mut Rng,
) -> Counted {
    let mut samples = Vec::new();
    let mut draws = 0;
    let mut checker = Checker::new(pool, constraints);
    while draws < max_draws && (samples.len() < want || draws < max_draws / 10) {
        draws += 1;
        let a = space.draw(pool, rng);
        if checker.holds(&a) {
            samples.push(a);
        }
    }
    let bits = (space.bytes.len() * 8) as u32;
    Counted {
        count: samples.len() as f64 / draws.max(1) as f64 * space.size(),
        exact: false,
        complete: false,
        samples,
        bits,
    }
}

/// The solutions of `constraints` found in `space` without the solver: every one when
/// the space is small enough to list ([`ENUMERATED`] points: the count is exact), else
/// by rejection (random points of the space kept when they satisfy `constraints`:
/// exactly uniform samples and a Monte-Carlo count) when they are not too sparse in it
/// (at least [`ACCEPTED`] of [`DRAWS`] draws hit).
fn in_space(
    pool: &ExprPool,
    constraints: &[ExprId],
    space: &Space,
    want: usize,
    rng: &mut Rng,
) -> Option<Counted> {
    if let Some(points) = space.points(pool, ENUMERATED) {
        let mut checker = Checker::new(pool, constraints);
        let samples: Vec<Assignment> = points.into_iter().filter(|a| checker.holds(a)).collect();
        return Some(Counted {
            count: samples.len() as f64,
            exact: true,
            complete: true,
            samples,
            bits: (space.bytes.len() * 8) as u32,
        });
    }
    let c = draw_in(pool, constraints, space, want.max(ACCEPTED), DRAWS, rng);
    (c.samples.len() >= ACCEPTED).then_some(c)
}

/// The constraints in groups sharing no array (connected through shared arrays).
fn components(pool: &ExprPool, constraints: &[ExprId]) -> Vec<Vec<ExprId>> {
    let mut groups: Vec<(Vec<ArrayId>, Vec<ExprId>)> = Vec::new();
    for &c in constraints {
        let arrays = pool.arrays_of(c);
        let mut merged: (Vec<ArrayId>, Vec<ExprId>) = (arrays.to_vec(), vec![c]);
        groups.retain_mut(|g| {
            if g.0.iter().any(|a| arrays.contains(a)) {
                merged.0.append(&mut g.0);
                merged.1.append(&mut g.1);
                false
            } else {
                true
            }
        });
        groups.push(merged);
    }
    groups
        .into_iter()
        .map(|(_, cs)| cs)
        .filter(|cs| !cs.is_empty())
        .collect()
}

/// Count the solutions of `constraints` and draw about `want` samples. Groups of
/// constraints sharing no input are counted apart (the count is the product; a sample
/// joins one sample of each group), each by rejection sampling where its solutions are
/// dense, else by hashing.
///
/// Arrays in `free` that no constraint mentions are inputs too: any value will do, so
/// they multiply the count by their whole space and are sampled uniformly.
pub fn count(
    pool: &mut ExprPool,
    solver: &mut SolverChain,
    constraints: &[ExprId],
    free: &[ArrayId],
    want: usize,
    rng: &mut Rng,
) -> Result<Counted, String> {
    let mut total = Counted {
        count: 1.0,
        exact: true,
        complete: true,
        samples: Vec::new(),
        bits: 0,
    };
    let mut parts = Vec::new();
    for group in components(pool, constraints) {
        let c = count_group(pool, solver, &group, want, rng)?;
        total.count *= c.count;
        total.exact &= c.exact;
        total.complete &= c.complete;
        total.bits += c.bits;
        parts.push(c.samples);
    }
    let mentioned = support(pool, constraints);
    let mut unconstrained: Vec<ArrayId> = free
        .iter()
        .copied()
        .filter(|a| !mentioned.iter().any(|(m, _)| m == a))
        .collect();
    unconstrained.sort_unstable();
    unconstrained.dedup();
    for a in unconstrained {
        let bytes: Vec<(ArrayId, u64)> = (0..pool.array_size(a)).map(|i| (a, i)).collect();
        let c = draw(pool, &[], &bytes, want.max(1), want.max(1), rng);
        total.count *= 2f64.powi(c.bits as i32);
        total.complete = false;
        total.bits += c.bits;
        parts.push(c.samples);
    }
    let n = parts.iter().map(Vec::len).max().unwrap_or(0);
    if parts.iter().all(|p| !p.is_empty()) {
        total.samples = (0..n)
            .map(|i| {
                let mut a = Assignment::default();
                for p in &parts {
                    a.extend(p[i % p.len()].clone());
                }
                a
            })
            .collect();
    }
    Ok(total)
}

/// [`count`] for constraints forming one group.
fn count_group(
    pool: &mut ExprPool,
    solver: &mut SolverChain,
    constraints: &[ExprId],
    want: usize,
    rng: &mut Rng,
) -> Result<Counted, String> {
    let all = support(pool, constraints);
    let bits = (all.len() * 8) as u32;
    let mut space = Space::new(pool, constraints, &all);
    if let Some(c) = in_space(pool, constraints, &space, want, rng) {
        return Ok(c);
    }
    // Too sparse: bytes the formula pins (found by the solver) may shrink the space.
    if space.pin(pool, solver, constraints) {
        if let Some(c) = in_space(pool, constraints, &space, want, rng) {
            return Ok(c);
        }
    }
    let bytes = space.open_bytes();
    // Hashing over the open bytes only (the pinned ones have one value in every
    // solution, so the cells hold the same solutions); each cell's solutions assign
    // the pinned bytes as the formula forces them.
    let open_bits = (bytes.len() * 8) as u32;
    let mut estimates = Vec::new();
    let mut samples = Vec::new();
    let mut hint = 0;
    for round in 0..MAX_ROUNDS {
        if round >= MIN_ROUNDS && samples.len() >= want {
            break;
        }
        let mut r = Round {
            constraints,
            bytes: &bytes,
            xors: Vec::new(),
            cells: FxHashMap::default(),
        };
        let m = r.fitting(pool, solver, rng, hint, (open_bits as usize).min(MAX_XORS))?;
        let cell = r.cell(pool, solver, rng, m)?.clone();
        if cell.len() > CELL {
            return Err(format!(
                "too many solutions to count by hashing (more than 2^{MAX_XORS} of 2^{bits})"
            ));
        }
        if m == 0 {
            return Ok(Counted {
                count: cell.len() as f64,
                exact: true,
                complete: true,
                samples: cell,
                bits,
            });
        }
        estimates.push(cell.len() as f64 * 2f64.powi(m as i32));
        samples.extend(cell);
        hint = m;
    }
    estimates.sort_by(f64::total_cmp);
    Ok(Counted {
        count: estimates[estimates.len() / 2],
        exact: false,
        complete: false,
        samples,
        bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x: an `n`-byte little-endian input with `lo <= x < hi` (unsigned).
    fn range(pool: &mut ExprPool, n: u64, lo: u128, hi: u128) -> Vec<ExprId> {
        let a = pool.new_array("x", n);
        let mut x = byte(pool, a, 0);
        for i in 1..n {
            let b = byte(pool, a, i);
            x = pool.concat(b, x);
        }
        let w = n as u32 * 8;
        let l = pool.constant(lo, w);
        let h = pool.constant(hi, w);
        vec![pool.cmp(CmpOp::Ule, l, x), pool.cmp(CmpOp::Ult, x, h)]
    }

    /// The value of the sample's `n`-byte input.
    fn value(s: &Assignment, n: u64) -> u128 {
        (0..n)
            .map(|i| u128::from(s.byte(ArrayId(0), i.into())) << (8 * i))
            .sum()
    }

    #[test]
    fn a_checker_answers_as_the_evaluator_compiled_or_not() {
        // 2 bytes compile into a program; 16 bytes (a 128-bit value) do not, and the
        // checker evaluates them.
        for n in [2u64, 16] {
            let mut pool = ExprPool::new();
            let c = range(&mut pool, n, 1 << (8 * n - 2), 1 << (8 * n - 1));
            let mut checker = Checker::new(&pool, &c);
            assert_eq!(checker.compiled.is_some(), n == 2);
            let mut rng = Rng::new(7);
            let (mut held, mut each) = (0, Vec::new());
            for _ in 0..200 {
                let mut a = Assignment::default();
                a.set(ArrayId(0), (0..n).map(|_| rng.below(256) as u8).collect());
                let expected: Vec<bool> = c.iter().map(|&k| pool.eval(k, &a) == 1).collect();
                checker.holds_each(&a, &mut each);
                assert_eq!(each, expected, "{n} bytes");
                assert_eq!(checker.holds(&a), expected.iter().all(|&h| h), "{n} bytes");
                held += usize::from(checker.holds(&a));
            }
            assert!(held > 20 && held < 180, "{n} bytes: {held} of 200 hold");
        }
    }

    #[test]
    fn small_sets_are_counted_exactly() {
        let mut pool = ExprPool::new();
        let c = range(&mut pool, 2, 100, 120);
        let mut solver = SolverChain::new(Default::default());
        let got = count(&mut pool, &mut solver, &c, &[], 10, &mut Rng::new(1)).unwrap();
        assert!(got.exact);
        assert_eq!(got.count, 20.0);
        assert_eq!(got.samples.len(), 20);
    }

    #[test]
    fn sparse_sets_are_estimated_by_hashing_within_a_factor_of_two() {
        // b0 == b1 + b2, b3 == b0 ^ b2, b1 < 8: 2048 solutions of 2^32, no byte pinned,
        // only b1 narrowed (to 8 values): too sparse for rejection in 8 * 2^24 points.
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 4);
        let b: Vec<ExprId> = (0..4).map(|i| byte(&mut pool, a, i)).collect();
        let sum = pool.bin(BinOp::Add, b[1], b[2]);
        let xor = pool.bin(BinOp::Xor, b[0], b[2]);
        let eight = pool.constant(8, 8);
        let c = vec![
            pool.cmp(CmpOp::Eq, b[0], sum),
            pool.cmp(CmpOp::Eq, b[3], xor),
            pool.cmp(CmpOp::Ult, b[1], eight),
        ];
        let mut solver = SolverChain::new(Default::default());
        let got = count(&mut pool, &mut solver, &c, &[], 60, &mut Rng::new(7)).unwrap();
        assert!(!got.exact);
        assert!(got.count > 1024.0 && got.count < 4096.0, "{}", got.count);
        assert!(got.samples.len() >= 60);
        for s in &got.samples {
            let x = |i: usize| s.byte(a, i as u128);
            assert!(
                x(0) == x(1).wrapping_add(x(2)) && x(3) == x(0) ^ x(2) && x(1) < 8,
                "sample outside the set"
            );
        }
    }

    #[test]
    fn bytes_the_formula_pins_are_not_drawn() {
        // One input: "-b", then 9 bytes none of which is '\n', then a 4-byte count equal
        // to 2: 255^9 solutions among 2^120 inputs. Uniform draws never hit, and hashing
        // would need more than 64 XORs; drawn from the bytes' possible values (the
        // option and the count pinned, the rest without '\n'), every draw hits.
        let mut pool = ExprPool::new();
        let a = pool.new_array("input", 15);
        let mut c = Vec::new();
        for (i, ch) in [b'-', b'b'].into_iter().enumerate() {
            let x = byte(&mut pool, a, i as u64);
            let k = pool.constant(u128::from(ch), 8);
            c.push(pool.cmp(CmpOp::Eq, x, k));
        }
        for i in 2..11 {
            let x = byte(&mut pool, a, i);
            let nl = pool.constant(10, 8);
            let is_nl = pool.cmp(CmpOp::Eq, x, nl);
            c.push(pool.not(is_nl));
        }
        let mut n = byte(&mut pool, a, 11);
        for i in 12..15 {
            let x = byte(&mut pool, a, i);
            n = pool.concat(x, n);
        }
        let two = pool.constant(2, 32);
        c.push(pool.cmp(CmpOp::Eq, n, two));
        let mut solver = SolverChain::new(Default::default());
        let got = count(&mut pool, &mut solver, &c, &[], 50, &mut Rng::new(3)).unwrap();
        let want = 255f64.powi(9);
        assert!(
            (got.count - want).abs() / want < 1e-9,
            "{} solutions, not {want}",
            got.count
        );
        assert!(got.samples.len() >= 50);
        for s in &got.samples {
            let mut ev = augur_expr::Evaluator::new(&pool, s);
            assert!(
                c.iter().all(|&k| ev.eval(k) == 1),
                "a sample off the formula"
            );
        }
    }

    #[test]
    fn dense_sets_are_estimated_by_rejection() {
        let mut pool = ExprPool::new();
        let c = range(&mut pool, 2, 1000, 9000);
        let mut solver = SolverChain::new(Default::default());
        let got = count(&mut pool, &mut solver, &c, &[], 50, &mut Rng::new(3)).unwrap();
        assert!(!got.exact);
        assert!(got.count > 7000.0 && got.count < 9000.0, "{}", got.count);
        assert!(got
            .samples
            .iter()
            .all(|s| (1000..9000).contains(&value(s, 2))));
        assert_eq!(solver.stats().queries, 0, "no solver query needed");
    }
}
