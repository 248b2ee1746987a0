//! Where a formula's solutions lie, byte by byte: for each input byte it reads, the
//! values it can take in some solution, or rather a superset of them (a *space*: the
//! Cartesian product of the bytes' value sets, which holds every solution).
//!
//! A path condition pins many bytes (an option letter, a terminating NUL, the bytes of
//! an argument count) and bounds others alone (`c != '\n'`); uniform draws over all 256
//! values of every byte then hardly ever satisfy it, although its solutions are many.
//! Drawing each byte from its set instead and keeping the draws that satisfy the formula
//! is still exactly uniform over the solutions (the space holds them all), and accepts
//! far more often; hashing needs no XOR over a pinned byte.
//!
//! The sets come from the bounds the constraints put on input words read as one integer
//! ([`crate::word_bounds`]: `0 <= a <= 1000` leaves byte 1 of `a` 0 to 3, its bytes 2
//! and 3 0), from the constraints that read a single byte whose value is not yet
//! known (each value tried by augur-expr's evaluator, the known bytes in place), and
//! from the solver, which shows a byte pinned when no solution gives it another value
//! than one model's; each pinned byte can make more constraints read a single unknown
//! byte, so the two alternate until nothing changes.

use augur_expr::{ArrayId, Assignment, CmpOp, Evaluator, ExprId, ExprKind, ExprPool};
use augur_solver::{SatResult, Solver, SolverChain};
use rustc_hash::FxHashMap;

/// Solver queries asked at most to find pinned bytes.
const MAX_PIN_QUERIES: usize = 256;
/// Solver timeouts tolerated while finding pinned bytes (then the rest are not asked).
const MAX_PIN_TIMEOUTS: usize = 2;

/// A superset of a formula's solutions: per input byte, the values it may take.
#[derive(Clone, Debug)]
pub struct Space {
    /// The bytes, grouped by array, in index order.
    pub bytes: Vec<(ArrayId, u64)>,
    /// Each byte's possible values (ascending, never empty).
    pub values: Vec<Vec<u8>>,
    /// Per constraint: the positions of the bytes it reads (None: any byte).
    reads: Vec<(ExprId, Option<Vec<usize>>)>,
}

/// The bytes `c` reads: Some(bytes) when it reads input arrays only at constant indices,
/// else None (it may read any byte of its arrays).
pub(crate) fn bytes_read(pool: &ExprPool, c: ExprId) -> Option<Vec<(ArrayId, u64)>> {
    let mut out = Vec::new();
    let mut exact = true;
    pool.post_order(&[c], |e| {
        let ExprKind::Select { array, index } = *pool.kind(e) else {
            return false;
        };
        match (pool.kind(array), pool.as_const(index)) {
            (ExprKind::ArraySym(a), Some(i)) => out.push((*a, i as u64)),
            _ if !pool.arrays_of(e).is_empty() => exact = false,
            _ => {}
        }
        true
    });
    out.sort_unstable();
    out.dedup();
    exact.then_some(out)
}

impl Space {
    /// Every value for each of `bytes`.
    pub fn full(bytes: &[(ArrayId, u64)]) -> Space {
        Space {
            bytes: bytes.to_vec(),
            values: vec![(0..=255).collect(); bytes.len()],
            reads: Vec::new(),
        }
    }

    /// The space of `constraints` over `bytes` (which must hold every byte they read),
    /// narrowed by the constraints that read a single byte; [`Space::pin`] asks the
    /// solver for more.
    pub fn new(pool: &ExprPool, constraints: &[ExprId], bytes: &[(ArrayId, u64)]) -> Space {
        let mut s = Space::full(bytes);
        let at: FxHashMap<(ArrayId, u64), usize> =
            bytes.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        s.reads = constraints
            .iter()
            .map(|&c| {
                let r = bytes_read(pool, c)
                    .and_then(|r| r.iter().map(|b| at.get(b).copied()).collect());
                (c, r)
            })
            .collect();
        s.bound_words(pool, constraints);
        s.narrow(pool);
        s
    }

    /// Keep each byte's values within the range its words' bounds allow
    /// ([`crate::word_bounds`]).
    fn bound_words(&mut self, pool: &ExprPool, constraints: &[ExprId]) {
        let bounds = crate::word_bounds::byte_bounds(pool, constraints);
        for (b, values) in self.bytes.iter().zip(&mut self.values) {
            let Some(&(lo, hi)) = bounds.get(b) else {
                continue;
            };
            let kept: Vec<u8> = values
                .iter()
                .copied()
                .filter(|v| (lo..=hi).contains(v))
                .collect();
            // (none at all cannot happen for a satisfiable formula: keep the set)
            if !kept.is_empty() {
                *values = kept;
            }
        }
    }

    /// Is byte `i` pinned to one value?
    fn pinned(&self, i: usize) -> bool {
        self.values[i].len() == 1
    }

