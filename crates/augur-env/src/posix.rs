//! The system primitives under the libc models (`runtime/libc/augur_sys.h`): reads from
//! standard input and modelled files, writes captured per path (standard output and
//! error) or stored in the path's copy of a file (read back on the same path),
//! descriptors (open, close, lseek, dup, stat), errno.
//!
//! What the descriptors are matches `augur replay`'s native runs: modelled files and a
//! given standard input are regular files (seekable, of their size); an absent standard
//! input is `/dev/null` (a character device, empty, every seek gives 0); standard output
//! and error are regular files holding what was written, always appended to (a seek
//! elsewhere is ESPIPE: a deviation); a directory opens for reading by its name (reading
//! it is EISDIR; dir.c lists it). dup'd descriptors share their offset, as in POSIX.

use crate::namespace::{self, Resolved};
use crate::os_state::{env, env_mut, Contents, Descriptor, EnvData};
use crate::symlinks;
use augur_engine::Param::{Int, Ptr};
use augur_engine::{Byte, ObjKind};
use augur_engine::{Call, Exec, Executor, HandlerTable, Outcome, Signature, State, Value};
use augur_ir::LocId;

/// errno values the primitives set (Linux).
const ENOENT: u128 = 2;
const EBADF: u128 = 9;
const EACCES: u128 = 13;
const EEXIST: u128 = 17;
const ENOTDIR: u128 = 20;
const EISDIR: u128 = 21;
const EINVAL: u128 = 22;
const EMFILE: u128 = 24;
const ESPIPE: u128 = 29;
const ELOOP: u128 = symlinks::ELOOP as u128;

/// Linux open(2) flags the primitives interpret.
const O_ACCMODE: u64 = 0o3;
const O_CREAT: u64 = 0o100;
const O_EXCL: u64 = 0o200;
const O_TRUNC: u64 = 0o1000;
const O_DIRECTORY: u64 = 0o200000;
const O_NOFOLLOW: u64 = 0o400000;
/// open(2)'s flag for a descriptor that only names its file (no read permission needed).
const O_PATH: u64 = 0o10000000;

/// What `augur_sys_stat` says a descriptor is: a regular file, `/dev/null`, a directory,
/// a pipe.
const REGULAR: i64 = 1;
const CHAR_DEVICE: i64 = 2;
const DIRECTORY: i64 = 3;
const FIFO: i64 = 4;
/// `augur_sys_stat`'s kind for a FIFO or socket mknod made (`out[0]`: its `S_IFMT` bits).
const SPECIAL: i64 = 5;

/// The most descriptors a path may have open (sysconf(_SC_OPEN_MAX) in the models).
const MAX_FDS: usize = 1024;

/// Register the primitives.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_write", Signature::of(&[Int, Ptr, Int]), write);
    t.add("augur_sys_read", Signature::of(&[Int, Ptr, Int]), read);
    t.add("augur_sys_open", Signature::of(&[Ptr, Int, Int]), open);
    t.add("augur_sys_close", Signature::of(&[Int]), close);
    t.add("augur_sys_lseek", Signature::of(&[Int, Int, Int]), lseek);
    t.add("augur_sys_dup", Signature::of(&[Int, Int]), dup);
    t.add("augur_sys_stat", Signature::of(&[Int, Ptr, Ptr]), stat);
    t.add("augur_sys_unlink", Signature::of(&[Ptr]), unlink);
    t.add("augur_sys_truncate", Signature::of(&[Int, Int]), truncate);
    t.add("augur_sys_unsupported", Signature::of(&[Ptr]), unsupported);
    t.add("augur_sys_pipe", Signature::of(&[Ptr]), crate::pipes::pipe);
    t.add("augur_errno_location", Signature::of(&[]), errno_location);
    t.add("_exit", Signature::of(&[Int]), exit_now);
    t.add("_Exit", Signature::of(&[Int]), exit_now);
    t.add("augur_sys_signalled", Signature::of(&[Int]), signalled);
}

/// A primitive's result `v` in its return type's width.
pub(crate) fn ret(v: i64, ty_width: u32) -> Option<Value> {
    Some(Value::con(v as u128, ty_width))
}

/// The width of the called primitive's return type.
pub(crate) fn width(ex: &Executor, c: &Call) -> u32 {
    augur_engine::scalar_width(&ex.program, c.ret_ty)
}

