//! Layer 5: Z3. What to ask of Z3 and for how long: each query measured first (a query
//! Z3 is known to work on past any limit is a timeout at once, one too large or too
//! shared for scopes is asserted whole), its time cut at the run's deadline, then
//! checked by [`crate::z3_core`]'s incremental solver; every model is checked by the
//! evaluator.
//!
//! Where a query is checked: a small one ([`ON_THE_SOLVER_THREAD`]) on the engine's
//! thread, stopped by Z3's timeout and else by the watchdog's interrupts; any other on
//! the solver's own thread ([`Worker`]), abandoned if it keeps on past its limit deaf to
//! both. Every query Z3 was seen working on past both was large, deep, shared or
//! floating-point (gzip's window, bzip2's table, b2sum's rounds, `(double)x / 70.0`);
//! a hand-off to another thread costs a query about half a millisecond more (sort.c's
//! 5,132 small queries: 25% more solver time), so small ones stay where they are.

use crate::stats::SharedStats;
use crate::z3_core::{Outcome, Plan, Verdict, Z3Core, GRACE};
use crate::z3_worker::Worker;
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, Evaluator, ExprId, ExprKind, ExprPool};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long Z3 works on a query alone by default; a query it has not answered by then gets
/// a model search beside it (most queries take a few milliseconds).
pub(crate) const FIRST_TRY: Duration = Duration::from_millis(50);

/// How long past its limit, and past the watchdog's interrupts, a query is waited for
/// before its thread is abandoned (see [`crate::z3_worker`]): an interrupted check
/// returns within milliseconds when it hears the interrupt at all.
const ABANDONED_AFTER: Duration = Duration::from_millis(400);

/// The size (see [`Size`]) from which a query is checked without scopes (see
/// `assert_query`).
const LARGE_QUERY: usize = 20_000;

/// The largest constant array a query may read at a symbolic index: Z3 4.8.12 works on
/// a larger one's pinned bytes past its timeout and interrupts, whole or in scopes
/// (bzip2's 40,264-byte table: 150 s past a 10 s --max-time in one check), and solved
/// no read of one within a minute. A query reading a larger one is a timeout at once.
const LARGEST_TABLE: usize = 32 * 1024;

/// A query's size as Z3 receives it, measured in one walk of its distinct nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Size {
    /// A term per node, and for a constant array one more per byte, each pinned by an
    /// equality of its own (see the translator). bzip2's block sort reads a 40,264-byte
    /// table at symbolic indices: a query of a few hundred nodes that Z3 worked on for
    /// minutes in `push`.
    terms: usize,
    /// The bytes of its largest constant array (0: none).
    largest_table: usize,
}

/// The [`Size`] of a query whose distinct nodes are `order`.
fn z3_size(pool: &ExprPool, order: &[ExprId]) -> Size {
    let mut size = Size {
        terms: order.len(),
        largest_table: 0,
    };
    for &n in order {
        if let ExprKind::ArrayConst(bytes) = pool.kind(n) {
            size.terms += bytes.len();
            size.largest_table = size.largest_table.max(bytes.len());
        }
    }
    size
}

/// The deepest query sent to Z3 (terms nested this deep, as a store chain over a buffer
/// of tens of kilobytes makes them): Z3 recurses through them in work that no timeout or
/// interrupt stops (gzip's window: a check past a 30 s --max-time by minutes, after
/// overflowing an 8 MiB stack). A deeper query is a timeout at once.
const DEEPEST_QUERY: usize = 10_000;

/// The size from which a query's [`Shape`] is measured: a smaller one is neither deep
/// nor shared enough to matter.
const SHAPED_FROM: usize = 256;

/// The size from which a query is checked on the solver's own thread, which can be
/// abandoned (see the module's doc); floating point goes there whatever its size.
const ON_THE_SOLVER_THREAD: usize = SHAPED_FROM;

