//! Choosing the output directory: `-o DIR`, or a new `augur-out-N` beside an
//! `augur-out-last` link to it (as KLEE does).

use std::path::{Path, PathBuf};

/// Create and return the output directory (drivers call it once their inputs are
/// checked, so a bad input leaves no directory behind).
pub fn prepare_output_dir(requested: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(dir) = requested {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create output directory: {e}", dir.display()))?;
        return Ok(dir.to_path_buf());
    }
    let mut n = 0;
    let dir = loop {
        let candidate = PathBuf::from(format!("augur-out-{n}"));
        match std::fs::create_dir(&candidate) {
            Ok(()) => break candidate,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => {
                return Err(format!(
                    "{}: cannot create output directory: {e}",
                    candidate.display()
                ))
            }
        }
    };
    let last = Path::new("augur-out-last");
    let _ = std::fs::remove_file(last);
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink(&dir, last);
    Ok(dir)
}
