//! The engine as drivers use it: observer hooks see every instruction, branch, call,
//! return, fork and path end; seeded mode follows exactly the seed's path.

mod common;

use augur_engine::SeedInput;
use augur_engine::{Call, Exec, Executor, Observer, Options, Outcome, State, Value};
use augur_engine::{ErrorKind, Extension, Intercepted};
use augur_expr::ExprId;
use augur_ir::{FuncId, Function};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

const SRC: &str = "int input(void);\n\
int twice(int v) { return 2 * v; }\n\
int main(void) {\n\
  int x = input();\n\
  if (x > 10) return twice(x);\n\
  return 0;\n\
}\n";

#[derive(Default)]
struct Counts {
    instructions: u64,
    branches: Vec<bool>,
    calls: u64,
    returns: u64,
    forks: u64,
    ends: Vec<Outcome>,
}

struct Counter(Rc<RefCell<Counts>>);

impl Observer for Counter {
    fn on_instruction(&mut self, _: &State, _: FuncId, _: u32) {
        self.0.borrow_mut().instructions += 1;
    }
    fn on_branch(&mut self, _: &State, _: ExprId, taken: bool) {
        self.0.borrow_mut().branches.push(taken);
    }
    fn on_call(&mut self, _: &State, _: FuncId, _: &[Value]) {
        self.0.borrow_mut().calls += 1;
    }
    fn on_return(&mut self, _: &State, _: Option<&Value>) {
        self.0.borrow_mut().returns += 1;
    }
    fn on_fork(&mut self, _: &State, _: &State) {
        self.0.borrow_mut().forks += 1;
    }
    fn on_terminate(&mut self, _: &State, o: &Outcome) {
        self.0.borrow_mut().ends.push(o.clone());
    }
}

/// What a run left: the observer's counts, the tests and the run's fork counter.
struct Run {
    counts: Counts,
    tests: Vec<augur_engine::TestCase>,
    forks: u64,
}

/// Run `src` (optionally seeded) with `input()` as a special function and a counting
/// observer; `setup` adds what a driver would (extensions).
fn explore(
    src: &str,
    opts: Options,
    seed: Option<SeedInput>,
    setup: impl FnOnce(&mut Executor),
) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("p.c");
    std::fs::write(&c, src).unwrap();
    let (mut ex, main, tests) = common::executor(&c, opts);
    let counts = Rc::new(RefCell::new(Counts::default()));
    ex.add_observer(Box::new(Counter(counts.clone())));
    setup(&mut ex);
    let mut st = ex.initial_state(seed);
    ex.start_call(&mut st, main, vec![]).unwrap();
    ex.enqueue(st);
    ex.run(&mut |_| {});
    let counts = std::mem::take(&mut *counts.borrow_mut());
    let tests = tests.borrow().clone();
    Run {
        counts,
        tests,
        forks: ex.stats.forks,
    }
}

/// Run SRC (optionally seeded) with a counting observer.
fn run(seed: Option<SeedInput>) -> (Counts, Vec<augur_engine::TestCase>) {
    let r = explore(SRC, Options::default(), seed, |_| {});
    (r.counts, r.tests)
}

/// The exit codes of a run's tests, sorted.
fn exit_codes(tests: &[augur_engine::TestCase]) -> Vec<i64> {
    let mut codes: Vec<i64> = tests
        .iter()
        .map(|t| match t.outcome {
            Outcome::Exit(code) => code,
            ref other => panic!("unexpected {other:?}"),
        })
        .collect();
    codes.sort();
    codes
}