/// The path's errno cell (allocated on first use).
fn errno_addr(st: &mut State) -> u64 {
    if let Some(a) = env(st).errno_addr {
        return a;
    }
    let a = st
        .mem_mut()
        .allocate(4, 4, ObjKind::Global, LocId(0), "errno".into());
    env_mut(st).errno_addr = Some(a);
    a
}

/// A failed call: errno becomes `code` and the call returns -1.
pub(crate) fn fail(st: &mut State, code: u128, ty_width: u32) -> Option<Value> {
    let a = errno_addr(st);
    let bytes: Vec<Byte> = (0..4).map(|i| Byte::C((code >> (8 * i)) as u8)).collect();
    st.mem_mut()
        .get_mut(a)
        .expect("errno cell")
        .write(0, &bytes);
    ret(-1, ty_width)
}

fn errno_location(_: &mut Executor, st: &mut State, _: &Call) -> Exec<Option<Value>> {
    Ok(Some(Value::con(errno_addr(st) as u128, 64)))
}

fn exit_now(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let code = ex.exit_code(st, &c.args[0])?;
    crate::failures::settle(ex, st)?;
    Err(Outcome::Exit(code as u32 as i32 as i64))
}

/// `augur_sys_signalled(sig)`: the process ends by signal `sig` (its default action).
fn signalled(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let sig = ex.concretize(st, &c.args[0])? as u32 as i32;
    crate::failures::settle(ex, st)?;
    Err(Outcome::Signal(sig))
}

/// The open descriptor `v` names, or None.
pub(crate) fn descriptor(ex: &mut Executor, st: &mut State, v: &Value) -> Exec<Option<usize>> {
    let fd = ex.concretize(st, v)? as u32 as i32;
    let fds = &env(st).fds;
    Ok((fd >= 0 && (fd as usize) < fds.len() && fds[fd as usize].is_some()).then_some(fd as usize))
}

fn write(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let n = ex.concretize(st, &c.args[2])? as u64;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    if n == 0 {
        return Ok(ret(0, w));
    }
    let r = ex.resolve(st, &c.args[1], n, false)?;
    let bytes = ex.read_bytes(st, &r, n);
    match env(st).fds[fd] {
        Some(Descriptor::Pipe { pipe, write: true }) => {
            return crate::pipes::write(ex, st, pipe, bytes, w);
        }
        Some(Descriptor::Pipe { write: false, .. } | Descriptor::Directory(_)) => {
            return Ok(fail(st, EBADF, w));
        }
        Some(Descriptor::Stdout) => st.write_output(false, bytes),
        Some(Descriptor::Stderr) => st.write_output(true, bytes),
        Some(Descriptor::File { file, offset }) => {
            let at = env(st).offsets[offset];
            if at.saturating_add(n) > MAX_FILE_SIZE {
                let what = format!(
                    "write of {n} bytes at offset {at}: the OS model holds files of at most \
                     {MAX_FILE_SIZE} bytes"
                );
                return Err(ex.error(st, augur_engine::ErrorKind::Unsupported, what));
            }
            let e = env_mut(st);
            e.offsets[offset] += n;
            write_file(&mut e.files[file].1, at as usize, &bytes);
        }
        // Writes to standard input (a terminal's descriptor is read-write) are dropped.
        _ => {}
    }
    Ok(ret(n as i64, w))
}

/// Store `bytes` at offset `at` of this path's copy of a file, zero-filling any gap.
fn write_file(contents: &mut Contents, at: usize, bytes: &[Byte]) {
    let mut v = contents.to_vec();
    if v.len() < at + bytes.len() {
        v.resize(at + bytes.len(), Byte::C(0));
    }
    v[at..at + bytes.len()].clone_from_slice(bytes);
    *contents = Contents::from(v);
}

