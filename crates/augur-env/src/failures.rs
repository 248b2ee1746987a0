//! `--max-fail N`: the modelled system calls may fail, up to N times per path, as KLEE's
//! POSIX runtime lets them.
//!
//! Each modelled system call (`runtime/libc/fd.c`) first calls `augur_sys_fail(kind)`.
//! Which call of each kind fails is an input of the test: one 4-byte object per kind,
//! `fail:read`, `fail:write`, ... (created after the files, in [`KINDS`] order), holding
//! the number of the call of that kind that fails on the path, counting from 1; 0 means
//! none does. At the k-th call of a kind, while the path has failures left, the path
//! splits on `fail:KIND == k`: one side fails with the kind's errno, the other goes on.
//! So each kind fails at most once per path, as in KLEE (where each kind's symbolic
//! counter names one call). The kinds that did not fail are pinned to 0 when the budget
//! runs out and when the path exits (on a path ending otherwise, such a kind's number
//! lies beyond its calls). `augur replay` makes the same call fail natively
//! (`runtime/replay/replay.c`).

use crate::intrinsics::fresh_scalar;
use augur_engine::Param::Int;
use augur_engine::{Call, Exec, Executor, HandlerTable, Signature, Split, State, Value};
use augur_expr::ExprId;

/// The system calls that may fail, in `AUGUR_FAIL_*` order (`runtime/libc/augur_sys.h`):
/// the kind's name (its object is `fail:NAME`) and the errno (Linux) a failing call sets.
pub const KINDS: [(&str, u128); 7] = [
    ("read", 5),      // EIO
    ("write", 28),    // ENOSPC
    ("open", 13),     // EACCES
    ("close", 5),     // EIO
    ("lseek", 29),    // ESPIPE
    ("stat", 12),     // ENOMEM
    ("ftruncate", 5), // EIO
];

/// The prefix of the objects naming the failing calls (`fail:read`, ...).
pub const OBJECT_PREFIX: &str = "fail:";

/// A path's failure budget and calls so far (per-path extension data).
#[derive(Clone, Debug)]
struct Failures {
    /// Failures the path may still have.
    left: u32,
    /// Calls of each kind made so far.
    calls: [u32; KINDS.len()],
    /// The kinds that failed.
    failed: [bool; KINDS.len()],
    /// Each kind's object, as a 32-bit value: the number of the call that fails.
    choice: [ExprId; KINDS.len()],
}

/// Give `st` a budget of `max_fail` failures (nothing when 0): one symbolic object per
/// kind, in [`KINDS`] order.
pub fn prepare(ex: &mut Executor, st: &mut State, max_fail: u32) {
    if max_fail == 0 {
        return;
    }
    let choice = KINDS.map(|(name, _)| {
        fresh_scalar(ex, st, &format!("{OBJECT_PREFIX}{name}"), 32).expr(&mut ex.pool)
    });
    st.ext_mut().insert(Failures {
        left: max_fail,
        calls: [0; KINDS.len()],
        failed: [false; KINDS.len()],
        choice,
    });
}

/// Register `augur_sys_fail`.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_fail", Signature::of(&[Int]), fail);
}

/// `augur_sys_fail(kind)`: the errno this call fails with, or 0. When the call may fail
/// and may not, the path splits: this state fails, the other redoes the call (which now
/// goes ahead).
fn fail(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = augur_engine::scalar_width(&ex.program, c.ret_ty);
    let kind = ex.concretize(st, &c.args[0])? as usize;
    let go_ahead = Ok(Some(Value::con(0, w)));
    let Some(f) = st.ext().get::<Failures>() else {
        return go_ahead;
    };
    if f.left == 0 || kind >= KINDS.len() {
        return go_ahead;
    }
    let (n, choice) = (f.calls[kind] + 1, f.choice[kind]);
    let number = ex.pool.constant(n as u128, 32);
    let here = ex.pool.eq(choice, number);
    let fails = match ex.split(st, here)? {
        Split::Both(mut other) => {
            other.frame_mut().pc -= 1;
            ex.enqueue(*other);
            true
        }
        Split::True => true,
        Split::False => false,
    };
    let f = st
        .ext_mut()
        .get_mut::<Failures>()
        .expect("the path's failures");
    f.calls[kind] = n;
    if !fails {
        return go_ahead;
    }
    f.left -= 1;
    f.failed[kind] = true;
    if f.left == 0 {
        settle(ex, st)?;
    }
    Ok(Some(Value::con(KINDS[kind].1, w)))
}

/// Pin each kind that did not fail on `st` to 0 (none fails), so that its test says
/// plainly which calls failed: when the budget runs out, and when the path exits.
pub fn settle(ex: &mut Executor, st: &mut State) -> Exec<()> {
    let Some(f) = st.ext().get::<Failures>() else {
        return Ok(());
    };
    let unfailed: Vec<ExprId> = (0..KINDS.len())
        .filter(|&k| !f.failed[k])
        .map(|k| f.choice[k])
        .collect();
    let zero = ex.pool.constant(0, 32);
    for choice in unfailed {
        let none = ex.pool.eq(choice, zero);
        ex.add_constraint(st, none)?;
    }
    Ok(())
}
