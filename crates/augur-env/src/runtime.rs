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
        "fixed_machine.h",
        include_str!("../../../runtime/fixed_machine.h"),
    ),
    (
        "fixed_names.h",
        include_str!("../../../runtime/fixed_names.h"),
    ),
    (
        "fixed_random.h",
        include_str!("../../../runtime/fixed_random.h"),
    ),
    (
        "fixed_time.h",
        include_str!("../../../runtime/fixed_time.h"),
    ),
    (
        "fixed_user.h",
        include_str!("../../../runtime/fixed_user.h"),
    ),
    (
        "fixed_volume.h",
        include_str!("../../../runtime/fixed_volume.h"),
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
pub(crate) fn unique() -> String {
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
    let args: Vec<&std::ffi::OsStr> = parts.iter().map(|p| p.as_os_str()).collect();
    let result = link_into(&linked, &args, || "augur's libc models do not link".into());
    for p in &parts {
        let _ = std::fs::remove_file(p);
    }
    result?;
    Ok(linked)
}

/// Run llvm-link with `args` into a temporary file, then move it to `linked` (so that a
/// process or thread linking the same file at the same time never reads half of it);
/// `failed` is the error when llvm-link fails.
fn link_into(
    linked: &Path,
    args: &[&std::ffi::OsStr],
    failed: impl FnOnce() -> String,
) -> Result<(), String> {
    let tmp = linked.with_extension(format!("{}.bc", unique()));
    let link = augur_ir::llvm::llvm_link();
    let status = Command::new(&link)
        .args(args)
        .arg("-o")
        .arg(&tmp)
        .status()
        .map_err(|e| augur_ir::llvm::cannot_run(&link, &e))?;
    if !status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(failed());
    }
    std::fs::rename(&tmp, linked).map_err(|e| format!("{}: {e}", linked.display()))
}

/// Where `runtime/musl/build.sh` put musl's bitcode: `AUGUR_MUSL_DIR` when set and not
/// empty (as the shell scripts read it), else `.deps/musl-llvmN` in augur's source tree
/// (where `scripts/deps.sh` builds it) for this build's LLVM, or for LLVM 14 when only
/// that one was built (LLVM reads older bitcode).
pub fn musl_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("AUGUR_MUSL_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let deps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.deps");
    let own = deps.join(format!("musl-llvm{}", augur_ir::LLVM_VERSION));
    let older = deps.join("musl-llvm14");
    if own.join("stamp").exists() || !older.join("stamp").exists() {
        own
    } else {
        older
    }
}

/// musl's C library as one bitcode file, with the program's `long double` (see
/// [`libc_bitcode`]), and its build's stamp; None (said once on standard error) when it
/// was not built.
fn musl_bitcode(x87_long_double: bool) -> Option<(PathBuf, String)> {
    let dir = musl_dir();
    let file = dir.join(if x87_long_double {
        "musl-fp80.bc"
    } else {
        "musl.bc"
    });
    let stamp = std::fs::read_to_string(dir.join("stamp")).unwrap_or_default();
    if file.exists() {
        return Some((file, stamp.trim().to_string()));
    }
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "augur: warning: no musl bitcode at {} (scripts/deps.sh builds it; or set \
             AUGUR_MUSL_DIR): C library functions augur does not model have no body",
            file.display()
        )
    });
    None
}

/// The C library the program is linked with, as one bitcode file (made on first use, then
/// cached): musl with every function the models define replaced by the model
/// (`llvm-link --override`), so that musl's functions call the models and the program
/// sees one world; only the models when musl was not built.
pub fn library_bitcode(dir: &Path, x87_long_double: bool) -> Result<PathBuf, String> {
    let models = libc_bitcode(dir, x87_long_double)?;
    let Some((musl, stamp)) = musl_bitcode(x87_long_double) else {
        return Ok(models);
    };
    let linked = models.with_file_name(format!(
        "{}-musl-{stamp}.bc",
        models.file_stem().unwrap_or_default().to_string_lossy()
    ));
    if linked.exists() {
        return Ok(linked);
    }
    let args = [musl.as_os_str(), "--override".as_ref(), models.as_os_str()];
    link_into(&linked, &args, || {
        format!(
            "augur's libc models do not link with musl ({})",
            musl.display()
        )
    })?;
    Ok(linked)
}
