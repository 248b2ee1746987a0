//! The modelled file system's names: how a path names a file or directory of the path's
//! world ([`EnvData`]), and the calls that change names (mkdir, rmdir, rename, chdir,
//! link, mknod).
//!
//! The world is the working directory `augur replay` gives the native program, whose
//! absolute name is [`WORK_DIR`] (replay shows the native directory's name as this one, so
//! that outputs naming it agree): the modelled files (names relative to it, `a/b` for a
//! file in a subdirectory) and the directories. A directory is the working directory
//! itself (`""`), every leading part of a file's name, or one made by mkdir, kept as a
//! marker entry `NAME/` among the files (empty, never opened: a path never resolves to a
//! name ending in `/`), so that it lists, renames and numbers as the files do.
//!
//! Paths resolve as Linux resolves them: relative to the current directory (`cwd`),
//! absolute ones through [`WORK_DIR`]; `.`, `..` and repeated slashes are taken apart.
//! Outside the working directory there are its parent (which cannot be entered) and
//! [`TMP_DIR`], where files and directories may be made as in the working directory.

use crate::os_state::{Contents, EnvData};
use crate::symlinks;

/// The working directory's absolute name in the modelled world.
pub const WORK_DIR: &str = "/augur/work";

/// errno values (Linux).
pub const ENOENT: u32 = 2;
const EPERM: u32 = 1;
const EACCES: u32 = 13;
const EBUSY: u32 = 16;
pub const EEXIST: u32 = 17;
const EXDEV: u32 = 18;
pub const ENOTDIR: u32 = 20;
const EISDIR: u32 = 21;
const EINVAL: u32 = 22;
const ENOTEMPTY: u32 = 39;

/// The system's directory for temporary files, the one directory outside the working
/// directory a program may make files in (as tac, sort and mktemp do); its files are named
/// by their absolute paths (`/tmp/x`).
pub const TMP_DIR: &str = "/tmp";

/// What a path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A name in the working directory's tree (`""`: the working directory), or in the
    /// temporary directory's (`/tmp`, `/tmp/x`).
    Inside(String),
    /// An ancestor of the working directory (its parent `/augur`, or the root `/`): it
    /// exists but cannot be entered or listed.
    Parent,
    /// Anything else: nothing is there.
    Outside,
}

