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

use augur_engine::Rng;
use augur_expr::{ArrayId, Assignment, BinOp, CmpOp, ExprId, ExprPool};
use augur_solver::{SatResult, Solver, SolverChain};
use rustc_hash::FxHashMap;

/// Largest cell enumerated.
pub const CELL: usize = 32;
/// Hash rounds at most (estimates whose median is taken).
const MAX_ROUNDS: usize = 9;
/// Hash rounds at least, when the count is not exact.
const MIN_ROUNDS: usize = 3;

/// A count and samples.
#[derive(Clone, Debug)]
pub struct Counted {
    /// Estimated number of solutions (over the support bytes).
    pub count: f64,
    /// Is `count` exact (all solutions enumerated)?
    pub exact: bool,
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
fn byte(pool: &mut ExprPool, a: ArrayId, i: u64) -> ExprId {
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
        let fits = |r: &mut Self, pool: &mut ExprPool, solver: &mut SolverChain, rng: &mut Rng, m| {
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

/// Count the solutions of `constraints` and draw about `want` samples.
pub fn count(
    pool: &mut ExprPool,
    solver: &mut SolverChain,
    constraints: &[ExprId],
    want: usize,
    rng: &mut Rng,
) -> Result<Counted, String> {
    let bytes = support(pool, constraints);
    let bits = (bytes.len() * 8) as u32;
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
        let m = r.fitting(pool, solver, rng, hint, bits as usize)?;
        let cell = r.cell(pool, solver, rng, m)?.clone();
        if m == 0 {
            return Ok(Counted {
                count: cell.len() as f64,
                exact: true,
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
        samples,
        bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// x: one input byte with `lo <= x < hi` (unsigned).
    fn range(pool: &mut ExprPool, lo: u128, hi: u128) -> Vec<ExprId> {
        let a = pool.new_array("x", 2);
        let x0 = byte(pool, a, 0);
        let x1 = byte(pool, a, 1);
        let x = pool.concat(x1, x0);
        let l = pool.constant(lo, 16);
        let h = pool.constant(hi, 16);
        vec![pool.cmp(CmpOp::Ule, l, x), pool.cmp(CmpOp::Ult, x, h)]
    }

    #[test]
    fn small_sets_are_counted_exactly() {
        let mut pool = ExprPool::new();
        let c = range(&mut pool, 100, 120);
        let mut solver = SolverChain::new(None);
        let got = count(&mut pool, &mut solver, &c, 10, &mut Rng::new(1)).unwrap();
        assert!(got.exact);
        assert_eq!(got.count, 20.0);
        assert_eq!(got.samples.len(), 20);
    }

    #[test]
    fn large_sets_are_estimated_within_a_factor_of_two() {
        let mut pool = ExprPool::new();
        let c = range(&mut pool, 1000, 3000);
        let mut solver = SolverChain::new(None);
        let got = count(&mut pool, &mut solver, &c, 60, &mut Rng::new(7)).unwrap();
        assert!(!got.exact);
        assert!(got.count > 1000.0 && got.count < 4000.0, "{}", got.count);
        for s in &got.samples {
            let v = u128::from(s.byte(pool_array(&pool), 0)) | u128::from(s.byte(pool_array(&pool), 1)) << 8;
            assert!((1000..3000).contains(&v), "sample {v} outside the set");
        }
    }

    fn pool_array(pool: &ExprPool) -> ArrayId {
        assert_eq!(pool.num_arrays(), 1);
        ArrayId(0)
    }
}
