//! The primitives that name things in the modelled file system (`runtime/libc/augur_sys.h`):
//! resolving a path, mkdir, rmdir, rename, link, symlink, readlink, mknod, chdir, getcwd and
//! a directory descriptor's name, over `namespace.rs` and `symlinks.rs`.
//! Each returns 0 (getcwd: the name's length with its NUL) or -1 with errno set.

use crate::modes;
use crate::namespace::{self, Resolved};
use crate::os_state::{env, env_mut, Descriptor, EnvData};
use crate::posix::{fail, ret, width};
use crate::symlinks;
use augur_engine::Param::{Int, Ptr};
use augur_engine::{Byte, Call, Exec, Executor, HandlerTable, Signature, State, Value};

/// Linux's errno for a buffer too small for the name.
const ERANGE: u128 = 34;
/// Linux's errnos for a descriptor that is not open, or not a directory's.
const EBADF: u128 = 9;
const ENOTDIR: u128 = 20;

/// The longest path the primitives read.
const PATH_MAX: usize = 4096;

/// Register the primitives.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_path", Signature::of(&[Ptr, Ptr, Int]), path);
    t.add("augur_sys_mkdir", Signature::of(&[Ptr, Int]), mkdir);
    t.add("augur_sys_rmdir", Signature::of(&[Ptr]), rmdir);
    t.add("augur_sys_chdir", Signature::of(&[Ptr]), chdir);
    t.add("augur_sys_rename", Signature::of(&[Ptr, Ptr]), rename);
    t.add("augur_sys_link", Signature::of(&[Ptr, Ptr, Int]), link);
    t.add("augur_sys_symlink", Signature::of(&[Ptr, Ptr]), symlink);
    t.add(
        "augur_sys_readlink",
        Signature::of(&[Ptr, Ptr, Int, Ptr]),
        readlink,
    );
    t.add("augur_sys_mknod", Signature::of(&[Ptr, Int]), mknod);
    t.add("augur_sys_getcwd", Signature::of(&[Ptr, Int]), getcwd);
    t.add("augur_sys_fd_dir", Signature::of(&[Int, Ptr, Int]), fd_dir);
}

/// Write `text` and a NUL at `buf` (at most `cap` bytes in all); false if it does not fit.
fn write_name(ex: &mut Executor, st: &mut State, buf: &Value, cap: u64, text: &str) -> Exec<bool> {
    if text.len() as u64 + 1 > cap {
        return Ok(false);
    }
    let mut bytes: Vec<Byte> = text.bytes().map(Byte::C).collect();
    bytes.push(Byte::C(0));
    let r = ex.resolve(st, buf, bytes.len() as u64, true)?;
    ex.write_bytes(st, &r, &bytes);
    Ok(true)
}

/// `augur_sys_path(path, out, cap)`: 0 with the name `path` gives inside the working
/// directory in `out` (`""` for the working directory itself; symbolic links followed), 1
/// for its parent, -1 for a path outside (or a name longer than `cap`, or a loop of links).
fn path(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let path = ex.read_c_string(st, &c.args[0], PATH_MAX)?;
    let cap = ex.concretize(st, &c.args[2])? as u64;
    Ok(match symlinks::lookup(env(st), &path, true) {
        Ok(Resolved::Inside(name)) if write_name(ex, st, &c.args[1], cap, &name)? => ret(0, w),
        Ok(Resolved::Parent) => ret(1, w),
        _ => ret(-1, w),
    })
}

/// Run a namespace change on the path's strings `c.args[..n]`: 0, or -1 with errno.
pub(crate) fn change(
    ex: &mut Executor,
    st: &mut State,
    c: &Call,
    op: impl FnOnce(&mut EnvData, &[String]) -> Result<(), u32>,
    n: usize,
) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let mut paths = Vec::with_capacity(n);
    for arg in &c.args[..n] {
        paths.push(ex.read_c_string(st, arg, PATH_MAX)?);
    }
    Ok(match op(env_mut(st), &paths) {
        Ok(()) => ret(0, w),
        Err(e) => fail(st, e as u128, w),
    })
}