fn read(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let n = ex.concretize(st, &c.args[2])? as u64;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    let e = env(st);
    let (contents, offset): (Contents, usize) = match e.fds[fd] {
        Some(Descriptor::Stdin(offset)) => (e.stdin.clone(), offset),
        Some(Descriptor::File { file, offset }) => (e.files[file].1.clone(), offset),
        Some(Descriptor::Pipe { pipe, write: false }) => {
            return crate::pipes::read(ex, st, pipe, &c.args[1], n, w);
        }
        Some(Descriptor::Directory(_)) => return Ok(fail(st, EISDIR, w)),
        Some(Descriptor::Null) => return Ok(ret(0, w)),
        _ => {
            return Ok(fail(st, EBADF, w));
        }
    };
    let pos = e.offsets[offset];
    let k = n.min((contents.len() as u64).saturating_sub(pos));
    if k > 0 {
        let r = ex.resolve(st, &c.args[1], k, true)?;
        ex.write_bytes(st, &r, &contents[pos as usize..(pos + k) as usize]);
    }
    if k > 0 {
        env_mut(st).offsets[offset] += k;
    }
    Ok(ret(k as i64, w))
}

/// The lowest free descriptor at or above `min` now refers to `d`; None when all are taken.
pub(crate) fn install(st: &mut State, d: Descriptor, min: usize) -> Option<usize> {
    let fds = &mut env_mut(st).fds;
    let fd = (min..MAX_FDS).find(|&i| fds.get(i).is_none_or(Option::is_none))?;
    env_mut(st).set_fd(fd, Some(d));
    Some(fd)
}

/// `augur_sys_open(path, flags, mode)`: a descriptor on the file `path` names; a file
/// O_CREAT makes has permission bits `mode` less the creation mask.
fn open(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let path = ex.read_c_string(st, &c.args[0], 4096)?;
    let flags = ex.concretize(st, &c.args[1])? as u64;
    let mode = ex.concretize(st, &c.args[2])? as u32;
    if path.is_empty() {
        // Linux: the empty path names nothing, even with O_CREAT.
        return Ok(fail(st, ENOENT, w));
    }
    // A link in the last place is not followed by O_NOFOLLOW (ELOOP) nor by an exclusive
    // creation (EEXIST), as on Linux.
    let exclusive = flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL;
    let follow_last = flags & O_NOFOLLOW == 0 && !exclusive;
    let path = match symlinks::follow(env(st), &path, follow_last) {
        Ok(path) => path.into_owned(),
        Err(errno) => return Ok(fail(st, errno as u128, w)),
    };
    // `path` is followed already (its last link only as `follow_last` says).
    if namespace::absolute_path(&env(st).cwd, &path) == NULL_DEVICE {
        return Ok(open_null(st, flags, w));
    }
    let name = match namespace::resolve(&env(st).cwd, &path) {
        Resolved::Inside(name) if !follow_last && symlinks::target(env(st), &name).is_some() => {
            return Ok(fail(st, if exclusive { EEXIST } else { ELOOP }, w));
        }
        Resolved::Inside(name) => name,
        // Passed through, never listed (mode 0111): only O_PATH opens it, as on Linux.
        Resolved::Parent if flags & O_PATH == 0 => return Ok(fail(st, EACCES, w)),
        Resolved::Parent => return Ok(open_directory(st, &path, flags, w)),
        // Nothing outside the working directory can be opened or made.
        _ if flags & O_CREAT != 0 => return Ok(fail(st, EACCES, w)),
        _ => return Ok(fail(st, ENOENT, w)),
    };
    if namespace::is_dir(env(st), &name) {
        return Ok(open_directory(st, &path, flags, w));
    }
    let e = env_mut(st);
    let file = match e.file(&name) {
        Some(_) if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL => {
            return Ok(fail(st, EEXIST, w));
        }
        Some(_) if flags & O_DIRECTORY != 0 => return Ok(fail(st, ENOTDIR, w)),
        Some(i) => i,
        None if flags & O_CREAT != 0 => {
            if let Err(errno) = namespace::creatable(e, &name) {
                return Ok(fail(st, errno as u128, w));
            }
            e.files.push((name, Contents::from(Vec::new())));
            let made = e.files.len() - 1;
            crate::modes::set_created(e, made, mode, crate::modes::FILE_MODE);
            made
        }
        None => {
            let errno = namespace::absent(e, &name);
            return Ok(fail(st, errno as u128, w));
        }
    };
    if let Some(&kind) = e.special.get(&file) {
        let errno = open_special(ex, st, kind, flags, &path)?;
        return Ok(fail(st, errno as u128, w));
    }
    let e = env_mut(st);
    if flags & O_TRUNC != 0 {
        e.files[file].1 = Contents::from(Vec::new());
    }
    e.offsets.push(0);
    let offset = e.offsets.len() - 1;
    match install(st, Descriptor::File { file, offset }, 0) {
        Some(fd) => Ok(ret(fd as i64, w)),
        None => Ok(fail(st, EMFILE, w)),
    }
}

