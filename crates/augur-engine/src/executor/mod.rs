//! The executor: owns the program, the expression pool, the solver chain and the states;
//! runs the search loop; forks; ends paths and hands finished paths to the test sink.
//!
//! Instruction families live in their own modules: `ints` (integer arithmetic, casts,
//! comparisons), `floats`, `access` (loads, stores, pointer resolution), `sym_offset`
//! (accesses at symbolic offsets inside an object), `calls` (calls,
//! returns, varargs), `intrinsics` (`llvm.*`), `step` (the dispatch and control flow),
//! `concrete` (the fast path for instructions over concrete values).

mod access;
mod calls;
mod concrete;
mod floats;
mod globals;
mod intrinsics;
mod ints;
mod step;
mod sym_offset;
mod test_inputs;

pub use access::{Offset, Resolved};
pub use step::{Forked, Split};

use crate::directed::SearchPenalty;
use crate::extension::Extension;
use crate::extension::Intercepted;
use crate::handlers::{Call, HandlerTable, Special};
use crate::hooks::Observer;
use crate::options::{Options, TestPolicy};
use crate::outcome::{ErrorKind, Outcome, PathError, StackFrame};
use crate::searcher::{Interleaved, Searcher, StateInfo, Ticket};
use crate::state::{Frame, SeedInput, State, StateId, Symbolic};
use crate::stats::{Coverage, RunStats};
use crate::testcase::{TestCase, TestSink};
use crate::value::Value;
use augur_expr::Rng;
use augur_expr::{ArrayId, ExprId, ExprPool};
use augur_ir::{FuncId, LocId, Program};
use augur_solver::{SolverChain, SolverError};
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use test_inputs::{KeptPrefixTest, TestInputs};

/// Result of executing part of a path: `Err` ends the path with that outcome.
pub type Exec<T> = Result<T, Outcome>;

/// What a step did to the control flow of its state.
pub enum Flow {
    /// Keep running this state.
    Continue,
    /// These new states were forked off; the current state continues too.
    Forked(Vec<State>),
}

/// The symbolic executor.
pub struct Executor {
    /// The program being executed.
    pub program: Rc<Program>,
    /// All expressions of the run.
    pub pool: ExprPool,
    /// The solver chain.
    pub solver: SolverChain,
    /// Options and limits.
    pub opts: Options,
    /// Random choices.
    pub rng: Rng,
    /// Counters.
    pub stats: RunStats,
    /// Covered instructions and lines.
    pub coverage: Coverage,
    /// Per function: its handler, or why the program's declaration does not fit it.
    handlers: Vec<Option<Result<Special, String>>>,
    observers: Vec<Box<dyn Observer>>,
    states: FxHashMap<StateId, (u64, State)>,
    searcher: Interleaved,
    next_id: StateId,
    next_epoch: u64,
    sink: Box<dyn TestSink>,
    interrupted: Arc<AtomicBool>,
    started: Instant,
    next_memory_check: Instant,
    /// Memory was over `--max-memory` at the last check: forks are suppressed.
    at_memory_limit: bool,
    global_addrs: Vec<u64>,
    extensions: Vec<Option<Box<dyn Extension>>>,
    entry_return: Option<FuncId>,
    intercepted_by: Vec<Option<u16>>,
    /// The prefix-only test following most of its path, written if the run ends with no
    /// other test.
    prefix_test: Option<KeptPrefixTest>,
}

/// How many of `live` states to stop when `used` MiB are in use under a limit of `limit`
/// MiB: none under the limit; else the share of states the excess is (KLEE's rule, states
/// being what grows), at least one, and never the last state.
fn states_to_stop(live: usize, used: u64, limit: u64) -> usize {
    if used <= limit || live < 2 {
        return 0;
    }
    let keep = (live as u128 * limit as u128 / used as u128) as usize;
    (live - keep).clamp(1, live - 1)
}

