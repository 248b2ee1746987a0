//! File modes in the modelled file system: the permission bits chmod sets and stat reports,
//! and the file-mode creation mask (umask) that open's and mkdir's modes pass through.
//!
//! A file starts as 0644 and a directory as 0755, which is what `augur replay` gives the
//! native program's files and directories (and it runs the program with umask 022, the
//! mask here at start). Permissions are recorded and reported, not enforced: the modelled
//! user may read and write whatever exists, as root does natively.
//!
//! Modes are kept by entry number in [`EnvData::files`], so they follow a file or a
//! directory tree through rename and stay with a file's open descriptors after unlink. A
//! directory that is only a leading part of file names gets a marker entry (as mkdir
//! makes) the first time its mode changes.

use crate::namespace::{self, Resolved, ENOENT, TMP_DIR};
use crate::os_state::{env, env_mut, Contents, Descriptor, EnvData};
use crate::posix::{descriptor, fail, ret, width};
use augur_engine::Param::{Int, Ptr};
use augur_engine::{Call, Exec, Executor, HandlerTable, Signature, State, Value};

/// A new file's permission bits before the mask, when the caller gives none.
pub const FILE_MODE: u32 = 0o644;
/// A directory's permission bits before any chmod.
pub const DIR_MODE: u32 = 0o755;
/// The creation mask at start.
pub const UMASK: u32 = 0o022;
/// The key of the working directory's own mode (it has no entry).
const WORK_DIR_KEY: usize = usize::MAX;
/// The bits chmod keeps: permissions, set-id and sticky.
const MODE_BITS: u32 = 0o7777;

/// Linux's errno values used here.
const EBADF: u128 = 9;
const EPERM: u32 = 1;

/// Register the primitives.
pub fn register(t: &mut HandlerTable) {
    t.add("augur_sys_umask", Signature::of(&[Int]), umask);
    t.add("augur_sys_chmod", Signature::of(&[Int, Ptr, Int]), chmod);
    t.add("augur_sys_mode", Signature::of(&[Int, Ptr]), mode);
}

/// `mode` with the creation mask applied: the permission bits of a file or directory
/// created with it.
fn created(env: &EnvData, mode: u32) -> u32 {
    mode & !env.umask & 0o777
}

/// Where the mode of the file or directory `name` (inside the tree) is kept: its entry,
/// or None for a directory with no marker (its mode never changed); the error is an errno.
fn find(env: &EnvData, name: &str) -> Result<Option<usize>, u32> {
    if name.is_empty() {
        return Ok(Some(WORK_DIR_KEY));
    }
    if name == TMP_DIR {
        // /tmp is root's: chmod on it is refused as for any user but root.
        return Err(EPERM);
    }
    if namespace::is_file(env, name) {
        return Ok(env.file(name));
    }
    if !namespace::is_dir(env, name) {
        return Err(ENOENT);
    }
    let wanted = format!("{name}/");
    Ok(env.files.iter().position(|(f, _)| *f == wanted))
}

/// Entry `entry`, just made with `mode` (before the mask), gets its permission bits
/// (recorded when they are not `default`, the kind's usual bits).
pub fn set_created(env: &mut EnvData, entry: usize, mode: u32, default: u32) {
    let bits = created(env, mode);
    if bits != default {
        env.modes.insert(entry, bits);
    }
}

/// The entry the mode of `name` is kept under, making a directory's marker if it has none.
fn key(env: &mut EnvData, name: &str) -> Result<usize, u32> {
    if let Some(k) = find(env, name)? {
        return Ok(k);
    }
    env.files
        .push((format!("{name}/"), Contents::from(Vec::new())));
    Ok(env.files.len() - 1)
}

/// The permission bits of `name` (inside the tree).
fn mode_of(env: &EnvData, name: &str) -> Result<u32, u32> {
    let default = if namespace::is_file(env, name) {
        FILE_MODE
    } else {
        DIR_MODE
    };
    Ok(find(env, name)?
        .and_then(|k| env.modes.get(&k).copied())
        .unwrap_or(default))
}