/// The one device of the model's world: `/dev/null`, as the native run has it.
const NULL_DEVICE: &str = "/dev/null";

/// Does `path`, its links followed (a link to `/dev/null`, as `ln -s /dev/null f` makes),
/// name [`NULL_DEVICE`]?
fn names_null_device(env: &EnvData, path: &str) -> bool {
    symlinks::follow(env, path, true)
        .is_ok_and(|p| namespace::absolute_path(&env.cwd, &p) == NULL_DEVICE)
}

/// Opening `/dev/null` (freopen_safer opens it to keep descriptors 0 to 2 taken): a
/// descriptor whose reads find the end and whose writes are dropped; EEXIST for an
/// exclusive creation, ENOTDIR for a directory, as on Linux.
fn open_null(st: &mut State, flags: u64, w: u32) -> Option<Value> {
    if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL {
        return fail(st, EEXIST, w);
    }
    if flags & O_DIRECTORY != 0 {
        return fail(st, ENOTDIR, w);
    }
    match install(st, Descriptor::Null, 0) {
        Some(fd) => ret(fd as i64, w),
        None => fail(st, EMFILE, w),
    }
}

/// Opening the directory `path` names: a descriptor to read it by (its entries are
/// read through dir.c, by its name), as opendir and the users of `openat` open one.
/// Creating it anew is EEXIST, writing or creating it EISDIR, as on Linux.
fn open_directory(st: &mut State, path: &str, flags: u64, w: u32) -> Option<Value> {
    if flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL {
        return fail(st, EEXIST, w);
    }
    if flags & O_ACCMODE != 0 || flags & O_CREAT != 0 {
        return fail(st, EISDIR, w);
    }
    let name = namespace::absolute_path(&env(st).cwd, path);
    match install(st, Descriptor::Directory(name), 0) {
        Some(fd) => ret(fd as i64, w),
        None => fail(st, EMFILE, w),
    }
}

/// Linux's errno for opening a socket, or a FIFO for writing with no reader.
const ENXIO: u32 = 6;
/// open(2)'s non-blocking flag.
const O_NONBLOCK: u64 = 0o4000;

/// Opening the FIFO or socket (`kind`: its `S_IFMT` bits) named `name`: the errno of a
/// socket or of a non-blocking FIFO writer (ENXIO, no process reads it); any other open
/// of a FIFO would wait for a process at its other end, which the model has not: the
/// path ends as unsupported.
fn open_special(ex: &Executor, st: &State, kind: u32, flags: u64, name: &str) -> Exec<u32> {
    const S_IFIFO: u32 = 0o010000;
    if kind != S_IFIFO || (flags & O_NONBLOCK != 0 && flags & O_ACCMODE != 0) {
        return Ok(ENXIO);
    }
    Err(ex.error(
        st,
        augur_engine::ErrorKind::Unsupported,
        format!("opening the FIFO {name} waits for another process, which the model has not"),
    ))
}

