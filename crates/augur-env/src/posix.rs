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

/// Point glibc's `program_invocation_name` and `program_invocation_short_name` (when the
/// linked program has them: the models define them) at `argv[0]` and at its last `/`
/// component, as glibc does before `main`. `argv` is the address of the argv array;
/// argv[0] is concrete (the program's path).
pub fn set_invocation_name(ex: &Executor, st: &mut State, argv: u64) {
    let word = |st: &State, addr: u64| -> Option<u64> {
        let o = st.mem.find(addr)?;
        let bytes = o.read(addr - o.base, 8);
        bytes.iter().rev().try_fold(0u64, |acc, b| match b {
            Byte::C(v) => Some(acc << 8 | *v as u64),
            _ => None,
        })
    };
    let Some(name) = word(st, argv) else { return };
    let Some(obj) = st.mem.find(name) else { return };
    let text = obj.read(name - obj.base, obj.size - (name - obj.base));
    let len = text
        .iter()
        .position(|b| *b == Byte::C(0))
        .unwrap_or(text.len());
    let short = text[..len]
        .iter()
        .rposition(|b| *b == Byte::C(b'/'))
        .map_or(name, |i| name + i as u64 + 1);
    for (global, value) in [
        ("program_invocation_name", name),
        ("program_invocation_short_name", short),
    ] {
        let Some(g) = ex.program.globals.iter().position(|g| g.name == global) else {
            continue;
        };
        let addr = ex.global_addr(augur_ir::GlobalId(g as u32));
        let bytes: Vec<Byte> = value.to_le_bytes().iter().map(|b| Byte::C(*b)).collect();
        if let Some(o) = st.mem.get_mut(addr) {
            o.write(0, &bytes);
        }
    }
}
