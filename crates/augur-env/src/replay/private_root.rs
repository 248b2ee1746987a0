//! The native run's own root: the world of the analysis, as far as Linux can show it.
//!
//! In the analysis the working directory is `/augur/work`, `/tmp` is empty, `/` cannot be
//! listed and nothing else can be written. A native run in the host's root saw the host's
//! instead: `ls /` listed it, `ls /tmp` listed other programs' files, and a test of
//! `rm -r /usr` acted on `/usr`. So each native run gets a root of its own, in a private
//! mount namespace made before the program starts:
//! - `/augur` and `/tmp` are on a file system of the run's own (a tmpfs), made afresh:
//!   `/augur/work` holds the test's files, made in the order the analysis made them, and
//!   `/tmp` is empty (mode 1777). Such a volume numbers its inodes in the order they are
//!   made: its root (not visible) 1, the file standard input reads (made whether or not
//!   the test has one) 2, `/augur` 3, `/augur/work` 4, `/tmp` 5, then the test's files and
//!   the files and directories the program makes, as the analysis numbers them
//!   (`runtime/fixed_volume.h`), so `stat` and `ls -i` print the same numbers;
//! - `/.augur-replay` holds the replay's own files (binary, `.ktest` files, outputs);
//! - every other directory of the host's `/` but `/etc` (absent in the analysis) is bound
//!   in, read-only where the kernel allows it (its own mounts below stay as they are),
//!   except `/proc`, `/dev` and `/sys`, bound as they are; the host's top-level symbolic
//!   links (`/bin` to `usr/bin`) are copied, its top-level files left out;
//! - but the directories of programs (`/usr/bin`, `/bin`, `/usr/local/sbin`, ...) are not
//!   there: the analysis's world has no program to find, so a shell's search of its path
//!   (BusyBox `sh -c w`) or `which` finds none natively either. `/usr` and `/usr/local`
//!   are directories of the root's own holding the host's other entries there;
//! - `/` and `/augur` may be passed through, not listed (mode 0111), as in the analysis.
//!
//! The root's unchanging part (its mount points and links) is made once per user and
//! host layout, in `$TMPDIR/augur-root-UID-HASH`, and shared; each run mounts its own
//! volume and binds in its own namespace. The child is started by `spawn.rs`.
//!
//! Root makes the namespace directly and then runs the program as `nobody`
//! ([`super::unprivileged`]); any other user makes it inside a user namespace of its own,
//! where it is uid 1000, the analysis's user. Where the kernel allows neither (user
//! namespaces switched off), the run falls back to the host's root, with a warning once.

use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The working directory of a native run, as the analysis names it ([`crate::WORK_DIR`]).
const WORK: &std::ffi::CStr = c"/augur/work";
/// Where the replay's own files of a native run are (binary, `.ktest`, outputs).
pub const REPLAY: &str = "/.augur-replay";
/// The mode of `/` and `/augur`: passed through, never listed.
const PASS_ONLY: u32 = 0o111;
/// The host's top-level directories not bound: the new root's own, and `/etc`, which the
/// analysis's world lacks (its users and groups are the replay runtime's answers, its
/// time zone UTC, its mount table absent).
const LEFT_OUT: &[&str] = &["tmp", "augur", REPLAY_NAME, "etc"];
/// [`REPLAY`] without its slash: its name in the new root.
const REPLAY_NAME: &str = ".augur-replay";
/// The host directories bound as they are: writable devices and the kernel's views.
const BOUND_AS_THEY_ARE: &[&str] = &["proc", "dev", "sys"];
/// The host's directories of programs, left out of the root (a link by one of these
/// names is copied: it leads nowhere). Their parents (`usr`, `usr/local`) are the root's
/// own directories, holding the host's other entries.
const PROGRAM_DIRS: &[&str] = &[
    "bin",
    "sbin",
    "usr/bin",
    "usr/sbin",
    "usr/games",
    "usr/local/bin",
    "usr/local/sbin",
    "usr/local/games",
];

/// The sanitizers' options that name their symbolizer.
const SYMBOLIZED: &[&str] = &["ASAN_OPTIONS", "UBSAN_OPTIONS", "MSAN_OPTIONS"];

