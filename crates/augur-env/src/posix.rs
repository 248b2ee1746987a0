//! The system primitives under the libc models (`runtime/libc/augur_sys.h`): reads from
//! standard input and modelled files, writes captured per path, descriptors, errno.

use augur_engine::Param::{Int, Ptr};
use augur_engine::{Byte, ObjKind};
use augur_engine::{Call, Exec, Executor, HandlerTable, Outcome, Signature, State, Value};
use augur_engine::{Contents, Descriptor};
use augur_ir::LocId;

/// errno values the primitives set.
const EBADF: u128 = 9;
const ENOENT: u128 = 2;

/// Register the primitives.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_write", Signature::of(&[Int, Ptr, Int]), write);
    t.add("augur_sys_read", Signature::of(&[Int, Ptr, Int]), read);
    t.add("augur_sys_open", Signature::of(&[Ptr, Int]), open);
    t.add("augur_sys_close", Signature::of(&[Int]), close);
    t.add("augur_errno_location", Signature::of(&[]), errno_location);
    t.add("_exit", Signature::of(&[Int]), exit_now);
    t.add("_Exit", Signature::of(&[Int]), exit_now);
}

fn ret(v: i64, ty_width: u32) -> Option<Value> {
    Some(Value::con(v as u128, ty_width))
}

fn width(ex: &Executor, c: &Call) -> u32 {
    augur_engine::scalar_width(&ex.program, c.ret_ty)
}

/// The path's errno cell (allocated on first use).
fn errno_addr(st: &mut State) -> u64 {
    if let Some(a) = st.env.errno_addr {
        return a;
    }
    let a = st
        .mem
        .allocate(4, 4, ObjKind::Global, LocId(0), "errno".into());
    st.env.errno_addr = Some(a);
    a
}

fn set_errno(st: &mut State, code: u128) {
    let a = errno_addr(st);
    let bytes: Vec<Byte> = (0..4).map(|i| Byte::C((code >> (8 * i)) as u8)).collect();
    st.mem.get_mut(a).expect("errno cell").write(0, &bytes);
}

fn errno_location(_: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    Ok(Some(Value::con(errno_addr(st) as u128, 64)))
}

fn exit_now(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let code = ex.exit_code(st, &c.args[0])?;
    Err(Outcome::Exit(code as u32 as i32 as i64))
}

fn descriptor(ex: &mut Executor, st: &mut State, v: &Value) -> Exec<Option<usize>> {
    let fd = ex.concretize(st, v)? as u32 as i32;
    Ok(
        (fd >= 0 && (fd as usize) < st.env.fds.len() && st.env.fds[fd as usize].is_some())
            .then_some(fd as usize),
    )
}

fn write(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let n = ex.concretize(st, &c.args[2])? as u64;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        set_errno(st, EBADF);
        return Ok(ret(-1, w));
    };
    if n == 0 {
        return Ok(ret(0, w));
    }
    let r = ex.resolve(st, &c.args[1], n, false)?;
    let bytes = ex.read_bytes(st, &r, n);
    match st.env.fds[fd] {
        Some(Descriptor::Stdout) => st.stdout.extend(bytes),
        Some(Descriptor::Stderr) => st.stderr.extend(bytes),
        // Writes to files and to standard input are accepted and dropped.
        _ => {}
    }
    Ok(ret(n as i64, w))
}

fn read(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let n = ex.concretize(st, &c.args[2])? as u64;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        set_errno(st, EBADF);
        return Ok(ret(-1, w));
    };
    let (contents, pos): (Contents, u64) = match st.env.fds[fd] {
        Some(Descriptor::Stdin(pos)) => (st.env.stdin.clone(), pos),
        Some(Descriptor::File { file, pos }) => (st.env.files[file].1.clone(), pos),
        _ => {
            set_errno(st, EBADF);
            return Ok(ret(-1, w));
        }
    };
    let k = n.min((contents.len() as u64).saturating_sub(pos));
    if k > 0 {
        let r = ex.resolve(st, &c.args[1], k, true)?;
        ex.write_bytes(st, &r, &contents[pos as usize..(pos + k) as usize]);
    }
    match &mut st.env.fds[fd] {
        Some(Descriptor::Stdin(p)) | Some(Descriptor::File { pos: p, .. }) => *p += k,
        _ => {}
    }
    Ok(ret(k as i64, w))
}

fn open(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let path = ex.read_c_string(st, &c.args[0], 4096)?;
    let Some(file) = st.env.files.iter().position(|(name, _)| *name == path) else {
        set_errno(st, ENOENT);
        return Ok(ret(-1, w));
    };
    let d = Some(Descriptor::File { file, pos: 0 });
    let fd = match st.env.fds.iter().position(Option::is_none) {
        Some(free) => {
            st.env.fds[free] = d;
            free
        }
        None => {
            st.env.fds.push(d);
            st.env.fds.len() - 1
        }
    };
    Ok(ret(fd as i64, w))
}

fn close(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    match descriptor(ex, st, &c.args[0])? {
        Some(fd) => {
            st.env.fds[fd] = None;
            Ok(ret(0, w))
        }
        None => {
            set_errno(st, EBADF);
            Ok(ret(-1, w))
        }
    }
}
