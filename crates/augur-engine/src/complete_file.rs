//! Writing a file so that, however the process ends, the file is missing or complete:
//! tests and summaries are read by later commands (replay, merge), also of killed runs.
//!
//! On Linux the data goes into an unnamed file in the target directory (`O_TMPFILE`),
//! which gets its name once written (`linkat`): one directory entry per file. Elsewhere,
//! or where the file system has no unnamed files, it goes through a temporary `.part`
//! name and a rename, which costs an ext4 directory about twice as much.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Write `data` as the file `path` (replacing it), complete or not at all.
pub fn write_file(path: &Path, data: &[u8]) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    if let Some(file) = unnamed::create(path) {
        let mut file = file?;
        file.write_all(data)?;
        return unnamed::link(&file, path);
    }
    let tmp = path.with_extension("part");
    fs::File::create(&tmp)?.write_all(data)?;
    fs::rename(tmp, path)
}

#[cfg(target_os = "linux")]
mod unnamed {
    use std::ffi::CString;
    use std::fs::{self, File, OpenOptions};
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    use std::path::Path;

    /// An unnamed file in the directory of `path`; `None` where the file system (or the
    /// kernel) has none, so the caller takes another way.
    pub fn create(path: &Path) -> Option<io::Result<File>> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        match OpenOptions::new()
            .write(true)
            .mode(0o666)
            .custom_flags(libc::O_TMPFILE)
            .open(dir)
        {
            Ok(f) => Some(Ok(f)),
            Err(e) if unsupported(&e) => None,
            Err(e) => Some(Err(e)),
        }
    }

    /// Whether opening an unnamed file failed for want of support, not of the directory.
    fn unsupported(e: &io::Error) -> bool {
        matches!(
            e.raw_os_error(),
            Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
        )
    }

    /// Give the unnamed `file` the name `path`, replacing a file of that name.
    pub fn link(file: &File, path: &Path) -> io::Result<()> {
        let name = CString::new(path.as_os_str().as_bytes())?;
        match link_once(file, &name) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                fs::remove_file(path)?;
                link_once(file, &name)
            }
            r => r,
        }
    }

    /// `linkat` of the open `file` to `name`: by its descriptor (Linux 6.10 and later, or
    /// with CAP_DAC_READ_SEARCH), else through `/proc/self/fd`.
    fn link_once(file: &File, name: &CString) -> io::Result<()> {
        let empty = c"";
        // SAFETY: both strings are NUL-terminated and outlive the call; the descriptor
        // is open for its duration.
        let r = unsafe {
            libc::linkat(
                file.as_raw_fd(),
                empty.as_ptr(),
                libc::AT_FDCWD,
                name.as_ptr(),
                libc::AT_EMPTY_PATH,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::ENOENT | libc::EPERM)) {
            return Err(e);
        }
        let proc = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
        // SAFETY: as above.
        let r = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                proc.as_ptr(),
                libc::AT_FDCWD,
                name.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_replaces_leaving_no_other_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_file(&p, b"first").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"first");
        write_file(&p, b"second, longer").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"second, longer");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
        assert!(write_file(&dir.path().join("missing/b.json"), b"x").is_err());
    }
}