/// The largest expanded size (see [`Shape`]) of a query checked in scopes. Written out
/// without sharing, the rounds of a hash over symbolic bytes (md5sum, b2sum) reach
/// 10^36 nodes from a few hundred; Z3's incremental kernel then works and allocates far
/// past any timeout: b2sum's 1,828-node query ran 37 s past a 10 s limit to 5.4 GB,
/// then took 10 s more to free, where the same query without scopes stopped at its
/// limit within 0.4 s in 295 MB, and md5sum's unsat query took 13 s and 2.3 GB in scopes
/// against 0.2 s and 39 MB without. Ordinary path conditions stay near their size
/// (wc's: about a thousand).
const MOST_EXPANDED: u64 = 1_000_000;

/// How a query's terms nest: its deepest term, and its size were every shared subterm
/// written out wherever it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    depth: usize,
    /// Saturates at `u64::MAX`.
    expanded: u64,
}

/// Whether a query of `size` nodes (of `shape`, when measured) is asserted whole on a
/// one-shot solver rather than in scopes: Z3's incremental kernel would work on it past
/// any limit, for its size ([`LARGE_QUERY`]) or its sharing ([`MOST_EXPANDED`]).
fn asserted_whole(size: usize, shape: Option<Shape>) -> bool {
    size > LARGE_QUERY || shape.is_some_and(|s| s.expanded > MOST_EXPANDED)
}

/// The shape of a query whose distinct nodes are `order` (children first, as
/// `post_order` gives them).
fn shape(pool: &ExprPool, order: &[ExprId]) -> Shape {
    let mut seen: rustc_hash::FxHashMap<ExprId, Shape> = Default::default();
    let mut query = Shape {
        depth: 0,
        expanded: 0,
    };
    for &n in order {
        let mut here = Shape {
            depth: 1,
            expanded: 1,
        };
        for c in pool.kind(n).children() {
            let child = seen.get(&c).copied().unwrap_or(Shape {
                depth: 0,
                expanded: 1,
            });
            here.depth = here.depth.max(child.depth + 1);
            here.expanded = here.expanded.saturating_add(child.expanded);
        }
        query.depth = query.depth.max(here.depth);
        query.expanded = query.expanded.max(here.expanded);
        seen.insert(n, here);
    }
    query
}

/// The instant after which no Z3 check may run (the run's `--max-time`), shared by the
/// chain that sets it and the backend that keeps to it.
pub(crate) type SharedDeadline = Rc<Cell<Option<Instant>>>;

/// A fresh Z3 solver whose checks stop after `timeout` (None: no limit).
pub(crate) fn limited_solver(timeout: Option<Duration>) -> z3::Solver {
    let solver = z3::Solver::new();
    if let Some(limit) = timeout {
        let mut params = z3::Params::new();
        params.set_u32(
            "timeout",
            u32::try_from(limit.as_millis()).unwrap_or(u32::MAX),
        );
        solver.set_params(&params);
    }
    solver
}

/// The solver at the end of the chain.
pub(crate) struct Z3Backend {
    /// Checks small queries on the engine's thread.
    here: Z3Core,
    /// Checks the others on a thread of their own.
    worker: Worker,
    timeout: Option<Duration>,
    deadline: SharedDeadline,
    /// How long Z3 works alone on a query before a model search joins it.
    search_after: Duration,
    /// Whether the next query starts on a fresh solver (the last model was wrong).
    fresh: bool,
    stats: SharedStats,
}

impl Z3Backend {
    /// A backend giving each query at most `timeout` (None: no limit).
    pub(crate) fn new(timeout: Option<Duration>, stats: SharedStats) -> Self {
        Self::on(Worker::new(), timeout, stats)
    }

    /// A backend asking `worker`, giving each query at most `timeout`.
    fn on(worker: Worker, timeout: Option<Duration>, stats: SharedStats) -> Self {
        Z3Backend {
            here: Z3Core::new(),
            worker,
            timeout,
            deadline: SharedDeadline::default(),
            search_after: FIRST_TRY,
            fresh: false,
            stats,
        }
    }

    /// This backend with a model search joining Z3 after `after` (at least a millisecond).
    pub(crate) fn searching_after(mut self, after: Duration) -> Self {
        self.search_after = after.max(Duration::from_millis(1));
        self
    }