/// The absolute components of the current directory `cwd`.
fn absolute(cwd: &str) -> Vec<&str> {
    let base = if cwd.starts_with('/') { "" } else { WORK_DIR };
    base.split('/')
        .chain(cwd.split('/'))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Resolve `path` from the current directory `cwd` (a name [`Resolved::Inside`]). The
/// empty path names nothing (Linux: ENOENT), not the current directory.
pub fn resolve(cwd: &str, path: &str) -> Resolved {
    if path.is_empty() {
        return Resolved::Outside;
    }
    let parts = components(cwd, path);
    let work = absolute("");
    let tmp = TMP_DIR.trim_start_matches('/');
    if parts.starts_with(&work) {
        Resolved::Inside(parts[work.len()..].join("/"))
    } else if parts.first() == Some(&tmp) {
        Resolved::Inside(format!("/{}", parts.join("/")))
    } else if work.starts_with(&parts) {
        Resolved::Parent
    } else {
        Resolved::Outside
    }
}

/// The components of `path`'s absolute name, resolved from the current directory `cwd`
/// (`.` and `..` taken away, as Linux does without symbolic links).
fn components<'a>(cwd: &'a str, path: &'a str) -> Vec<&'a str> {
    let mut parts = if path.starts_with('/') {
        Vec::new()
    } else {
        absolute(cwd)
    };
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    parts
}

/// The absolute name `path` gives from the current directory `cwd` (`/` for the root).
pub fn absolute_path(cwd: &str, path: &str) -> String {
    format!("/{}", components(cwd, path).join("/"))
}

/// Is `name` one of the two roots, the working directory or the temporary directory
/// (neither can be removed or renamed)?
fn is_root(name: &str) -> bool {
    name.is_empty() || name == TMP_DIR
}

/// The marker entry of a directory made by mkdir.
fn marker(dir: &str) -> String {
    format!("{dir}/")
}

/// Is `name` (inside the tree) a directory: the working directory, a leading part of a
/// file's name, or a marker's?
pub fn is_dir(env: &EnvData, name: &str) -> bool {
    is_root(name)
        || env.files.iter().any(|(f, _)| {
            f.len() > name.len() && f.starts_with(name) && f[name.len()..].starts_with('/')
        })
}

/// Is `name` (inside the tree) a file's name?
pub fn is_file(env: &EnvData, name: &str) -> bool {
    !is_root(name) && env.files.iter().any(|(f, _)| f == name)
}

/// The directory holding `name` (`""` for a name at the top).
fn parent(name: &str) -> &str {
    name.rfind('/').map_or("", |i| &name[..i])
}

/// The errno of a lookup of `name` (inside the tree) that found nothing: ENOTDIR when
/// the path goes through a file (`f/x`), else ENOENT.
pub fn absent(env: &EnvData, name: &str) -> u32 {
    let through_file = name
        .match_indices('/')
        .any(|(i, _)| i > 0 && is_file(env, &name[..i]));
    if through_file {
        ENOTDIR
    } else {
        ENOENT
    }
}

/// Does anything live inside directory `name`?
fn has_entries(env: &EnvData, name: &str) -> bool {
    let prefix = marker(name);
    env.files
        .iter()
        .any(|(f, _)| f.len() > prefix.len() && f.starts_with(&prefix))
}

/// A name a new entry may take: its parent is a directory and nothing has the name.
pub fn creatable(env: &EnvData, name: &str) -> Result<(), u32> {
    if !is_dir(env, parent(name)) {
        return Err(if is_file(env, parent(name)) {
            ENOTDIR
        } else {
            ENOENT
        });
    }
    if is_file(env, name) || is_dir(env, name) {
        return Err(EEXIST);
    }
    Ok(())
}

/// The name `path` gives inside the tree (its symbolic links followed, the last one only
/// when `follow_last`: symlinks.rs), or the errno of a path naming nothing there.
fn inside(env: &EnvData, path: &str, follow_last: bool) -> Result<String, u32> {
    match symlinks::lookup(env, path, follow_last)? {
        Resolved::Inside(name) => Ok(name),
        Resolved::Parent => Err(EACCES),
        Resolved::Outside => Err(ENOENT),
    }
}

/// The name a new entry made at `path` takes, or the errno: the two roots and the working
/// directory's parent exist already (EEXIST), as does any entry, a symbolic link too
/// (see [`creatable`]).
pub(crate) fn new_name(env: &EnvData, path: &str) -> Result<String, u32> {
    let name = match inside(env, path, false) {
        Ok(n) if is_root(&n) => return Err(EEXIST),
        Err(EACCES) => return Err(EEXIST),
        other => other?,
    };
    creatable(env, &name)?;
    Ok(name)
}

/// A test's files (names inside the working directory, `d/f` in a subdirectory) laid out
/// as `augur replay` makes them natively (replay/private_root.rs): each file after a
/// marker entry for each directory leading to it not laid out yet, so that entries, and
/// with them inode numbers, come in the order the native volume numbers them.
pub fn laid_out(files: Vec<(String, Contents)>) -> Vec<(String, Contents)> {
    let mut out: Vec<(String, Contents)> = Vec::with_capacity(files.len());
    for (name, contents) in files {
        for (i, _) in name.match_indices('/').filter(|&(i, _)| i > 0) {
            let dir = marker(&name[..i]);
            if !out.iter().any(|(f, _)| *f == dir) {
                out.push((dir, Contents::from(Vec::new())));
            }
        }
        out.push((name, contents));
    }
    out
}

/// mkdir(path): a new, empty directory.
pub fn mkdir(env: &mut EnvData, path: &str) -> Result<(), u32> {
    let name = new_name(env, path)?;
    env.files.push((marker(&name), Contents::from(Vec::new())));
    Ok(())
}

/// rmdir(path): remove an empty directory. `/tmp` sits in `/`, which the analysed user
/// may not write (EACCES, as for any user but root; native runs never run as root).
pub fn rmdir(env: &mut EnvData, path: &str) -> Result<(), u32> {
    let name = match inside(env, path, false) {
        Ok(n) if path.ends_with('.') && is_root(&n) => return Err(EINVAL),
        Ok(n) if n == TMP_DIR => return Err(EACCES),
        Ok(n) if is_root(&n) => return Err(EBUSY),
        Err(EACCES) => return Err(EBUSY),
        other => other?,
    };
    if is_file(env, &name) {
        return Err(ENOTDIR);
    }
    if !is_dir(env, &name) {
        return Err(ENOENT);
    }
    if has_entries(env, &name) {
        return Err(ENOTEMPTY);
    }
    forget(env, &marker(&name));
    Ok(())
}

/// The entry named `name` loses its name (see posix.rs's unlink).
pub fn forget(env: &mut EnvData, name: &str) {
    if let Some(entry) = env.files.iter_mut().find(|(f, _)| f == name) {
        entry.0 = "\0unlinked".into();
    }
}

/// rename(from, to): a file or directory takes a new name, replacing a file (or an empty
/// directory, for a directory) of that name.
pub fn rename(env: &mut EnvData, from: &str, to: &str) -> Result<(), u32> {
    let old = inside(env, from, false)?;
    let new = inside(env, to, false).map_err(|e| if e == EACCES { EXDEV } else { e })?;
    if old == TMP_DIR {
        return Err(EACCES);
    }
    if is_root(&old) || is_root(&new) {
        return Err(EBUSY);
    }
    if is_file(env, &old) {
        if is_dir(env, &new) {
            return Err(EISDIR);
        }
        if !is_dir(env, parent(&new)) {
            return Err(ENOENT);
        }
        // Two names of one file: rename does nothing (Linux).
        if old != new && env.file(&old) != env.file(&new) {
            forget(env, &new);
            let entry = env.files.iter_mut().find(|(f, _)| *f == old);
            entry.expect("a file's entry").0 = new;
        }
        return Ok(());
    }
    if !is_dir(env, &old) {
        return Err(ENOENT);
    }
    if new.starts_with(&marker(&old)) {
        return Err(EINVAL);
    }
    if is_file(env, &new) {
        return Err(ENOTDIR);
    }
    if !is_dir(env, parent(&new)) {
        return Err(ENOENT);
    }
    if old == new {
        return Ok(());
    }
    if is_dir(env, &new) {
        if has_entries(env, &new) {
            return Err(ENOTEMPTY);
        }
        forget(env, &marker(&new));
    }
    let (old_prefix, new_prefix) = (marker(&old), marker(&new));
    for (f, _) in env.files.iter_mut() {
        if let Some(rest) = f.strip_prefix(&old_prefix) {
            *f = format!("{new_prefix}{rest}");
        }
    }
    if env.cwd == old || env.cwd.starts_with(&old_prefix) {
        env.cwd = format!("{new}{}", &env.cwd[old.len()..]);
    }
    Ok(())
}

/// link(from, to): `to` becomes another name of the file `from` names (a hard link: the
/// two names share contents and mode); a symbolic link in `from`'s last place is linked
/// itself unless `follow` (linkat's AT_SYMLINK_FOLLOW). Directories cannot be linked
/// (EPERM).
pub fn link(env: &mut EnvData, from: &str, to: &str, follow: bool) -> Result<(), u32> {
    let old = inside(env, from, follow).map_err(|e| if e == EACCES { EPERM } else { e })?;
    let file = match env.file(&old) {
        Some(file) => file,
        None if is_dir(env, &old) => return Err(EPERM),
        None => return Err(ENOENT),
    };
    let new = new_name(env, to)?;
    env.files.push((new, Contents::from(Vec::new())));
    env.links.insert(env.files.len() - 1, file);
    Ok(())
}

/// The `S_IFMT` bits of the file types mknod makes or refuses.
pub const S_IFMT: u32 = 0o170000;
const S_IFSOCK: u32 = 0o140000;
const S_IFREG: u32 = 0o100000;
const S_IFBLK: u32 = 0o060000;
const S_IFDIR: u32 = 0o040000;
const S_IFCHR: u32 = 0o020000;
const S_IFIFO: u32 = 0o010000;

/// mknod(path, mode) for a user who is not root: a new regular file (type 0 or
/// `S_IFREG`), FIFO or socket, as its entry's number; devices are EPERM once the name
/// is known to be free, directories EPERM and unknown types EINVAL before.
pub fn mknod(env: &mut EnvData, path: &str, mode: u32) -> Result<usize, u32> {
    let kind = match mode & S_IFMT {
        0 | S_IFREG => S_IFREG,
        k @ (S_IFIFO | S_IFSOCK | S_IFCHR | S_IFBLK) => k,
        S_IFDIR => return Err(EPERM),
        _ => return Err(EINVAL),
    };
    let name = new_name(env, path)?;
    if kind == S_IFCHR || kind == S_IFBLK {
        return Err(EPERM);
    }
    env.files.push((name, Contents::from(Vec::new())));
    let entry = env.files.len() - 1;
    if kind != S_IFREG {
        env.special.insert(entry, kind);
    }
    Ok(entry)
}

/// chdir(path): the current directory becomes `path`'s.
pub fn chdir(env: &mut EnvData, path: &str) -> Result<(), u32> {
    let name = inside(env, path, true)?;
    if is_file(env, &name) {
        return Err(ENOTDIR);
    }
    if !is_dir(env, &name) {
        return Err(ENOENT);
    }
    env.cwd = name;
    Ok(())
}

/// The current directory's absolute name (getcwd).
pub fn cwd_path(env: &EnvData) -> String {
    format!("/{}", absolute(&env.cwd).join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os_state::world;

    fn names(env: &EnvData) -> Vec<&str> {
        env.files
            .iter()
            .map(|(f, _)| f.as_str())
            .filter(|f| !f.starts_with('\0'))
            .collect()
    }

    #[test]
    fn paths_resolve_as_linux_resolves_them() {
        let inside = |n: &str| Resolved::Inside(n.into());
        assert_eq!(resolve("", "a/./b//c/"), inside("a/b/c"));
        assert_eq!(resolve("d", "../x"), inside("x"));
        assert_eq!(resolve("d/e", "../../x/.."), inside(""));
        assert_eq!(resolve("", ".."), Resolved::Parent);
        assert_eq!(resolve("d", "../.."), Resolved::Parent);
        assert_eq!(resolve("", "../x"), Resolved::Outside);
        assert_eq!(resolve("d", "/augur/work/a"), inside("a"));
        assert_eq!(resolve("d", "//augur/work"), inside(""));
        assert_eq!(resolve("", "/augur/workshop"), Resolved::Outside);
        assert_eq!(resolve("", "/augur/"), Resolved::Parent);
        assert_eq!(resolve("d", "/"), Resolved::Parent);
        assert_eq!(resolve("", "../.."), Resolved::Parent);
        assert_eq!(resolve("", "/etc/passwd"), Resolved::Outside);
        assert_eq!(resolve("", "/tmp//x/../y"), inside("/tmp/y"));
        assert_eq!(resolve("/tmp", "z"), inside("/tmp/z"));
        assert_eq!(resolve("/tmp", ".."), Resolved::Parent);
        assert_eq!(resolve("/tmp", "../augur/work/a"), inside("a"));
    }

    #[test]
    fn absolute_names_are_resolved_from_the_current_directory() {
        assert_eq!(absolute_path("", "."), "/augur/work");
        assert_eq!(absolute_path("d", "e/../f/"), "/augur/work/d/f");
        assert_eq!(absolute_path("/tmp", "x"), "/tmp/x");
        assert_eq!(absolute_path("d", "../../.."), "/");
        assert_eq!(absolute_path("d", "/tmp//y"), "/tmp/y");
    }

    #[test]
    fn temporary_files_live_in_tmp() {
        let mut env = world(&[]);
        assert!(is_dir(&env, "/tmp"));
        assert_eq!(mkdir(&mut env, "/tmp/d"), Ok(()));
        assert_eq!(chdir(&mut env, "/tmp/d"), Ok(()));
        assert_eq!(cwd_path(&env), "/tmp/d");
        assert_eq!(rmdir(&mut env, "/tmp"), Err(EACCES));
        assert_eq!(rename(&mut env, "/tmp", "x"), Err(EACCES));
        assert_eq!(chdir(&mut env, "/augur/work"), Ok(()));
        assert_eq!(cwd_path(&env), "/augur/work");
    }

    #[test]
    fn directories_are_made_listed_and_removed() {
        let mut env = world(&["a/f"]);
        assert!(is_dir(&env, "a") && !is_dir(&env, "a/f") && is_file(&env, "a/f"));
        assert_eq!(mkdir(&mut env, "a"), Err(EEXIST));
        assert_eq!(mkdir(&mut env, "a/f"), Err(EEXIST));
        assert_eq!(mkdir(&mut env, "a/f/g"), Err(ENOTDIR));
        assert_eq!(mkdir(&mut env, "x/y"), Err(ENOENT));
        assert_eq!(mkdir(&mut env, "x/"), Ok(()));
        assert!(is_dir(&env, "x"));
        assert_eq!(mkdir(&mut env, "x/y"), Ok(()));
        assert_eq!(rmdir(&mut env, "x"), Err(ENOTEMPTY));
        assert_eq!(rmdir(&mut env, "a/f"), Err(ENOTDIR));
        assert_eq!(rmdir(&mut env, "x/y"), Ok(()));
        assert_eq!(rmdir(&mut env, "x"), Ok(()));
        assert_eq!(rmdir(&mut env, "x"), Err(ENOENT));
        assert_eq!(rmdir(&mut env, "."), Err(EINVAL));
        assert_eq!(names(&env), ["a/f"]);
    }

    #[test]
    fn renames_move_files_and_whole_directories() {
        let mut env = world(&["f", "g", "d/h", "d/e/i"]);
        assert_eq!(rename(&mut env, "f", "g"), Ok(()));
        assert_eq!(names(&env), ["g", "d/h", "d/e/i"]);
        assert_eq!(rename(&mut env, "g", "d"), Err(EISDIR));
        assert_eq!(rename(&mut env, "d", "g"), Err(ENOTDIR));
        assert_eq!(rename(&mut env, "d", "d/e/z"), Err(EINVAL));
        assert_eq!(rename(&mut env, "nope", "z"), Err(ENOENT));
        assert_eq!(chdir(&mut env, "d/e"), Ok(()));
        assert_eq!(rename(&mut env, "/augur/work/d", "../../n"), Ok(()));
        assert_eq!(names(&env), ["g", "n/h", "n/e/i"]);
        assert_eq!(cwd_path(&env), "/augur/work/n/e");
        assert_eq!(rename(&mut env, "i", "../../g2"), Ok(()));
        assert_eq!(names(&env), ["g", "n/h", "g2"]);
    }

    #[test]
    fn hard_links_name_one_file() {
        let mut env = world(&["f", "d/g"]);
        assert_eq!(link(&mut env, "f", "d/h", false), Ok(()));
        assert_eq!(env.file("d/h"), env.file("f"));
        assert_eq!(link(&mut env, "f", "d/h", false), Err(EEXIST));
        assert_eq!(link(&mut env, "d", "x", false), Err(EPERM));
        assert_eq!(link(&mut env, "..", "x", false), Err(EPERM));
        assert_eq!(link(&mut env, "nope", "x", false), Err(ENOENT));
        assert_eq!(link(&mut env, "f", "f/x", false), Err(ENOTDIR));
        assert_eq!(rename(&mut env, "f", "d/h"), Ok(()));
        assert_eq!(names(&env), ["f", "d/g", "d/h"]);
        assert_eq!(rename(&mut env, "d/h", "d/g"), Ok(()));
        assert_eq!(names(&env), ["f", "d/g"]);
        assert_eq!(env.file("d/g"), env.file("f"));
    }

    #[test]
    fn mknod_makes_files_fifos_and_sockets_but_no_devices() {
        let mut env = world(&["f"]);
        let fifo = mknod(&mut env, "p", 0o010644).unwrap();
        assert_eq!(env.special.get(&fifo), Some(&0o010000));
        let file = mknod(&mut env, "r", 0o644).unwrap();
        assert_eq!(env.special.get(&file), None);
        assert_eq!(mknod(&mut env, "p", 0o140644), Err(EEXIST));
        assert_eq!(mknod(&mut env, "c", 0o020644), Err(EPERM));
        assert_eq!(mknod(&mut env, "x/c", 0o020644), Err(ENOENT));
        assert_eq!(mknod(&mut env, "c", 0o040755), Err(EPERM));
        assert_eq!(mknod(&mut env, "c", 0o170644), Err(EINVAL));
        assert_eq!(names(&env), ["f", "p", "r"]);
    }

    #[test]
    fn files_in_subdirectories_come_after_their_directories() {
        let files = ["a/b/f", "g", "a/h", "c/i"]
            .map(|n| (n.to_string(), Contents::from(Vec::new())))
            .to_vec();
        let env = EnvData::new(Contents::from(Vec::new()), laid_out(files));
        assert_eq!(
            names(&env),
            ["a/", "a/b/", "a/b/f", "g", "a/h", "c/", "c/i"]
        );
        assert!(is_dir(&env, "a/b") && is_file(&env, "a/h"));
    }

    #[test]
    fn a_lookup_through_a_file_is_not_a_directory() {
        let env = world(&["f", "d/g"]);
        assert_eq!(absent(&env, "f/x"), ENOTDIR);
        assert_eq!(absent(&env, "d/g/x/y"), ENOTDIR);
        assert_eq!(absent(&env, "d/x"), ENOENT);
        assert_eq!(absent(&env, "x/y"), ENOENT);
    }

    #[test]
    fn the_current_directory_moves_only_into_directories() {
        let mut env = world(&["f", "d/h"]);
        assert_eq!(chdir(&mut env, "f"), Err(ENOTDIR));
        assert_eq!(chdir(&mut env, "nope"), Err(ENOENT));
        assert_eq!(chdir(&mut env, ".."), Err(EACCES));
        assert_eq!(chdir(&mut env, "d"), Ok(()));
        assert_eq!(cwd_path(&env), "/augur/work/d");
        assert_eq!(resolve(&env.cwd, "h"), Resolved::Inside("d/h".into()));
        assert_eq!(chdir(&mut env, ".."), Ok(()));
        assert_eq!(cwd_path(&env), "/augur/work");
    }
}
