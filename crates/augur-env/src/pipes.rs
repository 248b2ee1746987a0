//! Pipes (`pipe`, `pipe2`): bytes written to the write end are read, in order, from the
//! read end, all within the one process (there is no other: runtime/libc/sandbox.c).
//! Where Linux would block for ever, the process being the only one that could unblock it
//! (reading an empty pipe whose write end is open, writing a full one), or kill the
//! process with SIGPIPE (writing a pipe nobody can read), the path ends as `unsupported`
//! saying so: the native run would hang or die there.

use crate::os_state::{env, env_mut, Descriptor, Pipe};
use crate::posix::{fail, install, ret, width};
use augur_engine::{Byte, Call, ErrorKind, Exec, Executor, State, Value};

/// Linux's pipe capacity (64 KiB): a write beyond it would wait for a reader.
const CAPACITY: usize = 65536;

/// errno when every descriptor is taken.
const EMFILE: u128 = 24;

/// `augur_sys_pipe(fds)`: a new pipe, its read end in `fds[0]` and its write end in
/// `fds[1]` (the two lowest free descriptors); 0, or -1 with EMFILE.
pub(crate) fn pipe(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let number = env(st).pipes.len();
    env_mut(st).pipes.push(Pipe::default());
    let ends = [false, true].map(|write| Descriptor::Pipe {
        pipe: number,
        write,
    });
    let Some(read_end) = install(st, ends[0].clone(), 0) else {
        return Ok(fail(st, EMFILE, w));
    };
    let Some(write_end) = install(st, ends[1].clone(), 0) else {
        env_mut(st).set_fd(read_end, None);
        return Ok(fail(st, EMFILE, w));
    };
    let bytes: Vec<Byte> = [read_end as u32, write_end as u32]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .map(Byte::C)
        .collect();
    let r = ex.resolve(st, &c.args[0], 8, true)?;
    ex.write_bytes(st, &r, &bytes);
    Ok(ret(0, w))
}

/// The end of the path where Linux would not return: `why`.
fn would_not_return(ex: &mut Executor, st: &mut State, why: &str) -> Exec<Option<Value>> {
    Err(ex.error(st, ErrorKind::Unsupported, why.to_string()))
}

/// `write` of `bytes` to pipe `pipe`'s write end.
pub(crate) fn write(
    ex: &mut Executor,
    st: &mut State,
    pipe: usize,
    bytes: Vec<Byte>,
    w: u32,
) -> Exec<Option<Value>> {
    let p = &env(st).pipes[pipe];
    if p.readers == 0 {
        return would_not_return(ex, st, "write to a pipe no descriptor reads (SIGPIPE)");
    }
    if p.unread.len() + bytes.len() > CAPACITY {
        return would_not_return(
            ex,
            st,
            "write to a full pipe only this process reads would block for ever",
        );
    }
    let n = bytes.len();
    env_mut(st).pipes[pipe].unread.extend(bytes);
    Ok(ret(n as i64, w))
}

/// `read` of up to `n` bytes into `buf` from pipe `pipe`'s read end.
pub(crate) fn read(
    ex: &mut Executor,
    st: &mut State,
    pipe: usize,
    buf: &Value,
    n: u64,
    w: u32,
) -> Exec<Option<Value>> {
    let p = &env(st).pipes[pipe];
    if p.unread.is_empty() && n > 0 {
        if p.writers == 0 {
            return Ok(ret(0, w));
        }
        return would_not_return(
            ex,
            st,
            "read from an empty pipe only this process writes would block for ever",
        );
    }
    let k = (n as usize).min(p.unread.len());
    let taken: Vec<Byte> = env_mut(st).pipes[pipe].unread.drain(..k).collect();
    if k > 0 {
        let r = ex.resolve(st, buf, k as u64, true)?;
        ex.write_bytes(st, &r, &taken);
    }
    Ok(ret(k as i64, w))
}