/// A primitive `(path, mode)` that makes an entry with `make(env, path, mode)` (its
/// number, or an errno), whose permission bits are then `mode`'s less the creation mask
/// (`default`: the kind's usual bits).
fn make_with_mode(
    ex: &mut Executor,
    st: &mut State,
    c: &Call,
    default: u32,
    make: impl FnOnce(&mut EnvData, &str, u32) -> Result<usize, u32>,
) -> Exec<Option<Value>> {
    let mode = ex.concretize(st, &c.args[1])? as u32;
    let made = |e: &mut EnvData, p: &[String]| {
        let entry = make(e, &p[0], mode)?;
        modes::set_created(e, entry, mode & !namespace::S_IFMT, default);
        Ok(())
    };
    change(ex, st, c, made, 1)
}

/// `augur_sys_mkdir(path, mode)`: a new directory.
fn mkdir(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    make_with_mode(ex, st, c, modes::DIR_MODE, |e, path, _| {
        namespace::mkdir(e, path)?;
        Ok(e.files.len() - 1)
    })
}

fn rmdir(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    change(ex, st, c, |e, p| namespace::rmdir(e, &p[0]), 1)
}

fn chdir(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    change(ex, st, c, |e, p| namespace::chdir(e, &p[0]), 1)
}

fn rename(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    change(ex, st, c, |e, p| namespace::rename(e, &p[0], &p[1]), 2)
}

/// `augur_sys_link(from, to, follow)`: a hard link, through a symbolic link at `from`
/// when `follow`.
fn link(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let follow = ex.concretize(st, &c.args[2])? != 0;
    change(
        ex,
        st,
        c,
        |e, p| namespace::link(e, &p[0], &p[1], follow),
        2,
    )
}

/// `augur_sys_symlink(target, path)`: a new symbolic link at `path` to `target`.
fn symlink(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    change(
        ex,
        st,
        c,
        |e, p| symlinks::symlink(e, &p[0], &p[1]).map(drop),
        2,
    )
}

/// `augur_sys_readlink(path, buf, cap, number)`: the length of the target of the link
/// `path` names (not followed), its first `cap` bytes in `buf` (no NUL), the link's entry
/// number in `*number`; -1 with errno (EINVAL: not a link).
fn readlink(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let path = ex.read_c_string(st, &c.args[0], PATH_MAX)?;
    let cap = ex.concretize(st, &c.args[2])? as usize;
    let (target, entry) = match symlinks::readlink(env(st), &path) {
        Ok((target, entry)) => (target.as_bytes().to_vec(), entry as u64),
        Err(errno) => return Ok(fail(st, errno as u128, w)),
    };
    let shown: Vec<Byte> = target.iter().take(cap).map(|&b| Byte::C(b)).collect();
    if !shown.is_empty() {
        let r = ex.resolve(st, &c.args[1], shown.len() as u64, true)?;
        ex.write_bytes(st, &r, &shown);
    }
    let number: Vec<Byte> = entry.to_le_bytes().map(Byte::C).to_vec();
    let r = ex.resolve(st, &c.args[3], 8, true)?;
    ex.write_bytes(st, &r, &number);
    Ok(ret(target.len() as i64, w))
}

/// `augur_sys_mknod(path, mode)`: a new regular file, FIFO or socket.
fn mknod(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    make_with_mode(ex, st, c, modes::FILE_MODE, namespace::mknod)
}

/// `augur_sys_getcwd(buf, size)`: the current directory's absolute name in `buf`, and its
/// length with the NUL; -1 with ERANGE when it does not fit in `size` bytes.
fn getcwd(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let size = ex.concretize(st, &c.args[1])? as u64;
    let name = namespace::cwd_path(env(st));
    if !write_name(ex, st, &c.args[0], size, &name)? {
        return Ok(fail(st, ERANGE, w));
    }
    Ok(ret(name.len() as i64 + 1, w))
}

/// `augur_sys_fd_dir(fd, buf, size)`: the absolute name of the directory `fd` was opened
/// on, in `buf`, and its length with its NUL; -1 with EBADF (not open), ENOTDIR (not a
/// directory's descriptor) or ERANGE.
fn fd_dir(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let size = ex.concretize(st, &c.args[2])? as u64;
    let Some(fd) = crate::posix::descriptor(ex, st, &c.args[0])? else {
        return Ok(fail(st, EBADF, w));
    };
    let Some(Descriptor::Directory(name)) = env(st).fds[fd].clone() else {
        return Ok(fail(st, ENOTDIR, w));
    };
    if !write_name(ex, st, &c.args[1], size, &name)? {
        return Ok(fail(st, ERANGE, w));
    }
    Ok(ret(name.len() as i64 + 1, w))
}