/// An error on a path through havocked calls says so in its message.
fn with_havoc_note(outcome: Outcome, havocked: &[Rc<str>]) -> Outcome {
    match outcome {
        Outcome::Error(mut e) if !havocked.is_empty() => {
            let names: Vec<&str> = havocked.iter().map(|f| &**f).collect();
            e.message = format!(
                "{} (on a path through havocked results of {}, which a real library may \
                 never return)",
                e.message,
                names.join(", ")
            );
            Outcome::Error(e)
        }
        other => other,
    }
}

fn frame_loc(prog: &Program, f: &Frame, at_pc: u32) -> LocId {
    prog.func(f.func)
        .locs
        .get(at_pc as usize)
        .copied()
        .unwrap_or_default()
}

/// The earlier of two optional instants (None: no limit).
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

impl Executor {
    /// An executor for `program`, using the special-function `handlers`, writing finished
    /// paths to `sink`.
    pub fn new(
        program: Program,
        handlers: &HandlerTable,
        opts: Options,
        sink: Box<dyn TestSink>,
    ) -> Self {
        let program = Rc::new(program);
        let program_len = program.functions.len();
        let handler_vec = program
            .functions
            .iter()
            .map(|f| {
                let special = handlers.get(&f.name)?;
                Some(match special.sig.mismatch_with(&program, f) {
                    None => Ok(special),
                    Some(why) => Err(why),
                })
            })
            .collect();
        let searcher = Interleaved::new(&opts.search, &program);
        let started = Instant::now();
        let mut solver = SolverChain::new(opts.solver.clone());
        // No solver call outlives --max-time, whatever the solver timeout.
        let run_deadline = opts.max_time.and_then(|t| started.checked_add(t));
        solver.set_deadline(earliest(run_deadline, opts.solver.deadline));
        Executor {
            coverage: Coverage::new(&program),
            program,
            pool: ExprPool::new(),
            solver,
            rng: Rng::new(opts.seed),
            searcher,
            opts,
            stats: RunStats::default(),
            handlers: handler_vec,
            observers: Vec::new(),
            states: FxHashMap::default(),
            next_id: 0,
            next_epoch: 0,
            sink,
            interrupted: Arc::new(AtomicBool::new(false)),
            started,
            next_memory_check: Instant::now(),
            at_memory_limit: false,
            global_addrs: Vec::new(),
            intercepted_by: vec![None; program_len],
            extensions: Vec::new(),
            entry_return: None,
            prefix_test: None,
        }
    }