    /// This backend running no check past the instant `deadline` holds.
    pub(crate) fn keeping_to(mut self, deadline: SharedDeadline) -> Self {
        self.deadline = deadline;
        self
    }

    /// The time a query starting at `start` may take: the timeout, cut at the deadline;
    /// None when the deadline has passed.
    fn limit(&self, start: Instant) -> Option<Duration> {
        let left = self
            .deadline
            .get()
            .map(|d| d.saturating_duration_since(start));
        match (self.timeout, left) {
            (_, Some(Duration::ZERO)) => None,
            (Some(t), Some(l)) => Some(t.min(l)),
            (t, l) => Some(t.or(l).unwrap_or(Duration::MAX)),
        }
    }

    /// The error for an `unknown` answer after `elapsed` of the time `limit`.
    fn unknown(&self, reason: String, elapsed: Duration, limit: Duration) -> SolverError {
        let timed_out = elapsed >= limit
            || reason.contains("timeout")
            || reason.contains("canceled")
            || reason.contains("interrupted");
        if timed_out {
            self.stats.borrow_mut().timeouts += 1;
            SolverError::Timeout
        } else {
            SolverError::Unknown(reason)
        }
    }
}

/// Whether `model` satisfies every constraint (by the evaluator, not by Z3).
fn satisfies(pool: &ExprPool, constraints: &[ExprId], model: &Assignment) -> bool {
    let mut ev = Evaluator::new(pool, model);
    constraints.iter().all(|&c| ev.eval(c) == 1)
}

impl Solver for Z3Backend {
    /// Z3's answer, with every model checked by the evaluator: a model that violates the
    /// query (Z3 misbehaving) is counted in `wrong_models` and the query asked again of a
    /// fresh solver; a second wrong model is an error, never an answer.
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        self.stats.borrow_mut().solver_calls += 1;
        for _ in 0..2 {
            match self.answer(pool, constraints)? {
                SatResult::Sat(model) if !satisfies(pool, constraints, &model) => {
                    self.stats.borrow_mut().wrong_models += 1;
                    tracing::warn!("Z3 gave a model violating its query; asking a fresh solver");
                    self.fresh = true;
                }
                answer => return Ok(answer),
            }
        }
        Err(SolverError::Unknown("Z3's models violate the query".into()))
    }
}