fn lseek(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let off = ex.concretize(st, &c.args[1])? as u64 as i64;
    let whence = ex.concretize(st, &c.args[2])? as u32;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    // (offset number of a seekable descriptor, position, length)
    let e = env(st);
    let (offset, pos, len) = match e.fds[fd] {
        Some(Descriptor::File { file, offset }) => {
            (Some(offset), e.offsets[offset], e.files[file].1.len())
        }
        Some(Descriptor::Stdin(_)) if e.stdin.is_empty() => return Ok(ret(0, w)),
        Some(Descriptor::Stdin(offset)) => (Some(offset), e.offsets[offset], e.stdin.len()),
        Some(Descriptor::Stdout) => (None, st.stdout().len(), st.stdout().len() as usize),
        Some(Descriptor::Stderr) | None => (None, st.stderr().len(), st.stderr().len() as usize),
        Some(Descriptor::Pipe { .. }) => return Ok(fail(st, ESPIPE, w)),
        Some(Descriptor::Null) => return Ok(ret(0, w)),
        // A directory's only position the model knows is its start.
        Some(Descriptor::Directory(_)) if off == 0 && whence <= 1 => return Ok(ret(0, w)),
        Some(Descriptor::Directory(_)) => return Ok(fail(st, EINVAL, w)),
    };
    let base = match whence {
        0 => 0,
        1 => pos as i64,
        2 => len as i64,
        _ => {
            return Ok(fail(st, EINVAL, w));
        }
    };
    let Some(new) = base.checked_add(off).filter(|n| *n >= 0) else {
        return Ok(fail(st, EINVAL, w));
    };
    match offset {
        Some(o) => env_mut(st).offsets[o] = new as u64,
        // Output is only ever appended: staying at the end is the one position allowed.
        None if new as u64 == pos => {}
        None => {
            return Ok(fail(st, ESPIPE, w));
        }
    }
    Ok(ret(new, w))
}

fn dup(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let min = ex.concretize(st, &c.args[1])? as u32 as i32;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    if min < 0 || min as usize >= MAX_FDS {
        return Ok(fail(st, EINVAL, w));
    }
    let d = env(st).fds[fd].clone().expect("open descriptor");
    match install(st, d, min as usize) {
        Some(new) => Ok(ret(new as i64, w)),
        None => Ok(fail(st, EMFILE, w)),
    }
}

/// The number of standard input in `augur_sys_stat`'s answers (standard output and error
/// follow it, then the pipes); files are numbered from 0 by their index. The C library
/// knows it as `AUGUR_SYS_STDIN_NUMBER` (runtime/libc/augur_sys.h).
const STREAM_NUMBERS: u64 = 1 << 32;

/// `augur_sys_stat(fd, path, out)`: what `path` (when not NULL) or else `fd` is: 1 a
/// regular file (`out[0]` = its size, `out[1]` = its number, the same for every
/// descriptor of the file), 2 a character device (`/dev/null`), 4 a pipe (`out[0]` = the
/// bytes in it), -1 with errno.
fn stat(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let by_path = ex.concretize(st, &c.args[1])? != 0;
    // Standard input, output and error, then pipes, are numbered apart from the files,
    // whose numbers are their indices: a file made later is never the same as stdin
    // (split compares its input's number with each output's).
    let n = STREAM_NUMBERS;
    let mut kind = REGULAR;
    let (size, number) = if by_path {
        let path = ex.read_c_string(st, &c.args[1], 4096)?;
        if names_null_device(env(st), &path) {
            return Ok(ret(CHAR_DEVICE, w));
        }
        let name = match symlinks::lookup(env(st), &path, true) {
            Ok(Resolved::Inside(name)) => name,
            Err(errno) => return Ok(fail(st, errno as u128, w)),
            _ => return Ok(fail(st, ENOENT, w)),
        };
        let e = env(st);
        match e.file(&name) {
            Some(i) if e.special.contains_key(&i) => {
                kind = SPECIAL;
                (e.special[&i] as usize, i as u64)
            }
            Some(i) => (e.files[i].1.len(), i as u64),
            None => {
                let errno = namespace::absent(e, &name);
                return Ok(fail(st, errno as u128, w));
            }
        }
    } else {
        let Some(fd) = descriptor(ex, st, &c.args[0])? else {
            return Ok(fail(st, EBADF, w));
        };
        let e = env(st);
        match e.fds[fd] {
            Some(Descriptor::File { file, .. }) => (e.files[file].1.len(), file as u64),
            Some(Descriptor::Stdin(_)) if e.stdin.is_empty() => return Ok(ret(CHAR_DEVICE, w)),
            Some(Descriptor::Null) => return Ok(ret(CHAR_DEVICE, w)),
            Some(Descriptor::Stdin(_)) => (e.stdin.len(), n),
            Some(Descriptor::Stdout) => (st.stdout().len() as usize, n + 1),
            Some(Descriptor::Stderr) | None => (st.stderr().len() as usize, n + 2),
            Some(Descriptor::Pipe { pipe, .. }) => {
                kind = FIFO;
                (e.pipes[pipe].unread.len(), n + 3 + pipe as u64)
            }
            // The caller describes it by its name (augur_sys_fd_dir).
            Some(Descriptor::Directory(_)) => return Ok(ret(DIRECTORY, w)),
        }
    };
    let r = ex.resolve(st, &c.args[2], 16, true)?;
    let bytes: Vec<Byte> = [size as u64, number]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .map(Byte::C)
        .collect();
    ex.write_bytes(st, &r, &bytes);
    Ok(ret(kind, w))
}

