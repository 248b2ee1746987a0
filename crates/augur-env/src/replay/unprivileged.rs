//! Native runs never run as root. A test of `rm`, `mv` or `chmod` may name any path, `/`
//! among them; the analysis ran it on its fixed world, but natively it acts on the real
//! one. So when augur itself runs as root, each native run is handed to the unprivileged
//! user `nobody` (uid and gid 65534, the kernel's overflow id, which exists with or without
//! an entry in `/etc/passwd`): its scratch directory is given to that user, the binary is
//! put in it ([`place_binary`]), and the program runs with that uid, that gid and no
//! supplementary group.
//! The program sees the analysis's user all the same: the replay runtime answers `getuid`
//! and its kin with the fixed world's (runtime/replay/replay.c).

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The user and group id of `nobody`.
const NOBODY: u32 = 65534;
/// The mode bits that let any user read and run a file.
const OTHERS_READ_RUN: u32 = 0o005;

/// The user a native run is handed to: `nobody` when this process runs as root.
#[derive(Clone, Copy, Debug)]
pub struct Unprivileged {
    id: u32,
}

impl Unprivileged {
    /// `nobody` when this process's effective user is root, else `None` (the run keeps the
    /// invoking user, who has no more rights than the program should).
    pub fn when_root() -> Option<Self> {
        // SAFETY: geteuid has no preconditions and cannot fail.
        let euid = unsafe { libc::geteuid() };
        (euid == 0).then_some(Self { id: NOBODY })
    }

    /// This user's uid (and gid).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Give the scratch directory `root`, and all in it, to this user.
    pub fn give_scratch(&self, root: &Path) -> Result<(), String> {
        give(root, self.id).map_err(|e| format!("cannot hand the test's directory to nobody: {e}"))
    }

    /// Run `cmd` as this user, with no supplementary group.
    pub fn apply(&self, cmd: &mut Command) {
        // std drops the supplementary groups when it sets the uid from root.
        cmd.uid(self.id).gid(self.id);
    }
}

/// Put `binary` in the scratch directory `root` as `program`, for `user` (the run's, when
/// not augur's own) to run: the binary may sit in a directory only its owner can enter. It
/// is linked there when the user may run it (a link stays its owner's, so the program
/// cannot rewrite itself for the next test), else copied and the copy given to the user.
pub fn place_binary(
    root: &Path,
    binary: &Path,
    user: Option<Unprivileged>,
) -> Result<PathBuf, String> {
    let io = |e: std::io::Error| {
        format!(
            "cannot put {} in the test's directory: {e}",
            binary.display()
        )
    };
    let program = root.join("program");
    let mode = std::fs::metadata(binary).map_err(io)?.permissions().mode();
    let runnable = user.is_none() || mode & OTHERS_READ_RUN == OTHERS_READ_RUN;
    if !(runnable && std::fs::hard_link(binary, &program).is_ok()) {
        std::fs::copy(binary, &program).map_err(io)?;
        if let Some(user) = user {
            give(&program, user.id).map_err(io)?;
        }
    }
    Ok(program)
}

/// `path`, and everything under it when it is a directory, owned by `id`. Symbolic links
/// are given themselves (lchown), never followed.
fn give(path: &Path, id: u32) -> std::io::Result<()> {
    std::os::unix::fs::lchown(path, Some(id), Some(id))?;
    if std::fs::symlink_metadata(path)?.is_dir() {
        for entry in std::fs::read_dir(path)? {
            give(&entry?.path(), id)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    /// Handed over, the scratch directory and what is in it belong to nobody, and the
    /// binary is reachable there whatever the directory it was built in: a copy given to
    /// nobody when only its owner may run it.
    #[test]
    fn the_scratch_directory_is_given_to_nobody() {
        let Some(user) = Unprivileged::when_root() else {
            return; // Only root can give files away; any other user runs as itself.
        };
        let built = tempfile::tempdir().unwrap();
        let binary = built.path().join("prog");
        std::fs::write(&binary, b"#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o700)).unwrap();
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("cwd/sub")).unwrap();
        std::fs::write(root.path().join("cwd/sub/f"), b"x").unwrap();
        user.give_scratch(root.path()).unwrap();
        let program = place_binary(root.path(), &binary, Some(user)).unwrap();
        assert_eq!(program, root.path().join("program"));
        for p in [root.path(), &program, &root.path().join("cwd/sub/f")] {
            let m = std::fs::symlink_metadata(p).unwrap();
            assert_eq!((m.uid(), m.gid()), (NOBODY, NOBODY), "{}", p.display());
        }
        assert_eq!(std::fs::read(&program).unwrap(), b"#!/bin/sh\n");
        // A binary anyone may run is linked, and stays its owner's.
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
        let again = tempfile::tempdir().unwrap();
        let linked = place_binary(again.path(), &binary, Some(user)).unwrap();
        assert_eq!(std::fs::metadata(&linked).unwrap().uid(), 0);
        assert_eq!(
            std::fs::metadata(&linked).unwrap().ino(),
            std::fs::metadata(&binary).unwrap().ino()
        );
    }
}
