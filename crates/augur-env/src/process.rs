//! Process control: exit, abort, failed C assertions.

use augur_engine::Param::{Int, Ptr};
use augur_engine::{
    Call, ErrorKind, Exec, Executor, HandlerTable, Outcome, Signature, State, Value,
};

/// Register the process-control functions.
pub fn register(t: &mut HandlerTable) {
    // `exit` itself is the C model (runtime/libc/exit.c): atexit handlers, then `_exit`.
    t.add("klee_silent_exit", Signature::of(&[Int]), exit);
    t.add("abort", Signature::of(&[]), abort);
    t.add("klee_abort", Signature::of(&[]), abort);
    t.add(
        "__assert_fail",
        Signature::of(&[Ptr, Ptr, Int, Ptr]),
        assert_fail,
    );
    t.add(
        "klee_report_error",
        Signature::of(&[Ptr, Int, Ptr, Ptr]),
        report_error,
    );
}

fn exit(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let code = ex.exit_code(st, &c.args[0])?;
    Err(Outcome::Exit(code as u32 as i32 as i64))
}

fn abort(ex: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    Err(ex.error(st, ErrorKind::Abort, "abort() called".into()))
}

fn assert_fail(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let what = ex.read_c_string(st, &c.args[0], 512)?;
    Err(ex.error(
        st,
        ErrorKind::Assertion,
        format!("assertion failed: {what}"),
    ))
}

fn report_error(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let msg = ex.read_c_string(st, &c.args[2], 512)?;
    Err(ex.error(st, ErrorKind::Abort, msg))
}