/// The sanitizers' options of a run in the new root, `env` (the run's whole environment)
/// changed: they find `llvm-symbolizer` through PATH, whose directories the root lacks,
/// so each names this build's LLVM's by its own path (`/usr/lib/llvm-14/bin/...`, which
/// the root has) unless it names one already. A sanitizer's report then has its
/// functions and lines, which `augur repro` matches against the field's stack.
pub fn name_the_symbolizer(env: &mut Vec<(OsString, OsString)>) {
    static SYMBOLIZER: OnceLock<Option<PathBuf>> = OnceLock::new();
    let found = SYMBOLIZER.get_or_init(|| {
        let name = augur_ir::llvm::llvm_tool("llvm-symbolizer");
        crate::runtime_objects::resolve(OsStr::new(&name)).filter(|p| {
            !PROGRAM_DIRS
                .iter()
                .any(|d| p.starts_with(Path::new("/").join(d)))
        })
    });
    let Some(symbolizer) = found else { return };
    for name in SYMBOLIZED {
        let mut option = OsString::from("external_symbolizer_path=");
        option.push(symbolizer);
        match env.iter_mut().find(|(k, _)| k == name) {
            Some((_, v))
                if v.as_bytes()
                    .windows(19)
                    .any(|w| w == b"external_symbolizer") => {}
            Some((_, v)) => {
                v.push(":");
                v.push(option);
            }
            None => env.push((OsString::from(name), option)),
        }
    }
}

/// One bind mount to make: `from` (a host path) on `to` (inside the new root).
struct Bind {
    from: CString,
    to: CString,
    /// With the mounts below `from` (the host's; not the replay's own directory).
    recursive: bool,
    /// Remount it read-only, with these flags kept (the kernel refuses, in a user
    /// namespace, a remount that drops a flag such as nosuid).
    read_only: Option<libc::c_ulong>,
}

/// One file or directory made on the run's volume.
struct Made {
    /// Its path on the volume (before the root is entered).
    path: CString,
    /// The host file to copy (in the scratch directory), or None for a directory.
    source: Option<CString>,
    mode: u32,
}

/// Everything the child does to enter its root, prepared by the parent: the child, which
/// shares the parent's memory, may not allocate.
pub struct PrivateRoot {
    /// What every run shares.
    skeleton: &'static Skeleton,
    /// Standard input's content (the scratch directory's `stdin`), copied to the
    /// skeleton's file.
    stdin: Made,
    /// Whether the program reads that file (else standard input is as the parent set it).
    reads_stdin: bool,
    /// The test's files and directories, made on the volume in this order.
    made: Vec<Made>,
    /// The bind of this run's scratch directory on the root's replay directory.
    replay: Bind,
    /// Run as this uid and gid after entering (root's `nobody`).
    become_id: Option<u32>,
}

/// A path as a C string (paths never hold a NUL).
fn c_path(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).expect("a path without NUL")
}

/// The mount flags of `path`'s file system that a remount must keep.
fn kept_flags(path: &Path) -> libc::c_ulong {
    let c = c_path(path);
    // SAFETY: `c` is a valid C string and `s` a valid out-parameter.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return 0;
    }
    [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ]
    .into_iter()
    .filter(|(st, _)| s.f_flag & st != 0)
    .fold(0, |acc, (_, ms)| acc | ms)
}

/// The parts of every run's root that do not change, made once and shared by every run
/// of every augur process of this user: making them for each run (some thirty
/// directories) cost more than the run on a large ext4 volume, in its inode allocator.
/// What each child does with them is prepared here too, once.
struct Skeleton {
    /// The new root: mount points for the host's directories, `tmp`, `augur` and the
    /// replay's own, copies of the host's links, and the directories holding left-out
    /// ones.
    root: CString,
    /// The mount point of each run's own volume (a tmpfs), outside the new root.
    volume: CString,
    /// Standard input's file on that volume, made first (inode number 2; the volume's
    /// root is 1), whether or not the program reads it.
    stdin: CString,
    /// The directories each child makes on that volume next, in order, with their modes:
    /// `augur`, `augur/work` and `tmp`, inode numbers 3, 4 and 5.
    volume_dirs: Vec<Made>,
    /// The binds of every run: the volume's `augur` and `tmp`, then the host's
    /// directories. Each run's replay directory is bound apart.
    binds: Vec<Bind>,
    /// The user namespace's maps (`/proc/self/uid_map`, `gid_map`), when not root.
    maps: Option<(Vec<u8>, Vec<u8>)>,
    /// The working directory on the volume, where each run makes its test's files.
    work: PathBuf,
    /// The root's replay directory, on which each run binds its scratch directory.
    replay: PathBuf,
}