#[test]
fn observers_see_the_whole_exploration() {
    let (c, tests) = run(None);
    assert_eq!(tests.len(), 2);
    assert_eq!(c.forks, 1);
    assert_eq!(c.branches.len(), 2, "one branch event per side of the fork");
    assert!(c.branches.contains(&true) && c.branches.contains(&false));
    let mut codes: Vec<i64> = c
        .ends
        .iter()
        .map(|o| match o {
            Outcome::Exit(code) => *code,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    codes.sort();
    assert_eq!(codes[0], 0);
    assert!(codes[1] > 20, "2 * x with x > 10");
    // input() on both paths before the fork, twice() on one; returns: twice and main twice.
    assert_eq!(c.calls, 2);
    assert_eq!(c.returns, 3);
    assert!(c.instructions > 10);
}

#[test]
fn seeded_mode_follows_the_seed_path_only() {
    let seed = SeedInput {
        objects: vec![("x".into(), 21i32.to_le_bytes().to_vec())],
    };
    let (c, tests) = run(Some(seed));
    assert_eq!(c.forks, 0);
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].outcome, Outcome::Exit(42));
    assert_eq!(tests[0].objects[0].1, 21i32.to_le_bytes().to_vec());
    let seed = SeedInput {
        objects: vec![("x".into(), 3i32.to_le_bytes().to_vec())],
    };
    let (_, tests) = run(Some(seed));
    assert_eq!(tests[0].outcome, Outcome::Exit(0));
}

/// A driver's per-path data: how many times the path called `tick()`.
#[derive(Clone, Default)]
struct Ticks(u32);

/// A driver intercepting `tick()`: each call returns the path's count of calls so far.
struct Ticker;

impl Extension for Ticker {
    fn intercepts(&self, f: &Function) -> bool {
        f.name == "tick"
    }

    fn call(&mut self, _: &mut Executor, st: &mut State, _: &Call) -> Exec<Intercepted> {
        let ticks = st.ext_mut().get_or_default::<Ticks>();
        ticks.0 += 1;
        Ok(Intercepted::Result(Some(Value::con(ticks.0 as u128, 32))))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[test]
fn extension_data_is_kept_per_path_across_a_fork() {
    let src = "int input(void);\n\
int tick(void);\n\
int main(void) {\n\
  int x = input();\n\
  tick();\n\
  if (x > 10) { tick(); tick(); }\n\
  return tick();\n\
}\n";
    let r = explore(src, Options::default(), None, |ex| {
        ex.add_extension(Box::new(Ticker))
    });
    // One tick shared before the fork; then 1 more on one side, 3 more on the other.
    assert_eq!(exit_codes(&r.tests), vec![2, 4]);
    assert_eq!(r.counts.forks, 1);
}

const SWITCHES: &str = "int input(void);\n\
int main(void) {\n\
  int x = input(), r = 0;\n\
  switch (x & 7) { case 1: r = 10; break; case 2: r = 20; break; case 3: r = 30; break; }\n\
  switch ((x >> 3) & 7) { case 1: r += 1; break; case 2: r += 2; break; }\n\
  return r;\n\
}\n";

#[test]
fn switches_fork_through_the_primitive() {
    let r = explore(SWITCHES, Options::default(), None, |_| {});
    // 4 targets of the first switch times 3 of the second.
    assert_eq!(r.tests.len(), 12);
    assert_eq!(r.forks, 11);
    assert_eq!(r.counts.forks, r.forks, "observers see every fork");
    assert_eq!(exit_codes(&r.tests)[11], 32);
}

#[test]
fn max_forks_bounds_switches() {
    for limit in [0, 1, 2, 5] {
        let opts = Options {
            max_forks: Some(limit),
            ..Options::default()
        };
        let r = explore(SWITCHES, opts, None, |_| {});
        assert_eq!(r.forks, limit, "--max-forks {limit}");
        assert_eq!(r.counts.forks, r.forks, "observers see every fork");
        assert_eq!(r.tests.len() as u64, limit + 1);
    }
}

#[test]
fn a_modelled_function_declared_otherwise_ends_its_path_as_unsupported() {
    // `input` is modelled with no parameters; this program declares it with one.
    let src = "int input(int);\n\
int main(void) { return input(3); }\n";
    let r = explore(src, Options::default(), None, |_| {});
    assert_eq!(r.tests.len(), 1);
    match &r.tests[0].outcome {
        Outcome::Error(e) => {
            assert_eq!(e.kind, ErrorKind::Unsupported);
            assert!(
                e.message.contains("declared with 1 parameters"),
                "{}",
                e.message
            );
            assert_eq!(e.line, 2);
        }
        other => panic!("unexpected {other:?}"),
    }
}
