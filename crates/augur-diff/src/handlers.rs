//! The special functions the meta program's stubs call: revision dispatch and the
//! observation of a function's results.

use crate::meta::{META_DISPATCH, OBSERVE};
use augur_engine::bytes::value_to_bytes;
use augur_engine::memory::{Byte, FUNC_BASE, FUNC_STRIDE};
use augur_engine::{Call, Exec, Executor, HandlerTable, OutputKind, State, Value};
use augur_env::meta::{choose_revision, record_output};
use augur_ir::{FuncId, Ty};

/// The most bytes of a pointer argument's pointee that are observed.
pub const MAX_POINTEE_BYTES: u64 = 64;

/// Register the stubs' special functions.
pub fn register(t: &mut HandlerTable) {
    t.add(META_DISPATCH, dispatch);
    t.add(OBSERVE, observe);
}

/// `augur_meta_dispatch(site, mask)`: the revision whose body runs (0: the default body);
/// `mask` has bit r set for each revision r with its own body here.
fn dispatch(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let mask = c.args[1].as_con().unwrap_or(0);
    let r = choose_revision(ex, st, (1..64u32).filter(|r| mask >> r & 1 == 1));
    Ok(Some(Value::con(r as u128, 32)))
}

/// `augur_diff_observe(f, has_result, pointees, [result], args...)` after `f` returned:
/// records `f:ret` (for a pointer result, the bytes it points to, as `f:ret*`) and, for each
/// argument i with bit i of `pointees` set (pointers to data that is not const), the bytes it
/// points to as `f:argI*`.
fn observe(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let addr = c.args[0].as_con().unwrap_or(0) as u64;
    let f = FuncId((addr.saturating_sub(FUNC_BASE) / FUNC_STRIDE) as u32);
    let prog = ex.program.clone();
    let func = prog.func(f);
    // A revision's own copy (`name@revK`) reports under the source name.
    let name = func.name.split('@').next().unwrap_or_default();
    let has_ret = c.args[1].as_con() == Some(1);
    let pointees = c.args[2].as_con().unwrap_or(0);
    let args = &c.args[3 + has_ret as usize..];
    if has_ret {
        let ret = &c.args[3];
        if matches!(prog.ty(func.ret_ty).ty, Ty::Ptr) {
            record_pointee(st, &format!("{name}:ret*"), ret);
        } else {
            let bytes = value_to_bytes(&mut ex.pool, &prog, func.ret_ty, ret);
            let output = format!("{name}:ret");
            record_output(st, &output, OutputKind::Function, bytes);
        }
    }
    for (i, v) in args.iter().enumerate().take(64) {
        if pointees >> i & 1 == 1 {
            record_pointee(st, &format!("{name}:arg{i}*"), v);
        }
    }
    Ok(None)
}

/// Record what `ptr` points to as the output `name`, if it points into a live object.
fn record_pointee(st: &mut State, name: &str, ptr: &Value) {
    if let Some(bytes) = pointee(st, ptr) {
        record_output(st, name, OutputKind::Function, bytes);
    }
}

/// The bytes a concrete pointer points to, up to the end of its live object (at most
/// [`MAX_POINTEE_BYTES`]); None for null, dangling, symbolic or function pointers.
fn pointee(st: &State, ptr: &Value) -> Option<Vec<Byte>> {
    let addr = ptr.as_con()? as u64;
    let obj = st.mem.find(addr).filter(|o| !o.freed)?;
    let off = addr - obj.base;
    let n = (obj.size - off).min(MAX_POINTEE_BYTES);
    Some(obj.read(off, n).to_vec())
}