/// This process's skeleton, or why it could not be made.
static SKELETON: OnceLock<Result<Skeleton, String>> = OnceLock::new();

/// An entry of the host's tree the new root has, by its path relative to `/`: a
/// directory (bound, or made when it holds a left-out directory: `HostEntry::Made`) or
/// a symbolic link (copied, with its target).
#[derive(Debug, PartialEq, Eq)]
enum HostEntry {
    /// A host directory bound on a mount point of the same name.
    Bound(PathBuf),
    /// A directory of the root's own, holding the host's entries of that name.
    Made(PathBuf),
    /// A symbolic link and its target.
    Link(PathBuf, PathBuf),
}

impl HostEntry {
    /// Its path relative to `/`.
    fn path(&self) -> &Path {
        match self {
            Self::Bound(p) | Self::Made(p) | Self::Link(p, _) => p,
        }
    }
}

/// The host's entries the new root has, parents before what they hold: the directories
/// and links of `/` but [`LEFT_OUT`], with [`PROGRAM_DIRS`] left out below it.
fn host_entries() -> std::io::Result<Vec<HostEntry>> {
    let mut entries = Vec::new();
    entries_below(Path::new(""), &mut entries)?;
    entries.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(entries)
}

/// The entries of the host directory `/dir` (`dir` relative) onto `entries`.
fn entries_below(dir: &Path, entries: &mut Vec<HostEntry>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(Path::new("/").join(dir))? {
        let entry = entry?;
        let path = dir.join(entry.file_name());
        let top_level_left_out = dir.as_os_str().is_empty()
            && LEFT_OUT.iter().any(|d| OsStr::new(d) == entry.file_name());
        let kind = entry.file_type()?;
        if top_level_left_out {
            continue;
        } else if kind.is_symlink() {
            entries.push(HostEntry::Link(path, std::fs::read_link(entry.path())?));
        } else if !kind.is_dir() || is_program_dir(&path) {
            continue;
        } else if holds_program_dir(&path) {
            entries_below(&path, entries)?;
            entries.push(HostEntry::Made(path));
        } else {
            entries.push(HostEntry::Bound(path));
        }
    }
    Ok(())
}

/// Is `path` (relative to `/`) one of [`PROGRAM_DIRS`]?
fn is_program_dir(path: &Path) -> bool {
    PROGRAM_DIRS.iter().any(|d| Path::new(d) == path)
}

/// Does `path` (relative to `/`) hold one of [`PROGRAM_DIRS`]?
fn holds_program_dir(path: &Path) -> bool {
    PROGRAM_DIRS
        .iter()
        .any(|d| Path::new(d).starts_with(path) && Path::new(d) != path)
}

/// Is `base` a skeleton this user may trust: a directory of its own that no one else may
/// write?
fn trusted(base: &Path, uid: u32) -> bool {
    std::fs::symlink_metadata(base)
        .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o022 == 0)
}