    /// A flag that stops the run (keeping everything found) when set, e.g. from Ctrl-C.
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.interrupted.clone()
    }

    /// Use `flag` (e.g. set from Ctrl-C) to stop the run, instead of the executor's own.
    pub fn set_interrupt_flag(&mut self, flag: Arc<AtomicBool>) {
        self.interrupted = flag;
    }

    /// Register an observer (driver hook).
    pub fn add_observer(&mut self, o: Box<dyn Observer>) {
        self.observers.push(o);
    }

    /// Add a driver's extension. Calls of the functions it intercepts go to it first (an
    /// extension added earlier wins a function both intercept).
    pub fn add_extension(&mut self, e: Box<dyn Extension>) {
        let index = self.extensions.len() as u16;
        for (f, by) in self.program.functions.iter().zip(&mut self.intercepted_by) {
            if by.is_none() && e.intercepts(f) {
                *by = Some(index);
            }
        }
        self.extensions.push(Some(e));
    }

    /// The added extension of type `T`, if any (for its per-run data).
    pub fn extension<T: Extension>(&self) -> Option<&T> {
        self.extensions
            .iter()
            .flatten()
            .find_map(|e| e.as_any().downcast_ref())
    }

    /// Offer a call to the extension intercepting its function, if one does.
    fn intercept(&mut self, st: &mut State, call: &Call) -> Exec<Intercepted> {
        let Some(i) = self.intercepted_by[call.func.0 as usize] else {
            return Ok(Intercepted::Proceed);
        };
        let slot = i as usize;
        let mut e = self.extensions[slot]
            .take()
            .expect("an extension's call does not call back into an extension");
        let result = e.call(self, st, call);
        self.extensions[slot] = Some(e);
        result
    }

    /// Number of states waiting to run.
    pub fn live_states(&self) -> usize {
        self.states.len()
    }

    /// Seconds since the executor was created.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// A new state id (for states a driver creates by cloning).
    pub fn fresh_state_id(&mut self) -> StateId {
        self.next_id += 1;
        self.next_id
    }

    /// Make a state runnable (a state off the run's path prefix is dropped instead).
    pub fn enqueue(&mut self, st: State) {
        if self.off_prefix(&st) {
            return;
        }
        self.next_epoch += 1;
        let t = Ticket {
            id: st.id,
            epoch: self.next_epoch,
        };
        let info = StateInfo {
            depth: st.depth(),
            cov_gen: st.cov_gen,
            frames: if self.searcher.reads_frames {
                st.frames.iter().map(|f| (f.func, f.pc)).collect()
            } else {
                Vec::new()
            },
            penalty: st.ext.get::<SearchPenalty>().map_or(0, |p| p.0),
        };
        self.states.insert(st.id, (self.next_epoch, st));
        self.searcher.add(t, &info);
    }

    fn take_next(&mut self) -> Option<State> {
        while let Some(t) = self.searcher.next(&mut self.rng) {
            if matches!(self.states.get(&t.id), Some((e, _)) if *e == t.epoch) {
                return self.states.remove(&t.id).map(|(_, s)| s);
            }
        }
        None
    }

    /// Why the whole run must stop now, if it must.
    fn stop_reason(&self) -> Option<&'static str> {
        if self.interrupted.load(Ordering::Relaxed) {
            return Some("interrupted");
        }
        if matches!(self.opts.max_time, Some(t) if self.started.elapsed() >= t) {
            return Some("max-time reached");
        }
        if matches!(self.opts.max_instructions, Some(n) if self.stats.instructions >= n) {
            return Some("max-instructions reached");
        }
        None
    }

    /// Run the search until no state is left or a limit stops it; states left are ended as
    /// partial paths (each still gets a test).
    pub fn run(&mut self, progress: &mut dyn FnMut(&Executor)) {
        self.explore(usize::MAX, progress);
        let reason = self.stop_reason().unwrap_or("limit reached").to_string();
        let mut rest: Vec<State> = self.states.drain().map(|(_, (_, s))| s).collect();
        rest.sort_by_key(|s| s.id);
        // States left at a stop get partial tests, within a time budget (three quarters
        // of a tenth of --max-time, between 1 and 10 seconds, the rest left for writing
        // out): thousands of shallow states could otherwise take longer to write out than
        // the whole run. No solver call outlives the budget.
        let budget = self.opts.max_time.map_or(Duration::from_secs(10), |t| {
            (t / 10).clamp(Duration::from_secs(1), Duration::from_secs(10)) * 3 / 4
        });
        let deadline = Instant::now() + budget;
        self.solver.set_deadline(Some(deadline));
        for st in rest {
            // Past the budget, a path is still ended with a test while the run has none
            // (its inputs are then the path's example inputs, or a prefix's).
            if Instant::now() < deadline || self.stats.tests == 0 {
                self.finish(st, Outcome::Partial(reason.clone()));
            } else {
                self.stats.paths_partial += 1;
                self.stats.partial_without_test += 1;
            }
        }
        self.write_prefix_test();
        // A driver asking more of the solver after the run (diff's pairing) sets its own.
        self.solver.set_deadline(self.opts.solver.deadline);
        self.stats.time_s = self.elapsed();
        progress(self);
    }

    /// Run the search until `pending` states wait to run, no state is left or a limit
    /// stops it (then [`Executor::run`] ends the states left, or
    /// [`Executor::take_pending`] takes them away). True if `pending` states wait.
    pub fn run_until_pending(
        &mut self,
        pending: usize,
        progress: &mut dyn FnMut(&Executor),
    ) -> bool {
        self.explore(pending, progress);
        self.stats.time_s = self.elapsed();
        self.states.len() >= pending && self.stop_reason().is_none()
    }

    /// Remove the states waiting to run, in creation order, without ending them (they
    /// count as no path of this run: a driver hands them on, e.g. as shards).
    pub fn take_pending(&mut self) -> Vec<State> {
        let mut states: Vec<State> = self.states.drain().map(|(_, (_, s))| s).collect();
        states.sort_by_key(|s| s.id);
        states
    }

    /// The search loop: until no state is left, `pending` states wait, or a limit stops it.
    fn explore(&mut self, pending: usize, progress: &mut dyn FnMut(&Executor)) {
        let mut last_report = Instant::now();
        while self.states.len() < pending {
            let Some(st) = self.take_next() else {
                break;
            };
            if let Some(reason) = self.stop_reason() {
                self.finish(st, Outcome::Partial(reason.into()));
                break;
            }
            self.run_state(st);
            if last_report.elapsed().as_millis() >= 100 {
                progress(self);
                last_report = Instant::now();
            }
            self.enforce_memory_limit();
        }
    }

    /// Hold `--max-memory` as KLEE does: over the limit, no path forks (see
    /// [`Executor::fork`]) and states chosen at random are stopped as partial paths (their
    /// tests written) until the memory in use is estimated to be under it again.
    fn enforce_memory_limit(&mut self) {
        let Some(limit) = self.opts.max_memory_mib else {
            return;
        };
        // Look at most ten times a second.
        let now = Instant::now();
        if now < self.next_memory_check {
            return;
        }
        self.next_memory_check = now + Duration::from_millis(100);
        let used = crate::stats::memory_in_use_mib();
        self.at_memory_limit = used > limit;
        let stop = states_to_stop(self.states.len(), used, limit);
        if stop == 0 {
            return;
        }
        tracing::warn!("memory {used} MiB over the limit of {limit} MiB: stopping {stop} states");
        let mut ids: Vec<StateId> = self.states.keys().copied().collect();
        ids.sort_unstable();
        for _ in 0..stop {
            let id = ids.swap_remove(self.rng.below(ids.len() as u64) as usize);
            if let Some((_, st)) = self.states.remove(&id) {
                self.finish(st, Outcome::Partial("max-memory reached".into()));
            }
        }
        crate::stats::release_free_memory();
    }

    /// Run one state for a batch of instructions, until it forks or ends.
    fn run_state(&mut self, mut st: State) {
        let mut budget = self.opts.batch;
        loop {
            match self.step(&mut st) {
                Ok(Flow::Continue) => {
                    budget -= 1;
                    if budget == 0 || !self.opts.path_prefix.is_empty() && self.off_prefix(&st) {
                        self.enqueue(st);
                        return;
                    }
                }
                Ok(Flow::Forked(children)) => {
                    for c in children {
                        self.enqueue(c);
                    }
                    self.enqueue(st);
                    return;
                }
                Err(outcome) => {
                    self.finish(st, outcome);
                    return;
                }
            }
        }
    }

    /// Run a solver query, turning a solver failure into the end of the path.
    pub fn query<T>(
        &mut self,
        f: impl FnOnce(&mut SolverChain, &mut ExprPool) -> Result<T, SolverError>,
    ) -> Exec<T> {
        f(&mut self.solver, &mut self.pool).map_err(|e| Outcome::Partial(format!("solver: {e}")))
    }

    /// Add `cond` to the path; Ok(false) if that makes the path infeasible.
    pub fn add_constraint(&mut self, st: &mut State, cond: ExprId) -> Exec<bool> {
        if let Some(c) = self.pool.as_const(cond) {
            return Ok(c != 0);
        }
        let ok = if st.seed.is_some() {
            self.pool.eval(cond, &st.seed_values) != 0
        } else {
            self.query(|s, p| s.may_be_true(p, &st.constraints, cond))?
        };
        if ok {
            st.constraints.push(cond);
        }
        Ok(ok)
    }

    /// A concrete value for `v` on this path, pinning it there (adds `v == value`).
    pub fn concretize(&mut self, st: &mut State, v: &Value) -> Exec<u128> {
        match v {
            Value::Con { bits, .. } => Ok(*bits),
            Value::Sym(e) => {
                let e = *e;
                let val = self.example(st, e)?;
                let w = self.pool.width(e);
                let c = self.pool.constant(val, w);
                let eq = self.pool.eq(e, c);
                st.constraints.push(eq);
                self.stats.concretizations += 1;
                Ok(val)
            }
            Value::Agg(_) => Err(self.error(
                st,
                ErrorKind::Unsupported,
                "aggregate used as a scalar".into(),
            )),
            Value::Wide { width, .. } => Err(self.error(
                st,
                ErrorKind::Unsupported,
                format!("i{width} value used where a value of at most 128 bits is needed"),
            )),
        }
    }

    /// One feasible value of `e` on the path of `st` (in seeded mode, the seed's). Within
    /// the run's path prefix the values come from `Options::path_examples`, so that a
    /// shard's run forks where and as its split did; each is recorded in `st.examples`.
    pub fn example(&mut self, st: &mut State, e: ExprId) -> Exec<u128> {
        let value = match self.opts.path_examples.get(st.examples.len()) {
            Some(v) => *v,
            None if st.seed.is_some() => self.pool.eval(e, &st.seed_values),
            None => {
                let (value, model) =
                    self.query(|s, p| s.value_with_model(p, &st.constraints, e))?;
                st.learn_inputs(model);
                value
            }
        };
        st.examples = st.examples.then(value);
        Ok(value)
    }

    /// The exit code `v` of a path ending now. A symbolic code is made concrete; with
    /// `Options::exit_codes` above 1, the inputs giving other codes first go on in a forked
    /// state that redoes the exiting instruction (at most that many codes per path).
    pub fn exit_code(&mut self, st: &mut State, v: &Value) -> Exec<u128> {
        let Value::Sym(e) = v else {
            return self.concretize(st, v);
        };
        let e = *e;
        let others = st
            .constraints
            .iter()
            .filter(|c| {
                let augur_expr::ExprKind::Not(x) = self.pool.kind(**c) else {
                    return false;
                };
                matches!(self.pool.kind(*x),
                    augur_expr::ExprKind::Cmp { op: augur_expr::CmpOp::Eq, lhs, rhs }
                        if *lhs == e || *rhs == e)
            })
            .count() as u32;
        if st.seed.is_some() || others + 1 >= self.opts.exit_codes {
            return self.concretize(st, v);
        }
        let value = self.example(st, e)?;
        let c = self.pool.constant(value, self.pool.width(e));
        let is_value = self.pool.eq(c, e);
        match self.split(st, is_value)? {
            step::Split::Both(mut other) => {
                other.frame_mut().pc -= 1;
                self.enqueue(*other);
            }
            step::Split::True | step::Split::False => {}
        }
        Ok(value)
    }

    /// Create a fresh symbolic input of `size` bytes named `name`; returns its array. In
    /// seeded mode the array's concrete bytes come from the seed, by creation order.
    pub fn new_symbolic(&mut self, st: &mut State, name: &str, size: u64) -> ArrayId {
        let index = st.symbolics.len();
        let chosen = self
            .extensions
            .iter_mut()
            .flatten()
            .find_map(|e| e.input_array(&mut self.pool, index, name, size));
        let array = chosen.unwrap_or_else(|| self.pool.new_array(name, size));
        st.symbolics.push(Symbolic {
            name: self.pool.array_name(array).to_string(),
            array,
            size,
        });
        if let Some(seed) = st.seed.clone() {
            let mut bytes = seed
                .objects
                .get(index)
                .map(|o| o.1.clone())
                .unwrap_or_default();
            bytes.resize(size as usize, 0);
            st.seed_values.arrays.insert(array, bytes);
        }
        array
    }

    /// The user-facing location of the instruction being executed in the top frame,
    /// skipping frames of augur's own runtime models.
    pub fn current_loc(&self, st: &State) -> LocId {
        for f in st.frames.iter().rev() {
            let l = frame_loc(&self.program, f, f.pc.saturating_sub(1));
            if self.coverage.is_user_loc(&self.program, l) {
                return l;
            }
        }
        st.frames
            .last()
            .map(|f| frame_loc(&self.program, f, f.pc.saturating_sub(1)))
            .unwrap_or_default()
    }

    /// The call stack of `st`, innermost first.
    pub fn stack(&self, st: &State) -> Vec<StackFrame> {
        st.frames
            .iter()
            .rev()
            .map(|f| {
                let l = frame_loc(&self.program, f, f.pc.saturating_sub(1));
                let (file, line) = self.file_line(l);
                StackFrame {
                    function: self.program.func(f.func).name.clone(),
                    file,
                    line,
                }
            })
            .collect()
    }

    /// File and line of a location ("" and 0 when unknown).
    pub fn file_line(&self, l: LocId) -> (String, u32) {
        match self.program.loc(l) {
            Some(s) => (self.program.file(s.file).to_string(), s.line),
            None => (String::new(), 0),
        }
    }

    /// An error outcome at the current instruction of `st`.
    pub fn error(&self, st: &State, kind: ErrorKind, message: String) -> Outcome {
        let (file, line) = self.file_line(self.current_loc(st));
        Outcome::Error(Box::new(PathError {
            kind,
            message,
            file,
            line,
            stack: self.stack(st),
        }))
    }

    /// End a path: solve for its input and hand the test to the sink.
    pub fn finish(&mut self, st: State, outcome: Outcome) {
        if self.off_prefix(&st) {
            return;
        }
        if matches!(
            outcome,
            Outcome::Exit(_) | Outcome::Signal(_) | Outcome::Error(_)
        ) && st.path.len() < self.opts.path_prefix.len()
        {
            self.stats.prefix_diverged = Some(format!(
                "a path ended after {} of its {} forks",
                st.path.len(),
                self.opts.path_prefix.len()
            ));
            return;
        }
        for o in &mut self.observers {
            o.on_terminate(&st, &outcome);
        }
        match &outcome {
            Outcome::Dropped => {
                self.stats.paths_dropped += 1;
                return;
            }
            Outcome::Partial(_) => self.stats.paths_partial += 1,
            _ => self.stats.paths_completed += 1,
        }
        if !self.wants_test(&st, &outcome) {
            self.stats.tests_not_written += 1;
            return;
        }
        let arrays: Vec<ArrayId> = st.symbolics.iter().map(|s| s.array).collect();
        let partial = matches!(outcome, Outcome::Partial(_));
        let (model, prefix) = if st.seed.is_some() {
            (st.seed_values.clone(), None)
        } else {
            match self.test_inputs(&st, partial, &arrays) {
                TestInputs::Whole(m) => (m, None),
                TestInputs::Prefix(m, prefix) => (m, Some(prefix)),
            }
        };
        let objects = st
            .symbolics
            .iter()
            .map(|s| {
                let mut bytes = model.arrays.get(&s.array).cloned().unwrap_or_default();
                bytes.resize(s.size as usize, 0);
                (s.name.clone(), bytes)
            })
            .collect();
        let concrete = |bytes: &[crate::memory::Byte]| -> Vec<u8> {
            bytes
                .iter()
                .map(|b| match b {
                    crate::memory::Byte::C(c) => *c,
                    crate::memory::Byte::S(e) => self.pool.eval(*e, &model) as u8,
                })
                .collect()
        };
        let outcome = with_havoc_note(outcome, &st.havocked);
        let test = TestCase {
            objects,
            stdout: concrete(st.stdout.kept()),
            stderr: concrete(st.stderr.kept()),
            dropped: (st.stdout.dropped(), st.stderr.dropped()),
            outcome: match &prefix {
                Some(p) => test_inputs::prefix_outcome(&outcome, p),
                None => outcome,
            },
            instructions: st.instructions,
            havocked: st.havocked.iter().map(|f| f.to_string()).collect(),
            prefix,
        };
        if test.prefix.is_some() {
            if partial {
                self.stats.partial_without_test += 1;
            }
            self.keep_prefix_test(test, partial);
            return;
        }
        self.stats.tests += 1;
        if let Outcome::Error(e) = &test.outcome {
            self.stats.record_error(e);
        }
        self.sink.write(&test);
    }

    /// Whether the path `st`, ended with `outcome`, gets a test under the test policy.
    fn wants_test(&self, st: &State, outcome: &Outcome) -> bool {
        let new_error = matches!(outcome, Outcome::Error(e) if !self.stats.knows_error(e));
        new_error
            || match self.opts.tests {
                TestPolicy::All => true,
                TestPolicy::CoveringNew => st.covered_new,
                TestPolicy::CoveringNewAfter(n) => self.stats.tests < n || st.covered_new,
            }
    }

    /// Create the initial state: globals laid out and initialised, `entry` called with
    /// `args` (its frame ready to run).
    pub fn initial_state(&mut self, seed: Option<SeedInput>) -> State {
        let mut st = State {
            id: self.fresh_state_id(),
            frames: Vec::new(),
            mem: Default::default(),
            constraints: Vec::new(),
            symbolics: Vec::new(),
            path: Default::default(),
            examples: Default::default(),
            example_inputs: Default::default(),
            instructions: 0,
            cov_gen: 0,
            covered_new: false,
            havocked: Vec::new(),
            seed: seed.map(Rc::new),
            seed_values: Default::default(),
            ext: Default::default(),
            stdout: Default::default(),
            stderr: Default::default(),
        };
        globals::layout_globals(self, &mut st);
        st
    }

    /// The address of a global variable in every state of this run.
    pub fn global_addr(&self, g: augur_ir::GlobalId) -> u64 {
        self.global_addrs[g.0 as usize]
    }

    /// When the entry function returns a value, call `func` with it instead of ending the
    /// path (C's `exit(main(...))`: `func` is the program's `exit`, which runs the `atexit`
    /// handlers and does not return).
    pub fn set_entry_return(&mut self, func: FuncId) {
        self.entry_return = Some(func);
    }

    /// The function whose address is `addr`, if it is one.
    pub fn function_at(&self, addr: u64) -> Option<FuncId> {
        crate::memory::function_at(addr, self.program.functions.len())
    }

    /// Push a call of `func` with `args` onto `st` (no caller register receives the result).
    pub fn start_call(&mut self, st: &mut State, func: FuncId, args: Vec<Value>) -> Exec<()> {
        calls::push_frame(self, st, func, args, None)
    }
}

#[cfg(test)]
mod tests {
    use super::states_to_stop;

    #[test]
    fn states_stopped_over_the_memory_limit_match_the_excess() {
        assert_eq!(states_to_stop(1000, 4000, 4096), 0, "under the limit");
        assert_eq!(
            states_to_stop(1000, 8192, 4096),
            500,
            "twice the limit: half"
        );
        assert_eq!(states_to_stop(1000, 4100, 4096), 1, "at least one");
        assert_eq!(states_to_stop(10, 1 << 20, 1), 9, "never the last state");
        assert_eq!(states_to_stop(1, 1 << 20, 1), 0);
    }
}