/// The name `path` gives inside the tree (links followed), or its errno (the working directory's parent
/// is not the user's to change: EPERM).
fn named(env: &EnvData, path: &str) -> Result<String, u32> {
    match crate::symlinks::lookup(env, path, true)? {
        _ if path.is_empty() => Err(ENOENT),
        Resolved::Inside(name) => Ok(name),
        Resolved::Parent => Err(EPERM),
        Resolved::Outside => Err(ENOENT),
    }
}

/// The entry a descriptor's mode is kept under: its file's, or None for what has no
/// entry (standard streams, pipes).
fn fd_entry(env: &EnvData, fd: usize) -> Option<usize> {
    match env.fds[fd] {
        Some(Descriptor::File { file, .. }) => Some(file),
        _ => None,
    }
}

/// `augur_sys_umask(mask)`: the creation mask becomes `mask` (its permission bits); the
/// old one is returned.
fn umask(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let mask = ex.concretize(st, &c.args[0])? as u32 & 0o777;
    let old = std::mem::replace(&mut env_mut(st).umask, mask);
    Ok(ret(old as i64, w))
}

/// `augur_sys_chmod(fd, path, mode)`: the mode of `path` (when not NULL) or else of
/// descriptor `fd` becomes `mode`; 0, or -1 with errno (ENOENT, EBADF, EPERM).
fn chmod(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let bits = ex.concretize(st, &c.args[2])? as u32 & MODE_BITS;
    let entry = if ex.concretize(st, &c.args[1])? != 0 {
        let path = ex.read_c_string(st, &c.args[1], 4096)?;
        let e = env_mut(st);
        match named(e, &path).and_then(|name| key(e, &name)) {
            Ok(k) => Some(k),
            Err(errno) => return Ok(fail(st, errno as u128, w)),
        }
    } else {
        match descriptor(ex, st, &c.args[0])? {
            Some(fd) => fd_entry(env(st), fd),
            None => return Ok(fail(st, EBADF, w)),
        }
    };
    if let Some(k) = entry {
        env_mut(st).modes.insert(k, bits);
    }
    Ok(ret(0, w))
}

/// `augur_sys_mode(fd, path)`: the permission bits of `path` (when not NULL) or else of
/// descriptor `fd`'s file; -1 with errno (ENOENT, EBADF).
fn mode(ex: &mut Executor, st: &mut State, c: &Call) -> Exec<Option<Value>> {
    let w = width(ex, c);
    let bits = if ex.concretize(st, &c.args[1])? != 0 {
        let path = ex.read_c_string(st, &c.args[1], 4096)?;
        let e = env(st);
        named(e, &path).and_then(|name| mode_of(e, &name))
    } else {
        match descriptor(ex, st, &c.args[0])? {
            Some(fd) => Ok(fd_entry(env(st), fd).map_or(FILE_MODE, |k| {
                env(st).modes.get(&k).copied().unwrap_or(FILE_MODE)
            })),
            None => Err(EBADF as u32),
        }
    };
    Ok(match bits {
        Ok(b) => ret(b as i64, w),
        Err(errno) => fail(st, errno as u128, w),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os_state::world;

    #[test]
    fn defaults_are_the_replays_modes() {
        let e = world(&["a", "d/x"]);
        assert_eq!(mode_of(&e, "a"), Ok(0o644));
        assert_eq!(mode_of(&e, "d"), Ok(0o755));
        assert_eq!(mode_of(&e, ""), Ok(0o755));
        assert_eq!(mode_of(&e, "nothing"), Err(ENOENT));
    }

    #[test]
    fn a_directorys_mode_follows_it_through_rename() {
        let mut e = world(&["d/x"]);
        let k = key(&mut e, "d").unwrap();
        e.modes.insert(k, 0o700);
        assert_eq!(
            e.files.len(),
            2,
            "a marker was made for the implicit directory"
        );
        namespace::rename(&mut e, "d", "e").unwrap();
        assert_eq!(mode_of(&e, "e"), Ok(0o700));
        assert_eq!(mode_of(&e, "e/x"), Ok(0o644));
        assert!(namespace::is_dir(&e, "e") && !namespace::is_dir(&e, "d"));
    }

    #[test]
    fn the_mask_clears_bits_of_created_modes() {
        let mut e = world(&[]);
        assert_eq!(created(&e, 0o666), 0o644);
        e.umask = 0o077;
        assert_eq!(created(&e, 0o777), 0o700);
    }
}
