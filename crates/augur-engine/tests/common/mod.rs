//! What the engine's integration tests share: a C program built into an executor whose
//! special function `input()` returns a fresh symbolic int, its tests kept in memory.

use augur_engine::{
    bytes_to_scalar, Byte, Call, Exec, Executor, HandlerTable, MemorySink, Options, Signature,
    State, TestCase, Value,
};
use augur_ir::FuncId;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

/// `input()`: a fresh symbolic int named `x` (a driver-defined special function).
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

/// An executor for the C file `c` (built in its directory) with `input()` as a special
/// function; also its `main` and the tests the run will write.
pub fn executor(c: &Path, opts: Options) -> (Executor, FuncId, Rc<RefCell<Vec<TestCase>>>) {
    let dir = c.parent().expect("the C file is in a directory");
    let bc = augur_ir::build_bitcode(&[c.to_path_buf()], &[], &Default::default(), dir).unwrap();
    let program = augur_ir::load_program(&bc).unwrap();
    let main = program.func_named("main").unwrap();
    let mut handlers = HandlerTable::default();
    handlers.add("input", Signature::of(&[]), input);
    let sink = MemorySink::default();
    let tests = sink.0.clone();
    (
        Executor::new(program, &handlers, opts, Box::new(sink)),
        main,
        tests,
    )
}
