//! Symbolic links in the modelled file system: making one (symlink), reading one
//! (readlink), and following them while a path is looked up, as Linux does.
//!
//! A symbolic link is an entry of [`EnvData::files`] (empty contents) whose target is kept
//! in [`EnvData::symlinks`]. A lookup replaces each link it meets on the way by its
//! target, from the link's own directory (an absolute target from the root), at most
//! [`MAX_LINKS`] times (then ELOOP). The last component is followed when the call follows
//! links (open, stat, chdir, chmod) or when the path ends in `/`; calls that act on the
//! name itself (lstat, readlink, unlink, rename, rmdir, link, mkdir, symlink) do not.
//! The result is a path [`namespace::resolve`] takes apart as before: with no link in the
//! world, the path itself.

use crate::namespace::{self, Resolved, ENOENT};
use crate::os_state::{Contents, EnvData};
use std::borrow::Cow;
use std::collections::VecDeque;

/// Linux's errno for too many links followed in one lookup.
pub const ELOOP: u32 = 40;
/// Linux's errno for readlink of something that is not a link.
const EINVAL: u32 = 22;

/// The links one lookup follows before ELOOP (Linux's MAXSYMLINKS).
pub const MAX_LINKS: usize = 40;

/// `path` with the symbolic links met on the way replaced by their targets (the last
/// component's too when `follow_last`, or when `path` ends in `/`): an absolute path, or
/// `path` itself when the world has no link; ELOOP past [`MAX_LINKS`] links.
pub fn follow<'a>(env: &EnvData, path: &'a str, follow_last: bool) -> Result<Cow<'a, str>, u32> {
    if env.symlinks.is_empty() || path.is_empty() {
        return Ok(Cow::Borrowed(path));
    }
    let follow_last = follow_last || path.ends_with('/');
    let mut done: Vec<String> = if path.starts_with('/') {
        Vec::new()
    } else {
        split(&namespace::cwd_path(env))
    };
    let mut todo: VecDeque<String> = split(path).into();
    let mut followed = 0;
    while let Some(part) = todo.pop_front() {
        match part.as_str() {
            "." => continue,
            ".." => {
                done.pop();
                continue;
            }
            _ => done.push(part),
        }
        if todo.is_empty() && !follow_last {
            break;
        }
        let Some(target) = link_at(env, &done) else {
            continue;
        };
        followed += 1;
        if followed > MAX_LINKS {
            return Err(ELOOP);
        }
        done.pop();
        if target.starts_with('/') {
            done.clear();
        }
        for part in split(target).into_iter().rev() {
            todo.push_front(part);
        }
    }
    Ok(Cow::Owned(format!("/{}", done.join("/"))))
}

/// What `path` names from the current directory, its links followed (the last one as
/// [`follow`] says), or the errno of a loop of links.
pub fn lookup(env: &EnvData, path: &str, follow_last: bool) -> Result<Resolved, u32> {
    Ok(namespace::resolve(
        &env.cwd,
        &follow(env, path, follow_last)?,
    ))
}

/// The non-empty components of `path`.
fn split(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The target of the link at the absolute components `parts`, if a link is there.
fn link_at<'e>(env: &'e EnvData, parts: &[String]) -> Option<&'e str> {
    match namespace::resolve("/", &format!("/{}", parts.join("/"))) {
        Resolved::Inside(name) => target(env, &name),
        _ => None,
    }
}

/// The target of the link named `name` (inside the tree), if `name` is one.
pub fn target<'e>(env: &'e EnvData, name: &str) -> Option<&'e str> {
    env.symlinks.get(&env.file(name)?).map(|t| &**t)
}

/// symlink(target, path): a new link at `path` (not followed) to `target` (any text, not
/// looked up: the link may dangle); ENOENT for an empty target, as Linux.
pub fn symlink(env: &mut EnvData, target: &str, path: &str) -> Result<usize, u32> {
    if target.is_empty() {
        return Err(ENOENT);
    }
    let name = namespace::new_name(env, path)?;
    env.files.push((name, Contents::from(Vec::new())));
    let entry = env.files.len() - 1;
    env.symlinks.insert(entry, target.into());
    Ok(entry)
}

/// readlink(path): the target and entry number of the link `path` names (not followed);
/// EINVAL for anything else that exists, else the lookup's errno.
pub fn readlink<'e>(env: &'e EnvData, path: &str) -> Result<(&'e str, usize), u32> {
    let name = match lookup(env, path, false)? {
        _ if path.is_empty() => return Err(ENOENT),
        Resolved::Inside(name) => name,
        Resolved::Parent => return Err(EINVAL),
        Resolved::Outside => return Err(ENOENT),
    };
    if let (Some(target), Some(entry)) = (target(env, &name), env.file(&name)) {
        return Ok((target, entry));
    }
    if namespace::is_file(env, &name) || namespace::is_dir(env, &name) {
        return Err(EINVAL);
    }
    Err(namespace::absent(env, &name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os_state::world;

    fn followed(env: &EnvData, path: &str, last: bool) -> Result<String, u32> {
        follow(env, path, last).map(Cow::into_owned)
    }

    #[test]
    fn links_are_followed_from_their_own_directory() {
        let mut env = world(&["d/f", "e/g"]);
        assert_eq!(followed(&env, "d/../x", true), Ok("d/../x".into()));
        symlink(&mut env, "../e", "d/up").unwrap();
        symlink(&mut env, "/augur/work/d/f", "abs").unwrap();
        assert_eq!(followed(&env, "d/up/g", true), Ok("/augur/work/e/g".into()));
        assert_eq!(
            followed(&env, "d/up/../d/f", true),
            Ok("/augur/work/d/f".into())
        );
        assert_eq!(followed(&env, "abs", true), Ok("/augur/work/d/f".into()));
        assert_eq!(followed(&env, "abs", false), Ok("/augur/work/abs".into()));
        assert_eq!(followed(&env, "d/up/", false), Ok("/augur/work/e".into()));
        assert_eq!(namespace::chdir(&mut env, "d"), Ok(()));
        assert_eq!(followed(&env, "up/g", true), Ok("/augur/work/e/g".into()));
    }

    #[test]
    fn a_loop_of_links_is_eloop() {
        let mut env = world(&[]);
        symlink(&mut env, "b", "a").unwrap();
        symlink(&mut env, "a", "b").unwrap();
        symlink(&mut env, "self/x", "self").unwrap();
        assert_eq!(followed(&env, "a", true), Err(ELOOP));
        assert_eq!(followed(&env, "a", false), Ok("/augur/work/a".into()));
        assert_eq!(followed(&env, "self/y", true), Err(ELOOP));
    }

    #[test]
    fn readlink_names_links_only() {
        let mut env = world(&["f", "d/g"]);
        let entry = symlink(&mut env, "nowhere", "l").unwrap();
        assert_eq!(readlink(&env, "l"), Ok(("nowhere", entry)));
        assert_eq!(readlink(&env, "f"), Err(EINVAL));
        assert_eq!(readlink(&env, "d"), Err(EINVAL));
        assert_eq!(readlink(&env, ".."), Err(EINVAL));
        assert_eq!(readlink(&env, "x"), Err(ENOENT));
        assert_eq!(readlink(&env, "f/x"), Err(namespace::ENOTDIR));
        assert_eq!(symlink(&mut env, "f", "l"), Err(namespace::EEXIST));
        assert_eq!(symlink(&mut env, "", "m"), Err(ENOENT));
    }
}
