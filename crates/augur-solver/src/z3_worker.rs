//! Z3 on a thread of its own, which the backend can walk away from: a check that runs
//! past its limit and hears neither Z3's timeout nor the watchdog's interrupts (Z3
//! 4.8.12 does, at some points of its work: in `push`, in `assert`, after an interrupt
//! at the wrong moment) is abandoned, its thread left to finish or not, and the next
//! query goes to a fresh thread with a fresh Z3 context. So `--solver-timeout` and
//! `--max-time` bound every query whatever Z3 does, not only the kinds of query known to
//! stop.
//!
//! Z3's objects belong to the thread that made them, and the engine's expressions to the
//! engine's pool: the solver's thread keeps a mirror of the nodes it was sent (the same
//! nodes, interned without simplification, so Z3 sees what it saw before), and each query
//! sends only the nodes the mirror lacks.

use crate::z3_core::{Outcome, Plan, Verdict, Z3Core};
use crate::z3_solver::forfeit_turn;
use augur_expr::{ArrayId, Assignment, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{JoinHandle, ThreadId};
use std::time::Instant;

/// The stack of the solver's thread: Z3 recurses through a query's terms, and the deep
/// terms of real programs (gzip's CRC over its window) overflowed 8 MiB. Only the pages
/// used are ever committed.
const SOLVER_STACK: usize = 1 << 30;

/// How the solver's thread answers a query of its mirror pool ([`Z3Core::answer`]; a
/// test puts a stand-in around it).
pub(crate) type Answerer = fn(&mut Z3Core, &ExprPool, &[ExprId], Plan) -> Outcome;

/// One query for the solver's thread.
struct Job {
    /// The nodes its mirror lacks, children first, by their engine ids.
    nodes: Vec<(ExprId, ExprKind)>,
    /// The query's symbolic arrays: engine id, name and size now.
    arrays: Vec<(ArrayId, String, u64)>,
    /// The constraints, by their engine ids.
    constraints: Vec<ExprId>,
    plan: Plan,
}

/// The engine's side of a running solver thread.
struct Connection {
    jobs: Sender<Job>,
    outcomes: Receiver<Outcome>,
    thread: JoinHandle<()>,
}

impl Connection {
    fn id(&self) -> ThreadId {
        self.thread.thread().id()
    }
}

/// The engine's handle on the solver's thread, started at the first query and again
/// after one was abandoned.
pub(crate) struct Worker {
    answerer: Answerer,
    connection: Option<Connection>,
    /// The pool whose nodes the thread's mirror holds.
    pool_uid: Option<u64>,
    /// Which of that pool's nodes the mirror holds, by index.
    sent: Vec<bool>,
}

impl Worker {
    /// A worker answering with [`Z3Core::answer`].
    pub(crate) fn new() -> Self {
        Self::answering_with(Z3Core::answer)
    }

    /// A worker answering with `answerer`.
    pub(crate) fn answering_with(answerer: Answerer) -> Self {
        Worker {
            answerer,
            connection: None,
            pool_uid: None,
            sent: Vec::new(),
        }
    }

    /// The outcome of checking `constraints` of `pool` (whose distinct nodes are
    /// `order`, children first) as `plan` says, waiting for it until `give_up` (None: for
    /// as long as it takes). None when it did not come by then: the thread is abandoned,
    /// and the next query starts a fresh one.
    ///
    /// # Panics
    /// If the solver's thread panicked (its panic goes on here).
    pub(crate) fn answer(
        &mut self,
        pool: &ExprPool,
        order: &[ExprId],
        constraints: &[ExprId],
        plan: Plan,
        give_up: Option<Instant>,
    ) -> Option<Outcome> {
        if self.pool_uid != Some(pool.uid()) {
            self.stop();
            self.pool_uid = Some(pool.uid());
        }
        let job = self.job(pool, order, constraints, plan);
        let answerer = self.answerer;
        let connection = self.connection.get_or_insert_with(|| start(answerer));
        if connection.jobs.send(job).is_err() {
            self.lost();
        }
        let connection = self.connection.as_ref()?;
        let outcome = match give_up {
            None => connection
                .outcomes
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => connection
                .outcomes
                .recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match outcome {
            Ok(outcome) => Some(outcome),
            Err(RecvTimeoutError::Timeout) => {
                self.abandon();
                None
            }
            Err(RecvTimeoutError::Disconnected) => self.lost(),
        }
    }

    /// The job asking `constraints`, with the nodes of `order` the mirror lacks.
    fn job(
        &mut self,
        pool: &ExprPool,
        order: &[ExprId],
        constraints: &[ExprId],
        plan: Plan,
    ) -> Job {
        if self.connection.is_none() {
            self.sent.clear();
        }
        self.sent.resize(self.sent.len().max(pool.len()), false);
        let mut nodes = Vec::new();
        for &n in order {
            let sent = &mut self.sent[n.0 as usize];
            if !*sent {
                *sent = true;
                nodes.push((n, pool.kind(n).clone()));
            }
        }
        let arrays = pool
            .arrays_of_all(constraints)
            .into_iter()
            .map(|a| (a, pool.array_name(a).to_owned(), pool.array_size(a)))
            .collect();
        Job {
            nodes,
            arrays,
            constraints: constraints.to_vec(),
            plan,
        }
    }

    /// Walk away from the thread's check: it may never return (its turn to check is
    /// given up, so the next thread's checks do not wait for it).
    fn abandon(&mut self) {
        if let Some(connection) = self.connection.take() {
            forfeit_turn(connection.id());
            tracing::warn!(
                "Z3 ran past its time limit deaf to its timeout and interrupts; \
                 its check is left on a thread of its own and a fresh solver takes over"
            );
        }
    }

    /// The thread stopped without an answer: it panicked, and so does this.
    fn lost(&mut self) -> ! {
        let connection = self.connection.take().expect("a thread was running");
        drop(connection.jobs);
        match connection.thread.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => panic!("the solver's thread stopped without an answer"),
        }
    }

    /// Stop an idle thread (it ends once it sees no more jobs can come).
    fn stop(&mut self) {
        if let Some(connection) = self.connection.take() {
            drop(connection.jobs);
            let _ = connection.thread.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A fresh solver thread answering with `answerer`.
fn start(answerer: Answerer) -> Connection {
    let (jobs, their_jobs) = mpsc::channel();
    let (their_outcomes, outcomes) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("augur-z3".into())
        .stack_size(SOLVER_STACK)
        .spawn(move || serve(answerer, &their_jobs, &their_outcomes))
        .expect("a thread for the solver");
    Connection {
        jobs,
        outcomes,
        thread,
    }
}

/// The solver thread's loop: each job answered in the thread's own Z3 context, until
/// the engine hangs up (or stops listening, having abandoned this thread).
fn serve(answerer: Answerer, jobs: &Receiver<Job>, outcomes: &Sender<Outcome>) {
    let mut mirror = Mirror::default();
    let mut core = Z3Core::new();
    while let Ok(job) = jobs.recv() {
        let constraints = mirror.take(job.nodes, job.arrays, &job.constraints);
        let outcome = answerer(&mut core, &mirror.pool, &constraints, job.plan);
        if outcomes.send(mirror.to_engine(outcome)).is_err() {
            break;
        }
    }
}

/// The solver thread's copy of the engine's nodes it was sent.
#[derive(Default)]
struct Mirror {
    pool: ExprPool,
    /// Engine node to mirror node.
    exprs: FxHashMap<ExprId, ExprId>,
    /// Engine array to mirror array.
    arrays: FxHashMap<ArrayId, ArrayId>,
    /// Mirror array (by index) to engine array.
    engine_arrays: Vec<ArrayId>,
}

impl Mirror {
    /// Add `arrays` and `nodes` (children first) to the mirror: `constraints` in it.
    fn take(
        &mut self,
        nodes: Vec<(ExprId, ExprKind)>,
        arrays: Vec<(ArrayId, String, u64)>,
        constraints: &[ExprId],
    ) -> Vec<ExprId> {
        for (a, name, size) in arrays {
            match self.arrays.get(&a) {
                Some(&mine) => self.pool.grow_array(mine, size),
                None => {
                    let mine = self.pool.new_array(&name, size);
                    self.arrays.insert(a, mine);
                    self.engine_arrays.push(a);
                }
            }
        }
        for (n, kind) in nodes {
            let kind = kind.renamed(|c| self.exprs[&c], |a| self.arrays[&a]);
            let mine = self.pool.raw(kind);
            self.exprs.insert(n, mine);
        }
        constraints.iter().map(|c| self.exprs[c]).collect()
    }

    /// `outcome`'s model in the engine's arrays.
    fn to_engine(&self, outcome: Outcome) -> Outcome {
        let verdict = match outcome.verdict {
            Verdict::Sat(model) => Verdict::Sat(Assignment {
                arrays: model
                    .arrays
                    .into_iter()
                    .map(|(a, bytes)| (self.engine_arrays[a.0 as usize], bytes))
                    .collect(),
            }),
            other => other,
        };
        Outcome { verdict, ..outcome }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::var;
    use augur_expr::BinOp;
    use std::time::Duration;

    fn plan(limit: Duration) -> Plan {
        Plan {
            limit,
            whole: false,
            once: false,
            search_after: Duration::from_millis(50),
            fresh: false,
            turn_by: None,
        }
    }

    /// `x + y == 7 && x > 5` (a pool's other arrays and nodes before it, so the mirror's
    /// ids differ from the engine's).
    fn query(p: &mut ExprPool) -> (Vec<ExprId>, ExprId) {
        let (_, unused) = var(p, "unused", 2);
        p.not(unused);
        let (_, x) = var(p, "x", 1);
        let (_, y) = var(p, "y", 1);
        let sum = p.bin(BinOp::Add, x, y);
        let (seven, five) = (p.constant(7, 8), p.constant(5, 8));
        (vec![p.eq(sum, seven), p.ult(five, x)], x)
    }

    fn ask(
        w: &mut Worker,
        p: &ExprPool,
        q: &[ExprId],
        give_up: Option<Instant>,
    ) -> Option<Outcome> {
        let order = p.post_order(q, |_| false);
        w.answer(p, &order, q, plan(Duration::from_secs(10)), give_up)
    }

    /// The thread answers in the engine's arrays, and a second query sends only the
    /// nodes its mirror lacks.
    #[test]
    fn answers_come_back_in_the_engine_s_arrays() {
        let mut p = ExprPool::new();
        let (q, x) = query(&mut p);
        let mut w = Worker::new();
        let Some(Outcome {
            verdict: Verdict::Sat(model),
            sampled: false,
        }) = ask(&mut w, &p, &q, None)
        else {
            panic!("no model");
        };
        assert!(
            p.eval(x, &model) > 5 && p.eval(p.kind(q[0]).children().next().unwrap(), &model) == 7
        );
        let order = p.post_order(&q, |_| false);
        assert!(w.job(&p, &order, &q, plan(Duration::ZERO)).nodes.is_empty());
        let six = p.constant(6, 8);
        let more = [q[0], q[1], p.ult(six, x)];
        let order = p.post_order(&more, |_| false);
        assert_eq!(
            w.job(&p, &order, &more, plan(Duration::ZERO)).nodes.len(),
            2,
            "6 and 6 < x"
        );
    }
}