    /// An assignment of every array of the space: pinned bytes at their value, the
    /// others 0.
    fn base(&self, pool: &ExprPool) -> Assignment {
        let mut a = Assignment::default();
        for (i, &(arr, idx)) in self.bytes.iter().enumerate() {
            let bytes = a
                .arrays
                .entry(arr)
                .or_insert_with(|| vec![0; pool.array_size(arr) as usize]);
            if self.pinned(i) {
                bytes[idx as usize] = self.values[i][0];
            }
        }
        a
    }

    /// Filter the values of each byte that is the only unpinned one a constraint reads,
    /// until no set shrinks.
    fn narrow(&mut self, pool: &ExprPool) {
        let reads = std::mem::take(&mut self.reads);
        self.narrow_by(pool, &reads);
        self.reads = reads;
    }

    /// [`Space::narrow`] by `reads`.
    fn narrow_by(&mut self, pool: &ExprPool, reads: &[(ExprId, Option<Vec<usize>>)]) {
        loop {
            let mut changed = false;
            let mut base = self.base(pool);
            for (c, r) in reads {
                let Some(r) = r else { continue };
                let mut open = r.iter().copied().filter(|&i| !self.pinned(i));
                let (Some(i), None) = (open.next(), open.next()) else {
                    continue;
                };
                let (arr, idx) = self.bytes[i];
                let keep: Vec<u8> = self.values[i]
                    .iter()
                    .copied()
                    .filter(|&v| {
                        base.arrays.get_mut(&arr).expect("in the base")[idx as usize] = v;
                        Evaluator::new(pool, &base).eval(*c) == 1
                    })
                    .collect();
                base.arrays.get_mut(&arr).expect("in the base")[idx as usize] = 0;
                // No value at all cannot happen for a satisfiable formula; keep the set.
                if !keep.is_empty() && keep.len() < self.values[i].len() {
                    if keep.len() == 1 {
                        base.arrays.get_mut(&arr).expect("in the base")[idx as usize] = keep[0];
                    }
                    self.values[i] = keep;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Pin the bytes to which no solution of `constraints` gives another value than a
    /// model's (asked of the solver, within [`MAX_PIN_QUERIES`] and
    /// [`MAX_PIN_TIMEOUTS`]), then narrow the others again. Whether any byte was pinned.
    pub fn pin(
        &mut self,
        pool: &mut ExprPool,
        solver: &mut SolverChain,
        constraints: &[ExprId],
    ) -> bool {
        let any = self.pin_bytes(pool, solver, constraints);
        if any {
            self.narrow(pool);
        }
        any
    }

    /// [`Space::pin`] without narrowing.
    fn pin_bytes(
        &mut self,
        pool: &mut ExprPool,
        solver: &mut SolverChain,
        constraints: &[ExprId],
    ) -> bool {
        let open: Vec<usize> = (0..self.bytes.len()).filter(|&i| !self.pinned(i)).collect();
        if open.is_empty() {
            return false;
        }
        let Ok(SatResult::Sat(model)) = solver.check(pool, constraints) else {
            return false;
        };
        let (mut timeouts, mut any) = (0, false);
        for &i in open.iter().take(MAX_PIN_QUERIES) {
            let (arr, idx) = self.bytes[i];
            let v = model.byte(arr, u128::from(idx));
            let sym = pool.array_sym(arr);
            let index = pool.constant(u128::from(idx), 64);
            let byte = pool.select(sym, index);
            let value = pool.constant(u128::from(v), 8);
            let same = pool.cmp(CmpOp::Eq, byte, value);
            let other = pool.not(same);
            match solver.may_be_true(pool, constraints, other) {
                Ok(true) => {}
                Ok(false) => {
                    self.values[i] = vec![v];
                    any = true;
                }
                Err(_) => {
                    timeouts += 1;
                    if timeouts >= MAX_PIN_TIMEOUTS {
                        break;
                    }
                }
            }
        }
        any
    }

    /// The bytes with more than one possible value.
    pub fn open_bytes(&self) -> Vec<(ArrayId, u64)> {
        (0..self.bytes.len())
            .filter(|&i| !self.pinned(i))
            .map(|i| self.bytes[i])
            .collect()
    }

    /// How many points the space holds.
    pub fn size(&self) -> f64 {
        self.values.iter().map(|v| v.len() as f64).product()
    }

    /// Every point of the space, when it holds at most `limit`.
    pub fn points(&self, pool: &ExprPool, limit: usize) -> Option<Vec<Assignment>> {
        if self.size() > limit as f64 {
            return None;
        }
        let open: Vec<usize> = (0..self.bytes.len()).filter(|&i| !self.pinned(i)).collect();
        let mut digits = vec![0usize; open.len()];
        let mut out = Vec::new();
        let mut a = self.base(pool);
        loop {
            for (&i, &d) in open.iter().zip(&digits) {
                let (arr, idx) = self.bytes[i];
                a.arrays.get_mut(&arr).expect("in the base")[idx as usize] = self.values[i][d];
            }
            out.push(a.clone());
            // The next point: count up in mixed radix.
            let mut k = 0;
            while k < open.len() {
                digits[k] += 1;
                if digits[k] < self.values[open[k]].len() {
                    break;
                }
                digits[k] = 0;
                k += 1;
            }
            if k == open.len() {
                return Some(out);
            }
        }
    }

    /// A point drawn uniformly at random (every array of the space assigned whole).
    pub fn draw(&self, pool: &ExprPool, rng: &mut augur_engine::Rng) -> Assignment {
        let mut a = self.base(pool);
        for (i, &(arr, idx)) in self.bytes.iter().enumerate() {
            let vals = &self.values[i];
            if vals.len() > 1 {
                let v = vals[rng.below(vals.len() as u64) as usize];
                a.arrays.get_mut(&arr).expect("in the base")[idx as usize] = v;
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::byte;
    use augur_expr::BinOp;

    fn all_bytes(pool: &ExprPool, arrays: &[ArrayId]) -> Vec<(ArrayId, u64)> {
        arrays
            .iter()
            .flat_map(|&a| (0..pool.array_size(a)).map(move |i| (a, i)))
            .collect()
    }

    #[test]
    fn single_byte_constraints_narrow_their_byte() {
        let mut pool = ExprPool::new();
        let a = pool.new_array("arg", 3);
        let b0 = byte(&mut pool, a, 0);
        let b1 = byte(&mut pool, a, 1);
        let dash = pool.constant(u128::from(b'-'), 8);
        let nl = pool.constant(10, 8);
        let is_nl = pool.cmp(CmpOp::Eq, b1, nl);
        let c = vec![pool.cmp(CmpOp::Eq, b0, dash), pool.not(is_nl)];
        let bytes = all_bytes(&pool, &[a]);
        let s = Space::new(&pool, &c, &bytes);
        assert_eq!(s.values[0], vec![b'-']);
        assert_eq!(s.values[1].len(), 255);
        assert!(!s.values[1].contains(&10));
        assert_eq!(s.values[2].len(), 256, "byte 2 is read by no constraint");
        assert_eq!(s.open_bytes(), vec![(a, 1), (a, 2)]);
    }

    #[test]
    fn a_small_space_lists_every_point() {
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 2);
        let b0 = byte(&mut pool, a, 0);
        let three = pool.constant(3, 8);
        let c = vec![pool.cmp(CmpOp::Ult, b0, three)];
        let bytes = all_bytes(&pool, &[a]);
        let s = Space::new(&pool, &c, &bytes);
        assert!(s.points(&pool, 100).is_none(), "3 * 256 points");
        let pts = s.points(&pool, 1000).unwrap();
        assert_eq!(pts.len(), 768);
        let mut seen: Vec<&[u8]> = pts.iter().map(|p| p.get(a).unwrap()).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 768, "each point once");
    }

    #[test]
    fn the_solver_pins_the_bytes_of_a_wide_value_and_the_rest_follow() {
        let mut pool = ExprPool::new();
        // n: a 4-byte little-endian count, 3 * n == 6 (no single byte is read alone, and
        // no word is compared with a constant), and x: a byte with x < n + 5 (a
        // constraint over five bytes).
        let a = pool.new_array("n", 4);
        let x = pool.new_array("x", 1);
        let mut n = byte(&mut pool, a, 0);
        for i in 1..4 {
            let b = byte(&mut pool, a, i);
            n = pool.concat(b, n);
        }
        let xb = byte(&mut pool, x, 0);
        let xw = pool.zext(xb, 32);
        let five = pool.constant(5, 32);
        let bound = pool.bin(BinOp::Add, n, five);
        let three = pool.constant(3, 32);
        let six = pool.constant(6, 32);
        let tripled = pool.bin(BinOp::Mul, three, n);
        let c = vec![
            pool.cmp(CmpOp::Eq, tripled, six),
            pool.cmp(CmpOp::Ult, xw, bound),
        ];
        let bytes = all_bytes(&pool, &[a, x]);
        let mut s = Space::new(&pool, &c, &bytes);
        assert_eq!(s.size(), 2f64.powi(40), "nothing is read alone");
        let mut solver = SolverChain::new(Default::default());
        assert!(s.pin(&mut pool, &mut solver, &c));
        assert_eq!(&s.values[..4], &[vec![2], vec![0], vec![0], vec![0]]);
        assert_eq!(
            s.values[4],
            (0..7).collect::<Vec<u8>>(),
            "x < 7 once n is known"
        );
        let mut rng = augur_engine::Rng::new(5);
        for _ in 0..20 {
            let p = s.draw(&pool, &mut rng);
            let mut ev = Evaluator::new(&pool, &p);
            assert!(
                c.iter().all(|&k| ev.eval(k) == 1),
                "every point is a solution here"
            );
        }
    }
}
