//! The runtime shipped inside the binary: headers, written once to a cache directory whose
//! path marks it as augur's (coverage and reports skip files under it).

use std::path::PathBuf;

/// (relative path, contents) of every runtime file.
const FILES: &[(&str, &str)] = &[
    ("augur.h", include_str!("../../../runtime/augur.h")),
    ("klee/klee.h", include_str!("../../../runtime/klee/klee.h")),
];

/// The runtime directory (created and filled on first use); use it as an include path.
pub fn runtime_dir() -> std::io::Result<PathBuf> {
    let base = std::env::var_os("AUGUR_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("augur-runtime-{}", env!("CARGO_PKG_VERSION")));
    for (rel, contents) in FILES {
        let path = dir.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*contents) {
            std::fs::create_dir_all(path.parent().expect("runtime files live in a directory"))?;
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&tmp, contents)?;
            std::fs::rename(&tmp, &path)?;
        }
    }
    Ok(dir)
}