fn close(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    match descriptor(ex, st, &c.args[0])? {
        Some(fd) => {
            env_mut(st).set_fd(fd, None);
            Ok(ret(0, w))
        }
        None => Ok(fail(st, EBADF, w)),
    }
}

/// `augur_sys_unlink(path)`: the file loses its name (descriptors open on it keep
/// working, as on Linux); -1 with ENOENT if no file has that name.
fn unlink(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let path = ex.read_c_string(st, &c.args[0], 4096)?;
    match symlinks::lookup(env(st), &path, false) {
        Err(errno) => Ok(fail(st, errno as u128, w)),
        Ok(Resolved::Inside(name)) if namespace::is_file(env(st), &name) => {
            namespace::forget(env_mut(st), &name);
            Ok(ret(0, w))
        }
        Ok(Resolved::Inside(name)) if namespace::is_dir(env(st), &name) => Ok(fail(st, EISDIR, w)),
        _ => Ok(fail(st, ENOENT, w)),
    }
}

/// `augur_sys_unsupported(what)`: the models cannot answer (a system call they do not
/// model): the path ends as `unsupported` with `what` as its message.
fn unsupported(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let what = ex.read_c_string(st, &c.args[0], 4096)?;
    Err(ex.error(st, augur_engine::ErrorKind::Unsupported, what))
}

/// The largest file the OS model holds, in bytes: a file is its bytes, in each path that
/// has it. A program making a larger one (`truncate -s 3G f`, or a write past a seek to
/// 3 GB, which Linux makes sparse) ends the path as `unsupported` rather than failing
/// where Linux succeeds.
const MAX_FILE_SIZE: u64 = 16 << 20;

/// `augur_sys_truncate(fd, len)`: the file of `fd` now has `len` bytes (zero-filled when
/// it grows); -1 with EINVAL for a negative length or a descriptor that is not a file;
/// past [`MAX_FILE_SIZE`], the path ends as `unsupported`.
fn truncate(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let len = ex.concretize(st, &c.args[1])? as u64 as i64;
    let Some(fd) = descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    let Some(Descriptor::File { file, .. }) = env(st).fds[fd] else {
        return Ok(fail(st, EINVAL, w));
    };
    if len < 0 {
        return Ok(fail(st, EINVAL, w));
    }
    if len as u64 > MAX_FILE_SIZE {
        let what = format!(
            "ftruncate to {len} bytes: the OS model holds files of at most {MAX_FILE_SIZE} bytes"
        );
        return Err(ex.error(st, augur_engine::ErrorKind::Unsupported, what));
    }
    let contents = &mut env_mut(st).files[file].1;
    let mut v = contents.to_vec();
    v.resize(len as usize, Byte::C(0));
    *contents = Contents::from(v);
    Ok(ret(0, w))
}

/// Point glibc's `program_invocation_name` and `program_invocation_short_name` (when the
/// linked program has them: the models define them) at `argv[0]` and at its last `/`
/// component, as glibc does before `main`. `argv` is the address of the argv array;
/// argv[0] is concrete (the program's path).
pub fn set_invocation_name(ex: &Executor, st: &mut State, argv: u64) {
    let word = |st: &State, addr: u64| -> Option<u64> {
        let o = st.mem().find(addr)?;
        let bytes = o.peek(addr - o.base, 8)?;
        bytes.iter().rev().try_fold(0u64, |acc, b| match b {
            Byte::C(v) => Some(acc << 8 | *v as u64),
            _ => None,
        })
    };
    let Some(name) = word(st, argv) else { return };
    let Some(obj) = st.mem().find(name) else {
        return;
    };
    let Some(text) = obj.peek(name - obj.base, obj.size - (name - obj.base)) else {
        return;
    };
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
        if let Some(o) = st.mem_mut().get_mut(addr) {
            o.write(0, &bytes);
        }
    }
}
