//! SV-COMP's verifier functions: `__VERIFIER_nondet_*` (each call a fresh symbolic
//! object), `__VERIFIER_assume`, `reach_error`.

use crate::intrinsics::{assume, fresh_scalar};
use augur_engine::Param::Int;
use augur_engine::{Call, ErrorKind, Exec, Executor, HandlerTable, Signature, State, Value};

/// Register the SV-COMP functions.
pub fn register(t: &mut HandlerTable) {
    for name in NONDET {
        t.add(name, Signature::of(&[]), nondet);
    }
    t.add("__VERIFIER_assume", Signature::of(&[Int]), assume);
    t.add("reach_error", Signature::of(&[]), reach_error);
    t.add("__VERIFIER_error", Signature::of(&[]), reach_error);
}

const NONDET: &[&str] = &[
    "__VERIFIER_nondet_bool",
    "__VERIFIER_nondet_char",
    "__VERIFIER_nondet_uchar",
    "__VERIFIER_nondet_short",
    "__VERIFIER_nondet_ushort",
    "__VERIFIER_nondet_int",
    "__VERIFIER_nondet_uint",
    "__VERIFIER_nondet_long",
    "__VERIFIER_nondet_ulong",
    "__VERIFIER_nondet_longlong",
    "__VERIFIER_nondet_ulonglong",
    "__VERIFIER_nondet_float",
    "__VERIFIER_nondet_double",
    "__VERIFIER_nondet_pointer",
    "__VERIFIER_nondet_size_t",
    "__VERIFIER_nondet_unsigned",
];

fn nondet(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let width = augur_engine::scalar_width(&ex.program, c.ret_ty);
    Ok(Some(fresh_scalar(ex, st, "nondet", width)))
}

fn reach_error(ex: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    Err(ex.error(st, ErrorKind::ReachError, "reach_error() called".into()))
}
