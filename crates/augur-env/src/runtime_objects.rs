//! The C runtimes linked into native builds (`replay/replay.c`, `record/record.c` of the
//! runtime directory) compiled once per compiler and flags and kept beside their source:
//! a build links the object instead of compiling the runtime again. Compiling
//! `replay.c` with sanitizers takes about a second at `-O0` and two at `-O2`, and
//! `augur inject` makes six builds per bug, each again for every bug.

use std::ffi::OsStr;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `source` (a file of the runtime directory) compiled to an object by `compiler`: the
/// compiler with the flags of the build the object goes into (`-c`, the source and the
/// output are added here). The object is reused by every later build with the same
/// compiler (the same file, not replaced since), flags and environment; the runtime
/// directory's name already changes with the source's contents. It is written under a
/// name of its own, then renamed, so that a process or thread compiling it at the same
/// time never links half of it.
pub fn runtime_object(compiler: &Command, source: &Path) -> Result<PathBuf, String> {
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let object = source.with_file_name(format!("{stem}-{:016x}.o", key(compiler)));
    if object.exists() {
        return Ok(object);
    }
    let tmp = object.with_extension(format!("{}.o", crate::runtime::unique()));
    let mut cmd = Command::new(compiler.get_program());
    cmd.args(compiler.get_args())
        .arg("-c")
        .arg(source)
        .arg("-o")
        .arg(&tmp);
    for (k, v) in compiler.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let program = compiler.get_program().to_string_lossy().into_owned();
    let o = cmd
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&program, &e))?;
    if !o.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "augur's runtime {}: does not compile with {program}: {}",
            source.display(),
            crate::replay::native::first_error_line(&o.stderr)
        ));
    }
    std::fs::rename(&tmp, &object).map_err(|e| format!("{}: {e}", object.display()))?;
    Ok(object)
}

/// What the object depends on besides the source: the compiler's program, the file it
/// names (its size and time: an upgraded compiler makes another object), the flags and
/// the environment set on the command.
fn key(compiler: &Command) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let program = compiler.get_program();
    program.hash(&mut h);
    if let Some(meta) = resolve(program).and_then(|p| std::fs::metadata(p).ok()) {
        meta.len().hash(&mut h);
        meta.modified().ok().hash(&mut h);
    }
    for a in compiler.get_args() {
        a.hash(&mut h);
    }
    for (k, v) in compiler.get_envs() {
        (k, v).hash(&mut h);
    }
    h.finish()
}

/// The file `program` runs: itself when it names a path, else the first of `PATH`'s
/// directories holding it; symbolic links followed (`clang-14` is a link into
/// `/usr/lib/llvm-14`).
pub(crate) fn resolve(program: &OsStr) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.canonicalize().ok();
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(p))
        .find(|f| f.is_file())
        .and_then(|f| f.canonicalize().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiler(flags: &[&str]) -> Command {
        let mut c = augur_ir::llvm::clang_command();
        c.args(flags);
        c
    }

    #[test]
    fn an_object_is_compiled_once_per_compiler_and_flags() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("rt.c");
        std::fs::write(&src, "int augur_rt_value(void) { return VALUE; }\n").unwrap();
        let one = runtime_object(&compiler(&["-DVALUE=1"]), &src).unwrap();
        let first = std::fs::metadata(&one).unwrap().modified().unwrap();
        let again = runtime_object(&compiler(&["-DVALUE=1"]), &src).unwrap();
        assert_eq!(one, again);
        assert_eq!(
            std::fs::metadata(&again).unwrap().modified().unwrap(),
            first
        );
        let two = runtime_object(&compiler(&["-DVALUE=2"]), &src).unwrap();
        assert_ne!(one, two);
        assert!(two.exists());
        let objects = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension() == Some(OsStr::new("o")))
            .count();
        assert_eq!(objects, 2, "no temporary file is left");
    }

    #[test]
    fn a_runtime_that_does_not_compile_names_itself_and_leaves_no_object() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("rt.c");
        std::fs::write(&src, "int augur_rt_value(void) { return VALUE; }\n").unwrap();
        let err = runtime_object(&compiler(&[]), &src).unwrap_err();
        assert!(err.contains("rt.c: does not compile with"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
