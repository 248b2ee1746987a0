//! augur's and KLEE's intrinsics: symbolic inputs, assumptions, assertions.

use augur_engine::Byte;
use augur_engine::Param::{Int, Ptr};
use augur_engine::Split;
use augur_engine::{Call, ErrorKind, Exec, Executor, HandlerTable, Signature, State, Value};
use augur_expr::ExprId;

/// Register the intrinsics.
pub fn register(t: &mut HandlerTable) {
    t.add(
        "augur_make_symbolic",
        Signature::of(&[Ptr, Int, Ptr]),
        make_symbolic,
    );
    t.add(
        "klee_make_symbolic",
        Signature::of(&[Ptr, Int, Ptr]),
        make_symbolic,
    );
    t.add("augur_assume", Signature::of(&[Int]), assume);
    t.add("klee_assume", Signature::of(&[Int]), assume);
    t.add("augur_assert", Signature::of(&[Int]), assert);
    t.add("augur_int", Signature::of(&[Ptr]), int);
    t.add("klee_int", Signature::of(&[Ptr]), int);
    t.add("augur_range", Signature::of(&[Int, Int, Ptr]), range);
    t.add("klee_range", Signature::of(&[Int, Int, Ptr]), range);
    t.add("klee_is_symbolic", Signature::of(&[Int]), is_symbolic);
    t.add("klee_warning", Signature::of(&[Ptr]), ignore);
    t.add("klee_warning_once", Signature::of(&[Ptr]), ignore);
    t.add("klee_prefer_cex", Signature::of(&[Ptr, Int]), ignore);
    t.add("klee_print_expr", Signature::variadic(&[Ptr]), ignore);
}

/// A call that has no effect on the path.
fn ignore(_: &mut Executor, _: &mut State, _: &Call) -> Exec<Option<Value>> {
    Ok(None)
}

/// The bytes of a fresh symbolic input of `size` bytes named `name`.
pub fn fresh_bytes(ex: &mut Executor, st: &mut State, name: &str, size: u64) -> Vec<Byte> {
    let arr = ex.new_symbolic(st, name, size);
    let a = ex.pool.array_sym(arr);
    (0..size)
        .map(|i| {
            let idx = ex.pool.constant(i as u128, 64);
            Byte::S(ex.pool.select(a, idx))
        })
        .collect()
}

/// A fresh symbolic scalar of `width` bits named `name`.
pub fn fresh_scalar(ex: &mut Executor, st: &mut State, name: &str, width: u32) -> Value {
    let bytes = fresh_bytes(ex, st, name, width.div_ceil(8) as u64);
    augur_engine::bytes_to_scalar(&mut ex.pool, &bytes, width)
}

fn make_symbolic(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let size = ex.concretize(st, &c.args[1])? as u64;
    let name = name_arg(ex, st, &c.args[2], "unnamed")?;
    let r = ex.resolve(st, &c.args[0], size, true)?;
    let bytes = fresh_bytes(ex, st, &name, size);
    ex.write_bytes(st, &r, &bytes);
    Ok(None)
}

/// `cond != 0` as a width-1 expression.
pub fn truth(ex: &mut Executor, v: &Value) -> ExprId {
    let e = v.expr(&mut ex.pool);
    let w = ex.pool.width(e);
    if w == 1 {
        return e;
    }
    let zero = ex.pool.constant(0, w);
    ex.pool.ne(e, zero)
}

/// Constrain the path to `cond`; a false assumption ends it with `invalid-assume`.
pub fn assume(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let cond = truth(ex, &c.args[0]);
    if ex.add_constraint(st, cond)? {
        Ok(None)
    } else {
        Err(ex.error(
            st,
            ErrorKind::InvalidAssume,
            "assumption is false on this path".into(),
        ))
    }
}

/// Fork off an `assertion` error for every input where `cond` may be false.
pub fn check(ex: &mut Executor, st: &mut State, cond: ExprId, message: &str) -> Exec<()> {
    match ex.split(st, cond)? {
        Split::True => Ok(()),
        Split::False => Err(ex.error(st, ErrorKind::Assertion, message.to_string())),
        Split::Both(failing) => {
            let out = ex.error(&failing, ErrorKind::Assertion, message.to_string());
            ex.finish(*failing, out);
            Ok(())
        }
    }
}

fn assert(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let cond = truth(ex, &c.args[0]);
    check(ex, st, cond, "assertion failed")?;
    Ok(None)
}

/// The name a string argument of an intrinsic gives: `default` for NULL or "" (as KLEE
/// renames an empty name); a symbolic pointer or one outside every live object is a
/// `user` error on the path, as in KLEE.
fn name_arg(ex: &mut Executor, st: &mut State, v: &Value, default: &str) -> Exec<String> {
    let addr = match v {
        Value::Sym(_) => {
            return Err(ex.error(
                st,
                ErrorKind::User,
                "symbolic string pointer passed as a name".into(),
            ))
        }
        v => v.as_con().unwrap_or(0) as u64,
    };
    if addr == 0 {
        return Ok(default.to_string());
    }
    let valid = st
        .mem()
        .find(addr)
        .is_some_and(|o| !o.freed && addr - o.base < o.size);
    if !valid {
        return Err(ex.error(
            st,
            ErrorKind::User,
            format!("invalid string pointer 0x{addr:x} passed as a name"),
        ));
    }
    let name = ex.read_c_string(st, v, 256)?;
    Ok(if name.is_empty() {
        default.to_string()
    } else {
        name
    })
}

fn int(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let name = name_arg(ex, st, &c.args[0], "int")?;
    Ok(Some(fresh_scalar(ex, st, &name, 32)))
}

fn range(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let name = name_arg(ex, st, &c.args[2], "range")?;
    let v = fresh_scalar(ex, st, &name, 32);
    let e = v.expr(&mut ex.pool);
    let lo = c.args[0].expr(&mut ex.pool);
    let hi = c.args[1].expr(&mut ex.pool);
    let ge = ex.pool.sle(lo, e);
    let lt = ex.pool.slt(e, hi);
    let inside = ex.pool.bool_and(ge, lt);
    if !ex.add_constraint(st, inside)? {
        return Err(ex.error(st, ErrorKind::InvalidAssume, "empty range".into()));
    }
    Ok(Some(v))
}

fn is_symbolic(_: &mut Executor, _: &mut State, c: &Call) -> Exec<Option<Value>> {
    Ok(Some(Value::con(
        matches!(c.args[0], Value::Sym(_)) as u128,
        32,
    )))
}