/// The skeleton for the host's entries `entries`: `$TMPDIR/augur-root-UID-HASH` (HASH of
/// the entries, so a changed `/` gets a new one), made (in a directory of its own, then
/// renamed into place) when absent.
fn make_skeleton(entries: &[HostEntry]) -> std::io::Result<Skeleton> {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    // FNV-1a over the entries: stable across builds and runs.
    let hash = entries
        .iter()
        .flat_map(|entry| {
            let kind: &[u8] = match entry {
                HostEntry::Bound(_) => b"/",
                HostEntry::Made(_) => b"+",
                HostEntry::Link(_, target) => target.as_os_str().as_bytes(),
            };
            [entry.path().as_os_str().as_bytes(), b"\0", kind, b"\0"].concat()
        })
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    let base = std::env::temp_dir().join(format!("augur-root-{uid}-{hash:016x}"));
    if !trusted(&base, uid) {
        let new = tempfile::Builder::new()
            .prefix("augur-root-")
            .tempdir_in(std::env::temp_dir())?;
        let dir = |p: &Path| std::fs::create_dir(p);
        dir(&new.path().join("volume"))?;
        let root = new.path().join("root");
        dir(&root)?;
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755))?;
        for mount_point in ["tmp", "augur", REPLAY_NAME] {
            dir(&root.join(mount_point))?;
        }
        for entry in entries {
            let at = root.join(entry.path());
            match entry {
                HostEntry::Link(_, target) => std::os::unix::fs::symlink(target, at)?,
                HostEntry::Bound(_) => dir(&at)?,
                HostEntry::Made(_) => {
                    dir(&at)?;
                    std::fs::set_permissions(&at, std::fs::Permissions::from_mode(0o755))?;
                }
            }
        }
        // Another process may have made it meanwhile: then theirs is used.
        if std::fs::rename(new.path(), &base).is_ok() {
            std::mem::forget(new);
        } else if !trusted(&base, uid) {
            return Err(std::io::Error::other(format!(
                "{} is not this user's own",
                base.display()
            )));
        }
    }
    let (root, volume) = (base.join("root"), base.join("volume"));
    let bind = |from: &Path, to: &Path, recursive, read_only| Bind {
        from: c_path(from),
        to: c_path(to),
        recursive,
        read_only,
    };
    let mut binds = vec![
        bind(&volume.join("augur"), &root.join("augur"), false, None),
        bind(&volume.join("tmp"), &root.join("tmp"), false, None),
    ];
    let bound = entries.iter().filter_map(|e| match e {
        HostEntry::Bound(path) => Some(path),
        _ => None,
    });
    for name in bound {
        let host = Path::new("/").join(name);
        let as_is = BOUND_AS_THEY_ARE.iter().any(|d| Path::new(d) == name);
        let read_only = (!as_is).then(|| kept_flags(&host));
        binds.push(bind(&host, &root.join(name), true, read_only));
    }
    let volume_dirs = [
        ("augur", 0o755),
        ("augur/work", crate::modes::DIR_MODE),
        ("tmp", 0o1777),
    ]
    .into_iter()
    .map(|(name, mode)| Made {
        path: c_path(&volume.join(name)),
        source: None,
        mode,
    })
    .collect();
    // SAFETY: getegid cannot fail.
    let gid = unsafe { libc::getegid() };
    let maps = (uid != 0).then(|| {
        (
            format!("1000 {uid} 1\n").into_bytes(),
            format!("1000 {gid} 1\n").into_bytes(),
        )
    });
    Ok(Skeleton {
        root: c_path(&root),
        volume: c_path(&volume),
        stdin: c_path(&volume.join("stdin")),
        volume_dirs,
        binds,
        maps,
        work: volume.join("augur/work"),
        replay: root.join(REPLAY_NAME),
    })
}

/// This process's skeleton, made or found the first time.
fn skeleton() -> std::io::Result<&'static Skeleton> {
    SKELETON
        .get_or_init(|| {
            host_entries()
                .and_then(|e| make_skeleton(&e))
                .map_err(|e| format!("cannot make the native runs' root: {e}"))
        })
        .as_ref()
        .map_err(|e| std::io::Error::other(e.clone()))
}