impl Z3Backend {
    /// Check `constraints`: Z3 alone for its first try, then, on a fresh solver, Z3 for
    /// the rest of the time limit beside a model search; given up at the limit whatever
    /// Z3 does.
    fn answer(
        &mut self,
        pool: &ExprPool,
        constraints: &[ExprId],
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let Some(limit) = self.limit(start) else {
            self.stats.borrow_mut().timeouts += 1;
            return Err(SolverError::Timeout);
        };
        // A query's depth and expanded size grow from its size: most queries, small, are
        // measured by their size alone, on this hot path.
        let order = pool.post_order(constraints, |_| false);
        let Size {
            terms: size,
            largest_table,
        } = z3_size(pool, &order);
        let shape = (size >= SHAPED_FROM).then(|| shape(pool, &order));
        if shape.is_some_and(|s| s.depth > DEEPEST_QUERY) || largest_table > LARGEST_TABLE {
            let mut stats = self.stats.borrow_mut();
            stats.timeouts += 1;
            stats.time_s += start.elapsed().as_secs_f64();
            return Err(SolverError::Timeout);
        }
        let plan = Plan {
            limit,
            // A query asserted whole for its sharing is small: asserted again for each try.
            whole: asserted_whole(size, shape),
            // A large query is checked once, for its whole limit: each try on a fresh
            // solver would translate and assert it again, work no limit stops.
            once: size > LARGE_QUERY,
            search_after: self.search_after,
            fresh: std::mem::take(&mut self.fresh),
            turn_by: self.deadline.get(),
        };
        let small = size < ON_THE_SOLVER_THREAD && !constraints.iter().any(|&c| pool.has_float(c));
        let outcome = if small {
            Some(self.here.answer(pool, constraints, plan))
        } else {
            let give_up = start.checked_add(limit.saturating_add(GRACE + ABANDONED_AFTER));
            self.worker.answer(pool, &order, constraints, plan, give_up)
        };
        let elapsed = start.elapsed();
        let mut stats = self.stats.borrow_mut();
        stats.time_s += elapsed.as_secs_f64();
        let Some(Outcome { verdict, sampled }) = outcome else {
            stats.abandoned += 1;
            stats.timeouts += 1;
            return Err(SolverError::Timeout);
        };
        stats.sampled += u64::from(sampled);
        drop(stats);
        match verdict {
            Verdict::Sat(model) => Ok(SatResult::Sat(model)),
            Verdict::Unsat => Ok(SatResult::Unsat),
            Verdict::SatWithoutModel => Err(SolverError::Unknown("sat without a model".into())),
            Verdict::Unknown(reason) => Err(self.unknown(reason, elapsed, limit)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::var;
    use augur_expr::BinOp;

    /// `x * y == semiprime` over two 32-bit inputs with factors above 1: hopeless for Z3
    /// in a test's time, and for the model search.
    fn factoring(p: &mut ExprPool) -> Vec<ExprId> {
        let (_, x) = var(p, "bx", 4);
        let (_, y) = var(p, "by", 4);
        let (wx, wy) = (p.zext(x, 64), p.zext(y, 64));
        let product = p.bin(BinOp::Mul, wx, wy);
        let n = p.constant(2_147_483_647u128 * 2_147_483_629, 64);
        let one = p.constant(1, 64);
        vec![p.eq(product, n), p.ult(one, wx), p.ult(one, wy)]
    }

    /// With no timeout and no deadline, a query past Z3's first try goes on to its answer.
    #[test]
    fn no_limit_at_all_is_no_limit() {
        let mut p = ExprPool::new();
        let (_, w) = var(&mut p, "nx", 16);
        let square = p.bin(BinOp::Mul, w, w);
        let k: u128 = 0x0123_4567_89ab_cdef_0fed_cba9_8765_4321;
        let target = p.constant(k.wrapping_mul(k), 128);
        let query = [p.eq(square, target)];
        let mut z3 =
            Z3Backend::new(None, SharedStats::default()).searching_after(Duration::from_millis(1));
        let Ok(SatResult::Sat(model)) = z3.check(&p, &query) else {
            panic!("no model");
        };
        assert_eq!(p.eval(square, &model), k.wrapping_mul(k));
    }

    /// A deadline cuts the solver's timeout: the check stops there, counted as a timeout,
    /// and a passed deadline answers at once.
    #[test]
    fn no_check_runs_past_the_deadline() {
        let mut p = ExprPool::new();
        let query = factoring(&mut p);
        let stats = SharedStats::default();
        let deadline = SharedDeadline::default();
        let mut z3 = Z3Backend::new(Some(Duration::from_secs(600)), stats.clone())
            .keeping_to(deadline.clone());
        let start = Instant::now();
        deadline.set(Some(start + Duration::from_millis(700)));
        assert_eq!(z3.check(&p, &query), Err(SolverError::Timeout));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        let again = Instant::now();
        assert_eq!(z3.check(&p, &query), Err(SolverError::Timeout));
        assert!(again.elapsed() < Duration::from_millis(100));
        assert_eq!(stats.borrow().timeouts, 2);
        // With the deadline lifted, the same backend answers an easy query rightly.
        deadline.set(None);
        assert!(matches!(z3.check(&p, &query[1..]), Ok(SatResult::Sat(_))));
    }

    /// The run's deadline bounds the wait for the turn to check too: with the turn held
    /// by another thread (another test's long check, on a loaded machine, made the test
    /// above take 8.3 s), an easy query is a timeout at the deadline, not after the wait.
    #[test]
    fn the_deadline_bounds_the_wait_for_the_turn_to_check() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "tx", 1);
        let seven = p.constant(7, 8);
        let query = [p.eq(x, seven)];
        let (held, release) = std::sync::mpsc::channel();
        let (go, hold) = std::sync::mpsc::channel::<()>();
        let holder = std::thread::spawn(move || {
            let _turn = crate::z3_solver::one_check_at_a_time();
            held.send(()).expect("the test waits");
            let _ = hold.recv_timeout(Duration::from_secs(10));
        });
        release.recv().expect("the turn is held");
        let deadline = SharedDeadline::default();
        let mut z3 = Z3Backend::new(Some(Duration::from_secs(600)), SharedStats::default())
            .keeping_to(deadline.clone());
        let start = Instant::now();
        deadline.set(Some(start + Duration::from_millis(300)));
        assert_eq!(z3.check(&p, &query), Err(SolverError::Timeout));
        let waited = start.elapsed();
        go.send(()).expect("the holder waits");
        holder.join().expect("the holder ends");
        assert!(waited < Duration::from_secs(3), "{waited:?}");
        deadline.set(None);
        assert!(matches!(z3.check(&p, &query), Ok(SatResult::Sat(_))));
    }

    /// A check deaf to Z3's timeout and to interrupts (a stand-in sleeping past them)
    /// is a timeout soon after its limit, counted as abandoned, and the next query goes
    /// to a fresh solver thread, which answers it.
    #[test]
    fn a_check_deaf_to_its_limit_is_abandoned_at_it() {
        let mut p = ExprPool::new();
        let mut query = factoring(&mut p);
        let wx = p.kind(query[1]).children().nth(1).expect("1 < x");
        for k in 2..100 {
            let k = p.constant(k, 64);
            let is_k = p.eq(wx, k);
            query.push(p.not(is_k));
        }
        let terms = |q: &[ExprId]| z3_size(&p, &p.post_order(q, |_| false)).terms;
        assert!(
            terms(&query[1..]) >= ON_THE_SOLVER_THREAD,
            "{}",
            terms(&query[1..])
        );
        fn deaf(core: &mut Z3Core, p: &ExprPool, q: &[ExprId], plan: Plan) -> Outcome {
            if q.len() == 101 {
                // The whole query, not the one without its product.
                std::thread::sleep(Duration::from_secs(60));
            }
            core.answer(p, q, plan)
        }
        let stats = SharedStats::default();
        let limit = Duration::from_millis(300);
        let mut z3 = Z3Backend::on(Worker::answering_with(deaf), Some(limit), stats.clone());
        let start = Instant::now();
        assert_eq!(z3.check(&p, &query), Err(SolverError::Timeout));
        let waited = start.elapsed();
        assert!(waited >= limit + GRACE + ABANDONED_AFTER, "{waited:?}");
        assert!(waited < Duration::from_secs(5), "{waited:?}");
        assert_eq!((stats.borrow().abandoned, stats.borrow().timeouts), (1, 1));
        let Ok(SatResult::Sat(model)) = z3.check(&p, &query[1..]) else {
            panic!("no answer from the fresh thread");
        };
        assert!(satisfies(&p, &query[1..], &model));
        assert!(p.eval(wx, &model) >= 100);
    }

    /// A query nested deeper than Z3 can be trusted to stop on is a timeout at once, and
    /// a query's depth and size are counted.
    #[test]
    fn a_query_deeper_than_z3_stops_on_is_a_timeout() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "deep", 1);
        let three = p.constant(3, 8);
        let mut sum = x;
        for _ in 0..DEEPEST_QUERY {
            sum = p.bin(BinOp::Mul, sum, three);
            sum = p.bin(BinOp::Add, sum, x);
        }
        let zero = p.constant(0, 8);
        let query = [p.eq(sum, zero)];
        let deep = shape(&p, &p.post_order(&query, |_| false)).depth;
        assert!(deep > DEEPEST_QUERY, "{deep}");
        let stats = SharedStats::default();
        let mut z3 = Z3Backend::new(Some(Duration::from_secs(600)), stats.clone());
        assert_eq!(z3.check(&p, &query), Err(SolverError::Timeout));
        assert_eq!(stats.borrow().timeouts, 1);
        let shallow = [p.eq(x, zero)];
        let order = p.post_order(&shallow, |_| false);
        assert_eq!(
            (shape(&p, &order), order.len()),
            (
                Shape {
                    depth: 3,
                    expanded: 5
                },
                5
            ),
            "x == 0: the comparison, the read, its array and index, 0"
        );
    }

    /// A query whose terms share subterms as a hash's rounds do (each round uses the
    /// last twice) is measured by its size written out, and is too shared for scopes
    /// once that passes [`MOST_EXPANDED`]; a query of the same size sharing nothing is
    /// not.
    #[test]
    fn a_query_sharing_a_hash_s_rounds_is_too_shared_for_scopes() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "round", 8);
        let (_, y) = var(&mut p, "other", 8);
        let mut h = x;
        let mut chain = y;
        for i in 1..=200 {
            let k = p.constant(i % 63 + 1, 64);
            let rotated = p.bin(BinOp::Shl, h, k);
            h = p.bin(BinOp::Xor, h, rotated);
            chain = p.bin(BinOp::Add, chain, k);
        }
        let zero = p.constant(0, 64);
        let hashed = [p.eq(h, zero)];
        let order = p.post_order(&hashed, |_| false);
        let hashed = shape(&p, &order);
        assert_eq!(hashed.expanded, u64::MAX, "2^200 saturates");
        assert!(order.len() < 1_000 && hashed.depth < 1_000, "{hashed:?}");
        assert!(asserted_whole(order.len(), Some(hashed)));
        let summed = [p.eq(chain, zero)];
        let order = p.post_order(&summed, |_| false);
        let summed = shape(&p, &order);
        assert!(summed.expanded < 1_000, "{summed:?}");
        assert!(!asserted_whole(order.len(), Some(summed)));
        assert!(
            asserted_whole(LARGE_QUERY + 1, None),
            "large, whatever its shape"
        );
    }

    /// A read at a symbolic index of a large constant table is a query of a few nodes
    /// that Z3 receives with an equality per byte of the table: too large for scopes. The
    /// same read of a small table is not. A table past [`LARGEST_TABLE`] is a timeout at
    /// once (in scopes, bzip2's ran minutes past its limit, in `push`; whole, in the check).
    #[test]
    fn a_large_table_read_at_a_symbolic_index_is_too_large_for_scopes() {
        let mut p = ExprPool::new();
        let (_, i) = var(&mut p, "index", 2);
        let index = p.zext(i, 64);
        let answer = |p: &mut ExprPool, len: usize| {
            let bytes: Vec<u8> = (0..len).map(|k| (k % 251) as u8).collect();
            let table = p.array_const(&bytes);
            let read = p.select(table, index);
            let want = p.constant(250, 8);
            let small_index = p.constant(300, 64);
            let query = [p.eq(read, want), p.ult(index, small_index)];
            let order = p.post_order(&query, |_| false);
            (query, z3_size(p, &order), order.len())
        };
        let (_, small, nodes) = answer(&mut p, 1_000);
        assert_eq!(
            small,
            Size {
                terms: nodes + 1_000,
                largest_table: 1_000
            }
        );
        assert!(!asserted_whole(small.terms, None));
        let (query, large, nodes) = answer(&mut p, 40_264);
        assert_eq!(
            large,
            Size {
                terms: nodes + 40_264,
                largest_table: 40_264
            }
        );
        assert!(asserted_whole(large.terms, None));
        let limit = Duration::from_secs(1);
        let mut z3 = Z3Backend::new(Some(limit), Default::default());
        // The path's first constraint, then both (in scopes, a second scope's `push`
        // would work through the first's table).
        for constraints in [&query[..1], &query[..]] {
            let start = Instant::now();
            assert_eq!(z3.check(&p, constraints), Err(SolverError::Timeout));
            assert!(start.elapsed() < limit, "{:?}", start.elapsed());
        }
    }
}
