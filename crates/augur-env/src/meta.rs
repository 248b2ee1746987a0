//! The meta-program intrinsics of `augur.h` in an ordinary run: `augur_meta(site)` is 0
//! (the base revision's code) and `augur_output(name, addr, size)` has no effect. `augur
//! diff` intercepts both to fork revisions and record outputs.

use augur_engine::Param::{Int, Ptr};
use augur_engine::{Call, Exec, Executor, HandlerTable, Signature, State, Value};

/// Register the meta-program intrinsics.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_meta", Signature::of(&[Int]), meta);
    t.add("augur_output", Signature::of(&[Ptr, Ptr, Int]), output);
}

/// `int augur_meta(int site)`: every site runs the base's code.
fn meta(_: &mut Executor, _: &mut State, _: &Call) -> Exec<Option<Value>> {
    Ok(Some(Value::con(0, 32)))
}

/// `void augur_output(const char *name, const void *addr, size_t size)`: nothing to record.
fn output(_: &mut Executor, _: &mut State, _: &Call) -> Exec<Option<Value>> {
    Ok(None)
}