impl PrivateRoot {
    /// The root of a run whose files are `scratch`, its test's files `files` (names in the
    /// working directory, in the order the analysis made them; copies in `scratch/cwd`),
    /// standard input `scratch/stdin` when `reads_stdin`: the shared skeleton, with this
    /// run's own volume and replay directory. `become_id`: the id root runs the program
    /// as.
    pub fn prepare<'a>(
        scratch: &Path,
        files: impl IntoIterator<Item = &'a str>,
        reads_stdin: bool,
        become_id: Option<u32>,
    ) -> std::io::Result<Self> {
        let skeleton = skeleton()?;
        Ok(Self {
            skeleton,
            stdin: Made {
                path: skeleton.stdin.clone(),
                source: Some(c_path(&scratch.join("stdin"))),
                mode: crate::modes::FILE_MODE,
            },
            reads_stdin,
            made: made_in_order(&skeleton.work, &scratch.join("cwd"), files),
            replay: Bind {
                from: c_path(scratch),
                to: c_path(&skeleton.replay),
                recursive: false,
                read_only: None,
            },
            become_id,
        })
    }

    /// Enter the new root: called in the child between fork and exec, so it only makes
    /// system calls. Leaves the child in `/augur/work`, as `nobody` when root made it.
    pub fn enter(&self) -> std::io::Result<()> {
        let check = |r: libc::c_int| {
            if r < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        };
        // SAFETY: every pointer below is a valid NUL-terminated string or null where the
        // call allows it; these calls touch no memory of this process besides their
        // arguments.
        unsafe {
            let skeleton = self.skeleton;
            match &skeleton.maps {
                Some((uid_map, gid_map)) => {
                    check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
                    write_file(c"/proc/self/setgroups", b"deny")?;
                    write_file(c"/proc/self/uid_map", uid_map)?;
                    write_file(c"/proc/self/gid_map", gid_map)?;
                }
                None => check(libc::unshare(libc::CLONE_NEWNS))?,
            }
            let none = std::ptr::null::<libc::c_char>();
            check(libc::mount(
                none,
                c"/".as_ptr(),
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            let root = skeleton.root.as_ptr();
            check(libc::mount(
                root,
                root,
                none,
                libc::MS_BIND,
                std::ptr::null(),
            ))?;
            check(libc::mount(
                c"augur".as_ptr(),
                skeleton.volume.as_ptr(),
                c"tmpfs".as_ptr(),
                0,
                c"mode=755".as_ptr().cast(),
            ))?;
            self.make(&self.stdin)?;
            if self.reads_stdin {
                let fd = libc::open(self.stdin.path.as_ptr(), libc::O_RDONLY);
                check(fd)?;
                check(libc::dup2(fd, 0))?;
                check(libc::close(fd))?;
            }
            for m in skeleton.volume_dirs.iter().chain(&self.made) {
                self.make(m)?;
            }
            for b in skeleton.binds.iter().chain([&self.replay]) {
                let flags = libc::MS_BIND | if b.recursive { libc::MS_REC } else { 0 };
                check(libc::mount(
                    b.from.as_ptr(),
                    b.to.as_ptr(),
                    none,
                    flags,
                    std::ptr::null(),
                ))?;
                if let Some(kept) = b.read_only {
                    // Best effort: a mount the kernel will not make read-only stays as it is.
                    let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | kept;
                    libc::mount(none, b.to.as_ptr(), none, flags, std::ptr::null());
                }
            }
            check(libc::chdir(root))?;
            check(libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as _)?;
            check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
            check(libc::chmod(c"/".as_ptr(), PASS_ONLY))?;
            check(libc::chmod(c"/augur".as_ptr(), PASS_ONLY))?;
            check(libc::chdir(WORK.as_ptr()))?;
            if let Some(id) = self.become_id {
                check(libc::setgroups(0, std::ptr::null()))?;
                check(libc::setgid(id))?;
                check(libc::setuid(id))?;
            }
        }
        Ok(())
    }

    /// Make the file or directory `m` (only system calls), the run's user's.
    fn make(&self, m: &Made) -> std::io::Result<()> {
        // SAFETY: the paths are valid C strings.
        let made = unsafe {
            match &m.source {
                Some(source) => copy_file(source, &m.path, m.mode),
                None if libc::mkdir(m.path.as_ptr(), 0o700) < 0 => {
                    Err(std::io::Error::last_os_error())
                }
                None => Ok(()),
            }
        };
        made?;
        // SAFETY: as above.
        if unsafe { libc::chmod(m.path.as_ptr(), m.mode) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
        self.give(&m.path)
    }

    /// Give `path` to the user root runs the program as, if any (only system calls).
    fn give(&self, path: &CString) -> std::io::Result<()> {
        match self.become_id {
            // SAFETY: `path` is a valid C string.
            Some(id) if unsafe { libc::lchown(path.as_ptr(), id, id) } < 0 => {
                Err(std::io::Error::last_os_error())
            }
            _ => Ok(()),
        }
    }
}

/// The files and directories of a test whose files are `files`, to make in `work` in
/// order: each file after the directories leading to it that are not made yet, its data
/// copied from `from`. The volume numbers them in this order, as the analysis does.
fn made_in_order<'a>(
    work: &Path,
    from: &Path,
    files: impl IntoIterator<Item = &'a str>,
) -> Vec<Made> {
    let mut made: Vec<Made> = Vec::new();
    let mut dirs: Vec<&Path> = Vec::new();
    for name in files {
        let name = Path::new(name);
        let parents: Vec<&Path> = name.ancestors().skip(1).collect();
        for dir in parents
            .into_iter()
            .rev()
            .filter(|d| !d.as_os_str().is_empty())
        {
            if !dirs.contains(&dir) {
                dirs.push(dir);
                made.push(Made {
                    path: c_path(&work.join(dir)),
                    source: None,
                    mode: crate::modes::DIR_MODE,
                });
            }
        }
        made.push(Made {
            path: c_path(&work.join(name)),
            source: Some(c_path(&from.join(name))),
            mode: crate::modes::FILE_MODE,
        });
    }
    made
}

/// Copy the file `from` to the new file `to` with raw system calls.
///
/// # Safety
/// Only system calls: fit for a child between fork and exec.
unsafe fn copy_file(from: &CString, to: &CString, mode: u32) -> std::io::Result<()> {
    let src = libc::open(from.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
    if src < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC;
    let dst = libc::open(to.as_ptr(), flags, mode);
    let mut result = if dst < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    };
    let mut buf = [0u8; 8192];
    while result.is_ok() {
        let n = libc::read(src, buf.as_mut_ptr().cast(), buf.len());
        if n <= 0 {
            if n < 0 {
                result = Err(std::io::Error::last_os_error());
            }
            break;
        }
        let mut done = 0;
        while done < n as usize {
            let w = libc::write(dst, buf[done..].as_ptr().cast(), n as usize - done);
            if w <= 0 {
                result = Err(std::io::Error::last_os_error());
                break;
            }
            done += w as usize;
        }
    }
    libc::close(src);
    if dst >= 0 {
        libc::close(dst);
    }
    result
}

/// Write `bytes` to the file `path` (a `/proc` file) with raw system calls.
///
/// # Safety
/// Only system calls: fit for a child between fork and exec.
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> std::io::Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let n = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    let err = std::io::Error::last_os_error();
    libc::close(fd);
    if n == bytes.len() as isize {
        Ok(())
    } else {
        Err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The child enters the working directory the analysis names.
    #[test]
    fn the_work_directory_is_the_analysis_s() {
        assert_eq!(WORK.to_str(), Ok(crate::WORK_DIR));
    }

    /// The root has the host's libraries but none of its directories of programs, and
    /// makes `/usr` itself to hold the rest.
    #[test]
    fn the_root_has_no_directory_of_programs() {
        let entries = host_entries().unwrap();
        let has = |e: HostEntry| entries.contains(&e);
        assert!(has(HostEntry::Made("usr".into())), "{entries:?}");
        assert!(has(HostEntry::Bound("usr/lib".into())), "{entries:?}");
        let paths: Vec<&Path> = entries.iter().map(HostEntry::path).collect();
        assert!(!paths.contains(&Path::new("usr/bin")), "{paths:?}");
        let bin_dir = |e: &HostEntry| matches!(e, HostEntry::Bound(p) if p == Path::new("bin"));
        assert!(!entries.iter().any(bin_dir), "{entries:?}");
        let sorted = entries.windows(2).all(|w| w[0].path() < w[1].path());
        assert!(sorted, "{paths:?}");
    }

    /// The test's files are made in order, each after the directories leading to it, each
    /// directory once: the order the volume numbers them in.
    #[test]
    fn files_are_made_after_their_directories_in_order() {
        let files = ["A", "d/e/f", "d/g", "B"];
        let made = made_in_order(Path::new("/v/work"), Path::new("/s/cwd"), files);
        let got: Vec<(String, Option<String>)> = made
            .iter()
            .map(|m| {
                let text = |c: &CString| c.to_str().unwrap().to_string();
                (text(&m.path), m.source.as_ref().map(text))
            })
            .collect();
        let file = |n: &str| (format!("/v/work/{n}"), Some(format!("/s/cwd/{n}")));
        let dir = |n: &str| (format!("/v/work/{n}"), None);
        assert_eq!(
            got,
            vec![
                file("A"),
                dir("d"),
                dir("d/e"),
                file("d/e/f"),
                file("d/g"),
                file("B")
            ]
        );
    }
}
