//! The directory-listing primitive under the libc models' `opendir`/`readdir`
//! (`runtime/libc/dir.c`): the names of the path's modelled files, by number.
//!
//! `augur_sys_name(index, buf, cap)` copies the name of file number `index` (the number
//! `augur_sys_stat` reports for it) into `buf`, truncated to `cap - 1` bytes and
//! NUL-terminated, and returns its full length; 0 for a file that was unlinked (it has no
//! name any more); -1 past the last file.

use augur_engine::Param::{Int, Ptr};
use augur_engine::{Byte, Call, Exec, Executor, HandlerTable, Signature, State, Value};

/// Register the primitive.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_name", Signature::of(&[Int, Ptr, Int]), name);
}

/// The name unlink() leaves on a file (see posix.rs): no path can name it.
fn is_unlinked(name: &str) -> bool {
    name.starts_with('\0')
}

fn name(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = augur_engine::scalar_width(&ex.program, c.ret_ty);
    let index = ex.concretize(st, &c.args[0])? as u64 as usize;
    let cap = ex.concretize(st, &c.args[2])? as u64 as usize;
    let Some((name, _)) = crate::os_state::env(st).files.get(index) else {
        return Ok(Some(Value::con(u64::MAX as u128, w)));
    };
    if is_unlinked(name) {
        return Ok(Some(Value::con(0, w)));
    }
    let len = name.len();
    if cap > 0 {
        let mut bytes: Vec<Byte> = name.bytes().take(cap - 1).map(Byte::C).collect();
        bytes.push(Byte::C(0));
        let r = ex.resolve(st, &c.args[1], bytes.len() as u64, true)?;
        ex.write_bytes(st, &r, &bytes);
    }
    Ok(Some(Value::con(len as u128, w)))
}
