//! The malloc family on the engine's heap objects: every block is a separate object, never
//! reused, so use-after-free, double free and invalid free are caught.

use augur_engine::Param::{Int, Ptr};
use augur_engine::{Call, ErrorKind, Exec, Executor, HandlerTable, Signature, State, Value};
use augur_engine::{ObjKind, MAX_OBJECT_SIZE};

/// Register the allocation functions.
pub fn register(t: &mut HandlerTable) {
    t.add("malloc", Signature::of(&[Int]), malloc);
    t.add("calloc", Signature::of(&[Int, Int]), calloc);
    t.add("realloc", Signature::of(&[Ptr, Int]), realloc);
    t.add("free", Signature::of(&[Ptr]), free);
    t.add("aligned_alloc", Signature::of(&[Int, Int]), aligned_alloc);
    t.add("memalign", Signature::of(&[Int, Int]), aligned_alloc);
}

/// A new heap block; a request beyond the model's largest object fails like malloc (NULL).
fn allocate(ex: &mut Executor, st: &mut State, size: u64) -> Value {
    if size > MAX_OBJECT_SIZE {
        return Value::con(0, 64);
    }
    let loc = ex.current_loc(st);
    let base = st
        .mem_mut()
        .allocate(size, 16, ObjKind::Heap, loc, "heap block".into());
    Value::con(base as u128, 64)
}

/// `aligned_alloc(align, size)` and `memalign`: every block is aligned far beyond any
/// alignment a program asks for (see `Memory::allocate`); an alignment that is not a
/// power of two gives NULL (as glibc 2.38's aligned_alloc; errno is left to the models).
fn aligned_alloc(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let align = ex.concretize(st, &c.args[0])? as u64;
    let n = ex.concretize(st, &c.args[1])? as u64;
    if !align.is_power_of_two() {
        return Ok(Some(Value::con(0, 64)));
    }
    Ok(Some(allocate(ex, st, n)))
}

fn malloc(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let n = ex.concretize(st, &c.args[0])? as u64;
    Ok(Some(allocate(ex, st, n)))
}

fn calloc(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let n = ex.concretize(st, &c.args[0])? as u64;
    let size = ex.concretize(st, &c.args[1])? as u64;
    Ok(Some(allocate(ex, st, n.saturating_mul(size))))
}

/// Check that `p` is the start of a live heap block; returns its base (None for NULL).
fn heap_block(ex: &mut Executor, st: &mut State, p: &Value) -> Exec<Option<u64>> {
    let addr = ex.concretize(st, p)? as u64;
    if addr == 0 {
        return Ok(None);
    }
    match st.mem().find(addr) {
        Some(o) if o.kind == ObjKind::Heap && o.base == addr && o.freed => {
            Err(ex.error(st, ErrorKind::DoubleFree, "memory freed twice".into()))
        }
        Some(o) if o.kind == ObjKind::Heap && o.base == addr => Ok(Some(addr)),
        Some(o) => {
            let msg = format!(
                "free of `{}` at offset {}, which is not a heap block start",
                o.name,
                addr - o.base
            );
            Err(ex.error(st, ErrorKind::InvalidFree, msg))
        }
        None => Err(ex.error(
            st,
            ErrorKind::InvalidFree,
            format!("free of 0x{addr:x}, which is not a heap block"),
        )),
    }
}

fn release(st: &mut State, base: u64) {
    if let Some(o) = st.mem_mut().get_mut(base) {
        o.freed = true;
    }
}

fn free(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    if let Some(base) = heap_block(ex, st, &c.args[0])? {
        release(st, base);
    }
    Ok(None)
}

fn realloc(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let old = heap_block(ex, st, &c.args[0])?;
    let n = ex.concretize(st, &c.args[1])? as u64;
    let new = allocate(ex, st, n);
    let new_base = new.as_con().expect("allocation is concrete") as u64;
    if new_base == 0 {
        return Ok(Some(new));
    }
    if let Some(base) = old {
        let obj = st.mem().get(base).expect("live block");
        let keep = obj.size.min(n);
        let bytes = obj.read(0, keep, &mut ex.pool);
        st.mem_mut()
            .get_mut(new_base)
            .expect("just allocated")
            .write(0, &bytes);
        release(st, base);
    }
    Ok(Some(new))
}
