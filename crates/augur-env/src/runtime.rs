//! The runtime shipped inside the binary: headers and the libc models, written once to a
//! cache directory whose path marks it as augur's (coverage and reports skip files under
//! it); the models are compiled to bitcode there and linked into every analysed program.

use augur_ir::{compile_c, CompileOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// (relative path, contents) of every runtime file.
const FILES: &[(&str, &str)] = &[
    ("augur.h", include_str!("../../../runtime/augur.h")),
    (
        "fixed_random.h",
        include_str!("../../../runtime/fixed_random.h"),
    ),
    ("klee/klee.h", include_str!("../../../runtime/klee/klee.h")),
    (
        "replay/replay.c",
        include_str!("../../../runtime/replay/replay.c"),
    ),
    (
        "record/record.c",
        include_str!("../../../runtime/record/record.c"),
    ),
    (
        "libc/augur_sys.h",
        include_str!("../../../runtime/libc/augur_sys.h"),
    ),
    (
        "libc/libc_internal.h",
        include_str!("../../../runtime/libc/libc_internal.h"),
    ),
    (
        "libc/ctype.c",
        include_str!("../../../runtime/libc/ctype.c"),
    ),
    ("libc/exit.c", include_str!("../../../runtime/libc/exit.c")),
    ("libc/fd.c", include_str!("../../../runtime/libc/fd.c")),
    ("libc/dir.c", include_str!("../../../runtime/libc/dir.c")),
    (
        "libc/fnmatch.c",
        include_str!("../../../runtime/libc/fnmatch.c"),
    ),
    ("libc/time.c", include_str!("../../../runtime/libc/time.c")),
    (
        "libc/thread.c",
        include_str!("../../../runtime/libc/thread.c"),
    ),
    (
        "libc/process.c",
        include_str!("../../../runtime/libc/process.c"),
    ),
    (
        "libc/error.c",
        include_str!("../../../runtime/libc/error.c"),
    ),
    (
        "libc/locale.c",
        include_str!("../../../runtime/libc/locale.c"),
    ),
    ("libc/math.c", include_str!("../../../runtime/libc/math.c")),
    (
        "libc/ldouble.c",
        include_str!("../../../runtime/libc/ldouble.c"),
    ),
    (
        "libc/printf.c",
        include_str!("../../../runtime/libc/printf.c"),
    ),
    (
        "libc/scanf.c",
        include_str!("../../../runtime/libc/scanf.c"),
    ),
    (
        "libc/stdio.c",
        include_str!("../../../runtime/libc/stdio.c"),
    ),
    (
        "libc/stdlib.c",
        include_str!("../../../runtime/libc/stdlib.c"),
    ),
    (
        "libc/string.c",
        include_str!("../../../runtime/libc/string.c"),
    ),
    (
        "libc/unistd.c",
        include_str!("../../../runtime/libc/unistd.c"),
    ),
];

/// Write `contents` to `path` unless it already holds exactly that.
fn write_if_changed(path: &Path, contents: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    std::fs::create_dir_all(path.parent().expect("runtime files live in a directory"))?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path)
}

/// The runtime directory (created and filled on first use); use it as an include path.
/// Its name carries the LLVM version and a hash of the runtime's files, so binaries with
/// different runtimes (other versions, other builds, other LLVMs) never share one, and its
/// compiled libc never goes stale.
pub fn runtime_dir() -> std::io::Result<PathBuf> {
    use std::hash::{Hash, Hasher};
    let base = std::env::var_os("AUGUR_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    FILES.hash(&mut h);
    let dir = base.join(format!(
        "augur-runtime-{}-llvm{}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        augur_ir::LLVM_VERSION,
        h.finish()
    ));
    for (rel, contents) in FILES {
        write_if_changed(&dir.join(rel), contents)?;
    }
    Ok(dir)
}

/// The libc models as one bitcode file (compiled on first use, then cached). With
/// `x87_long_double` (a program built without augur's `-mlong-double-64`, whose `long
/// double` is `x86_fp80`) the models are compiled with the same `long double`, so that
/// `strtold`, `printf("%Lg")` and the like agree with the program on its type.
pub fn libc_bitcode(dir: &Path, x87_long_double: bool) -> Result<PathBuf, String> {
    let linked = dir.join(if x87_long_double {
        "libc-fp80.bc"
    } else {
        "libc.bc"
    });
    if linked.exists() {
        return Ok(linked);
    }
    let libc = dir.join("libc");
    let mut cflags = vec!["-ffreestanding".to_string(), "-fno-builtin".into()];
    if x87_long_double {
        cflags.push("-mlong-double-80".into());
    }
    let opts = CompileOptions {
        cflags,
        include_dirs: vec![libc.clone()],
    };
    let pid = std::process::id();
    let mut parts = Vec::new();
    for (rel, _) in FILES
        .iter()
        .filter(|(r, _)| r.starts_with("libc/") && r.ends_with(".c"))
    {
        let src = dir.join(rel);
        let out = src.with_extension(format!("{pid}.bc"));
        compile_c(&src, &out, &opts).map_err(|e| format!("augur's libc model: {e}"))?;
        parts.push(out);
    }
    let tmp = linked.with_extension(format!("{pid}.bc"));
    let link = augur_ir::llvm::llvm_link();
    let status = Command::new(&link)
        .args(&parts)
        .arg("-o")
        .arg(&tmp)
        .status()
        .map_err(|e| augur_ir::llvm::cannot_run(&link, &e))?;
    for p in &parts {
        let _ = std::fs::remove_file(p);
    }
    if !status.success() {
        return Err("augur's libc models do not link".into());
    }
    std::fs::rename(&tmp, &linked).map_err(|e| format!("{}: {e}", linked.display()))?;
    Ok(linked)
}
