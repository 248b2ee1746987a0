//! The runtime shipped inside the binary: headers and the libc models, written once to a
//! cache directory whose path marks it as augur's (coverage and reports skip files under
//! it); the models are compiled to bitcode there and linked into every analysed program.

use augur_ir::{compile_c, CompileOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

/// (relative path, contents) of the runtime's headers and native runtimes.
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
];

/// (relative path, contents) of the libc models, as `runtime/libc/models.txt` lists them
/// (embedded by the build script), in link order.
const LIBC_MODELS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/libc_models.rs"));

/// Every runtime file.
fn files() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    FILES.iter().chain(LIBC_MODELS)
}

/// A name part no other process or thread uses at the same time (threads of one process
/// may fill a new runtime directory, or compile its libc, at the same time).
fn unique() -> String {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{}-{n}", std::process::id())
}

/// Write `contents` to `path` unless it already holds exactly that.
fn write_if_changed(path: &Path, contents: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    std::fs::create_dir_all(path.parent().expect("runtime files live in a directory"))?;
    let tmp = path.with_extension(format!("tmp{}", unique()));
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
    for f in files() {
        f.hash(&mut h);
    }
    let dir = base.join(format!(
        "augur-runtime-{}-llvm{}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        augur_ir::LLVM_VERSION,
        h.finish()
    ));
    for (rel, contents) in files() {
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
    let pid = unique();
    let mut parts = Vec::new();
    for (rel, _) in LIBC_MODELS {
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
