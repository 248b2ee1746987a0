//! The engine as drivers use it: observer hooks see every instruction, branch, call,
//! return, fork and path end; seeded mode follows exactly the seed's path.

use augur_engine::bytes::bytes_to_scalar;
use augur_engine::memory::Byte;
use augur_engine::state::SeedInput;
use augur_engine::{
    Call, Exec, Executor, HandlerTable, MemorySink, Observer, Options, Outcome, State, Value,
};
use augur_expr::ExprId;
use augur_ir::FuncId;
use std::cell::RefCell;
use std::rc::Rc;

const SRC: &str = "int input(void);\n\
int twice(int v) { return 2 * v; }\n\
int main(void) {\n\
  int x = input();\n\
  if (x > 10) return twice(x);\n\
  return 0;\n\
}\n";

/// `input()`: a fresh symbolic int (a driver-defined special function).
fn input(ex: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    let arr = ex.new_symbolic(st, "x", 4);
    let a = ex.pool.array_sym(arr);
    let bytes: Vec<Byte> = (0..4)
        .map(|i| {
            let idx = ex.pool.constant(i, 64);
            Byte::S(ex.pool.select(a, idx))
        })
        .collect();
    Ok(Some(bytes_to_scalar(&mut ex.pool, &bytes, 32)))
}

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

/// Run SRC (optionally seeded) with a counting observer.
fn run(seed: Option<SeedInput>) -> (Counts, Vec<augur_engine::TestCase>) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("p.c");
    std::fs::write(&c, SRC).unwrap();
    let bc = augur_ir::build_bitcode(&[c], &[], &Default::default(), dir.path()).unwrap();
    let program = augur_ir::load_program(&bc).unwrap();
    let main = program.func_named("main").unwrap();
    let mut handlers = HandlerTable::default();
    handlers.add("input", input);
    let sink = MemorySink::default();
    let tests = sink.0.clone();
    let mut ex = Executor::new(program, &handlers, Options::default(), Box::new(sink));
    let counts = Rc::new(RefCell::new(Counts::default()));
    ex.add_observer(Box::new(Counter(counts.clone())));
    let mut st = ex.initial_state(seed);
    ex.start_call(&mut st, main, vec![]).unwrap();
    ex.enqueue(st);
    ex.run(&mut |_| {});
    let counts = std::mem::take(&mut *counts.borrow_mut());
    let tests = tests.borrow().clone();
    (counts, tests)
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
