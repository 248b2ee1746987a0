//! Compiling the program natively with the replay runtime and sanitizers, and running it
//! on one test's inputs in a scratch directory.

use super::environment::{check_file_name, Environment};
use super::private_root::{self, PrivateRoot};
use super::unprivileged::{place_binary, Unprivileged};
use augur_engine::KTest;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The flags of the native build: debug info, the same `long double` as analysis, and
/// sanitizers that turn memory errors, division by zero and `unreachable` into an abnormal
/// end. UBSan checks of behaviour augur does not report as an error (signed overflow wraps
/// in augur, shifts, alignment, ...) are left out, or they would fail tests augur ran fine.
pub const NATIVE_CFLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-mlong-double-64",
    "-fsanitize=address,undefined",
    "-fno-sanitize=signed-integer-overflow,shift,pointer-overflow,float-cast-overflow,alignment,nonnull-attribute",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
    "-Dreach_error=augur_replay_reach_error",
    "-D__VERIFIER_error=augur_replay_reach_error",
];

/// The link flags of the native build, with `runtime/replay/replay.c`: the program's `main`
/// is entered through the runtime's, which lays argv out as the analysis did; its
/// aligned_alloc is the replay runtime's, which serves any size as glibc and augur's model
/// do (AddressSanitizer's rejects a size that is not a multiple of the alignment), and its
/// getrandom and getentropy give the fixed world's bytes, as the models do.
pub const NATIVE_LINK_FLAGS: &[&str] =
    &["-Wl,--wrap=main,--wrap=aligned_alloc,--wrap=getrandom,--wrap=getentropy"];

/// Exit status of the replay runtime when the test has no object left for an input.
pub const EXIT_NO_OBJECT: i32 = 96;
/// Exit status of the replay runtime when an assumption is false.
pub const EXIT_ASSUME: i32 = 97;
/// Exit status of the replay runtime's `reach_error`.
pub const EXIT_REACH_ERROR: i32 = 98;

/// How a native run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Exited with this status.
    Exit(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Still running at the timeout (then killed).
    Timeout,
}

/// What one native run did.
#[derive(Clone, Debug)]
pub struct NativeRun {
    /// How it ended.
    pub status: Status,
    /// Everything written to standard output.
    pub stdout: Vec<u8>,
    /// Everything written to standard error.
    pub stderr: Vec<u8>,
    /// The named outputs (`augur_output`), in order.
    pub outputs: Vec<(String, Vec<u8>)>,
}

/// Parse the lines `name hexbytes` the runtime's `augur_output` writes.
fn parse_outputs(text: &str) -> Vec<(String, Vec<u8>)> {
    text.lines()
        .filter_map(|l| {
            let (name, hex) = l.rsplit_once(' ')?;
            let bytes = (0..hex.len() / 2)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
                .collect::<Option<Vec<u8>>>()?;
            Some((name.to_string(), bytes))
        })
        .collect()
}

/// The first line of `stderr` containing "error" (or the first line).
pub(crate) fn first_error_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .find(|l| l.contains("error"))
        .or_else(|| text.lines().next())
        .unwrap_or("failed")
        .trim()
        .to_string()
}

/// Compile `inputs` (C, .bc or .ll) with the replay runtime of `runtime_dir` into the
/// executable `out`, linking `libs` and those the IR inputs name (`augur extract-bc`'s).
/// IR inputs are instrumented as C is (see `sanitized_ir.rs`), through copies written next
/// to `out`.
pub fn compile(
    inputs: &[PathBuf],
    cflags: &[String],
    libs: &[String],
    runtime_dir: &Path,
    out: &Path,
) -> Result<(), String> {
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    let mut files = Vec::new();
    let mut libs = libs.to_vec();
    for (i, input) in inputs.iter().enumerate() {
        let copy = out.with_extension(format!("input{i}.ll"));
        let s = super::sanitized_ir::sanitizable(input, &copy)?;
        files.push(s.file);
        for l in s.libs {
            if !libs.contains(&l) {
                libs.push(l);
            }
        }
    }
    let clang = augur_ir::llvm::clang();
    let mut cmd = augur_ir::llvm::clang_command();
    cmd.args(NATIVE_CFLAGS)
        .arg("-I")
        .arg(runtime_dir)
        .args(cflags)
        .args(&files)
        .arg(runtime_dir.join("replay").join("replay.c"))
        .args(&libs)
        .args(NATIVE_LINK_FLAGS)
        .arg("-o")
        .arg(out);
    let o = cmd
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&clang, &e))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}: does not compile natively: {}",
            names.join(", "),
            first_error_line(&o.stderr)
        ))
    }
}

/// Everything one run needs besides the binary.
pub struct RunSpec<'a> {
    /// argv[0].
    pub argv0: &'a str,
    /// The concrete arguments, before the symbolic ones.
    pub args: &'a [String],
    /// The test's objects (written as the `.ktest` the runtime reads).
    pub objects: &'a [(String, Vec<u8>)],
    /// Argv, stdin and files of the test.
    pub env: &'a Environment,
    /// Kill the program after this long.
    pub timeout: Duration,
    /// The revision a hand-written meta program runs (`augur_meta`), if any.
    pub revision: Option<u32>,
    /// Files of the host the program reads, each named by an environment variable (a
    /// recording's log, `AUGUR_LOG_REPLAY`): the run gets a copy, in its scratch
    /// directory, and the variable names the copy as the program sees it.
    pub env_files: &'a [(&'a str, &'a Path)],
}

/// argv as the analysis laid it out, for the replay runtime's `main` (`runtime/replay/
/// replay.c`, `AUGUR_REPLAY_ARGV`): one object per string, each of the size the analysis
/// gave it (argv[0] and the concrete arguments with their NUL, each symbolic argument's
/// whole object), so that AddressSanitizer sees a read past an argument as augur does.
fn argv_objects(spec: &RunSpec) -> KTest {
    let with_nul = |s: &str| [s.as_bytes(), &[0]].concat();
    let objects = std::iter::once(with_nul(spec.argv0))
        .chain(spec.args.iter().map(|a| with_nul(a)))
        .chain(spec.env.arg_objects.iter().cloned())
        .enumerate()
        .map(|(i, bytes)| (format!("argv[{i}]"), bytes))
        .collect();
    KTest {
        objects,
        ..KTest::default()
    }
}

/// The name in the scratch directory of the copy of `RunSpec::env_files[i]`.
fn env_file(i: usize) -> String {
    format!("env-file{i}")
}

/// Lay out the scratch directory `root`: `test.ktest`, `argv.ktest`, `stdin`, copies of
/// the environment's files, and `cwd/` holding the test's files. Returns the working directory.
fn prepare(root: &Path, spec: &RunSpec) -> Result<PathBuf, String> {
    let io = |e: std::io::Error| format!("cannot prepare the test's directory: {e}");
    let ktest = KTest {
        args: vec![spec.argv0.to_string()],
        objects: spec.objects.to_vec(),
        ..KTest::default()
    };
    std::fs::write(root.join("test.ktest"), ktest.to_bytes()).map_err(io)?;
    std::fs::write(root.join("argv.ktest"), argv_objects(spec).to_bytes()).map_err(io)?;
    std::fs::write(root.join("stdin"), spec.env.stdin.as_deref().unwrap_or(&[])).map_err(io)?;
    for (i, (_, file)) in spec.env_files.iter().enumerate() {
        std::fs::copy(file, root.join(env_file(i))).map_err(io)?;
    }
    let cwd = root.join("cwd");
    std::fs::create_dir(&cwd).map_err(io)?;
    // The modes the analysis gives files and directories (augur-env's modes.rs), whatever
    // this process's umask.
    let mode = |path: &Path, bits: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).map_err(io)
    };
    mode(&cwd, crate::modes::DIR_MODE)?;
    for (name, bytes) in &spec.env.files {
        check_file_name(name)?;
        let path = cwd.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
            for dir in parent.ancestors().take_while(|d| *d != cwd) {
                mode(dir, crate::modes::DIR_MODE)?;
            }
        }
        std::fs::write(&path, bytes).map_err(io)?;
        mode(&path, crate::modes::FILE_MODE)?;
    }
    Ok(cwd)
}

/// Wait for `child` at most `timeout`; kill it after that.
fn wait(child: &mut std::process::Child, timeout: Duration) -> std::io::Result<Status> {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(match (s.code(), s.signal()) {
                (Some(c), _) => Status::Exit(c),
                (None, Some(sig)) => Status::Signal(sig),
                (None, None) => Status::Exit(-1),
            });
        }
        if start.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Status::Timeout);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether native runs may still get a root of their own: cleared, with a warning, the
/// first time the kernel refuses one (user namespaces switched off).
static PRIVATE_ROOTS: AtomicBool = AtomicBool::new(true);

/// Run `binary` on one test in a fresh scratch directory, in a root of its own
/// (`private_root.rs`) and as `nobody` when augur runs as root (`unprivileged.rs`).
pub fn run(binary: &Path, spec: &RunSpec) -> Result<NativeRun, String> {
    let root =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let cwd = prepare(root.path(), spec)?;
    let user = Unprivileged::when_root();
    if let Some(user) = user {
        user.give_scratch(root.path())?;
    }
    let program = place_binary(root.path(), binary, user)?;
    let io = |e: std::io::Error| format!("cannot run {}: {e}", binary.display());
    let jail = if PRIVATE_ROOTS.load(Ordering::Relaxed) {
        let names: Vec<String> = spec.env.files.iter().map(|(n, _)| n.clone()).collect();
        let reads_stdin = spec.env.stdin.is_some();
        let id = user.map(|u| u.id());
        Some(PrivateRoot::prepare(root.path(), &names, reads_stdin, id).map_err(io)?)
    } else {
        None
    };
    let files = Files {
        scratch: root.path(),
        cwd: &cwd,
        program: &program,
    };
    let mut child = match command(spec, &files, jail.as_ref(), user)?.spawn() {
        Err(e) if jail.is_some() => {
            PRIVATE_ROOTS.store(false, Ordering::Relaxed);
            tracing::warn!(
                "native runs share this machine's root: the kernel refused one of their own ({e})"
            );
            command(spec, &files, None, user)?.spawn().map_err(io)?
        }
        spawned => spawned.map_err(io)?,
    };
    let status = wait(&mut child, spec.timeout).map_err(io)?;
    if jail.is_some() {
        PrivateRoot::leave(root.path());
    }
    let native_cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
    let as_modelled = |bytes: Vec<u8>| in_modelled_work_dir(bytes, &native_cwd);
    let read = |name: &str| std::fs::read(root.path().join(name)).unwrap_or_default();
    Ok(NativeRun {
        status,
        stdout: as_modelled(read("stdout")),
        stderr: as_modelled(read("stderr")),
        outputs: parse_outputs(&String::from_utf8_lossy(&read("outputs"))),
    })
}

/// Where one run's files are, on the host.
struct Files<'a> {
    /// The scratch directory: `.ktest` files, stdin, stdout, stderr, outputs.
    scratch: &'a Path,
    /// The working directory, `scratch/cwd`.
    cwd: &'a Path,
    /// The binary, `scratch/program`.
    program: &'a Path,
}

/// The command of one native run: in `jail` when given (the scratch directory's files then
/// named as the program sees them there), else in the host's root as `user`.
fn command(
    spec: &RunSpec,
    files: &Files,
    jail: Option<&PrivateRoot>,
    user: Option<Unprivileged>,
) -> Result<Command, String> {
    let io = |e: std::io::Error| format!("cannot run {}: {e}", files.program.display());
    let seen = |name: &str| match jail {
        Some(_) => Path::new(private_root::REPLAY).join(name),
        None => files.scratch.join(name),
    };
    let stdin = if spec.env.stdin.is_some() {
        Stdio::from(std::fs::File::open(files.scratch.join("stdin")).map_err(io)?)
    } else {
        Stdio::null()
    };
    let mut cmd = Command::new(seen("program"));
    match jail {
        Some(jail) => {
            let jail = jail.clone();
            // SAFETY: `enter` only makes system calls, as a child between fork and exec must.
            unsafe { cmd.pre_exec(move || jail.enter()) };
        }
        None => {
            cmd.current_dir(files.cwd);
            if let Some(user) = user {
                user.apply(&mut cmd);
            }
        }
    }
    if let Some(r) = spec.revision {
        cmd.env("AUGUR_REVISION", r.to_string());
    }
    for (i, (name, _)) in spec.env_files.iter().enumerate() {
        cmd.env(name, seen(&env_file(i)));
    }
    let create = |name: &str| std::fs::File::create(files.scratch.join(name)).map_err(io);
    cmd.arg0(spec.argv0)
        .args(spec.args)
        .args(spec.env.args().into_iter().map(std::ffi::OsStr::from_bytes))
        .env("AUGUR_REPLAY_KTEST", seen("test.ktest"))
        .env("AUGUR_REPLAY_ARGV", seen("argv.ktest"))
        .env("ASAN_OPTIONS", "detect_leaks=0")
        // The libc models' world has only the C locale (setlocale(LC_ALL, "") gives "C"):
        // the native run must too, whatever the user's LANG.
        .env("LC_ALL", "C")
        .env("AUGUR_OUTPUTS", seen("outputs"))
        .stdin(stdin)
        .stdout(create("stdout")?)
        .stderr(create("stderr")?);
    Ok(cmd)
}

/// `output` of a native run with the working directory's name (a fresh temporary
/// directory's) written as the analysis knows it, [`crate::WORK_DIR`], and its parent's
/// as the working directory's parent there: a program that prints its directory (getcwd)
/// or the one above (`realpath ..`) prints the same in both.
fn in_modelled_work_dir(output: Vec<u8>, native_cwd: &Path) -> Vec<u8> {
    let modelled = Path::new(crate::WORK_DIR);
    let renamed = replace_all(output, native_cwd, modelled);
    match (native_cwd.parent(), modelled.parent()) {
        (Some(native), Some(parent)) => replace_all(renamed, native, parent),
        _ => renamed,
    }
}

/// `output` with every occurrence of the path `from` written as `to`.
fn replace_all(output: Vec<u8>, from: &Path, to: &Path) -> Vec<u8> {
    let from = from.as_os_str().as_bytes();
    if from.is_empty() || from == b"/" {
        return output;
    }
    let mut out = Vec::with_capacity(output.len());
    let mut rest = &output[..];
    while let Some(i) = rest.windows(from.len()).position(|w| w == from) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(to.as_os_str().as_bytes());
        rest = &rest[i + from.len()..];
    }
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::environment::environment;

    const ECHO: &str = r#"
#include <augur.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  printf("x=%d argc=%d", x, argc);
  for (int i = 0; i < argc; i++) printf(" [%s]", argv[i]);
  int c; printf(" stdin=");
  while ((c = getchar()) != EOF) putchar(c);
  FILE *f = fopen("in.txt", "r"); printf(" file=");
  while (f && (c = fgetc(f)) != EOF) putchar(c);
  return 3;
}
"#;

    /// A test's `fail:KIND` object fails that call natively, glibc's own calls counted.
    #[test]
    fn fail_objects_fail_the_named_call() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("three.c");
        std::fs::write(
            &src,
            r#"
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  int failed = 0;
  if (write(1, "a", 1) != 1) failed = errno;
  if (fputs("b", stdout) == EOF) failed = errno;
  if (write(1, "c", 1) != 1) failed = errno;
  return failed;
}
"#,
        )
        .unwrap();
        let bin = dir.path().join("three");
        let runtime = crate::runtime::runtime_dir().unwrap();
        compile(&[src], &[], &[], &runtime, &bin).unwrap();
        let env = Environment::default();
        let run_with = |second: u8| {
            let objects = vec![
                obj("fail:read", &[0; 4]),
                obj("fail:write", &[second, 0, 0, 0]),
            ];
            let spec = RunSpec {
                argv0: "three",
                args: &[],
                objects: &objects,
                env: &env,
                timeout: Duration::from_secs(10),
                revision: None,
                env_files: &[],
            };
            run(&bin, &spec).unwrap()
        };
        // The second write (stdio's, unbuffered as in augur's models) fails with ENOSPC.
        let r = run_with(2);
        assert_eq!(r.status, Status::Exit(28));
        assert_eq!(String::from_utf8_lossy(&r.stdout), "ac");
        // Number 0: nothing fails, and the program runs as usual (stdout buffered).
        let r = run_with(0);
        assert_eq!(r.status, Status::Exit(0));
        assert_eq!(String::from_utf8_lossy(&r.stdout), "acb");
    }

    fn obj(name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
        (name.to_string(), bytes.to_vec())
    }

    /// argv, stdin and files of a synthetic test reach the native program.
    #[test]
    fn environment_reaches_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("echo.c");
        std::fs::write(&src, ECHO).unwrap();
        let bin = dir.path().join("echo");
        let runtime = crate::runtime::runtime_dir().unwrap();
        compile(&[src], &[], &[], &runtime, &bin).unwrap();
        let objects = vec![
            obj("x", &[5, 0, 0, 0]),
            obj("n_args", &[2, 0, 0, 0]),
            obj("arg00", b"ab\0\0"),
            obj("arg01", b"c\0d\0"),
            obj("arg02", b"unused\0"),
            obj("stdin", b"hi"),
            obj("file:in.txt", b"data"),
        ];
        let env = environment(&objects);
        let spec = RunSpec {
            argv0: "echo",
            args: &["-v".to_string()],
            objects: &objects,
            env: &env,
            timeout: Duration::from_secs(10),
            revision: None,
            env_files: &[],
        };
        let r = run(&bin, &spec).unwrap();
        assert_eq!(
            r.status,
            Status::Exit(3),
            "{}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&r.stdout),
            "x=5 argc=4 [echo] [-v] [ab] [c] stdin=hi file=data"
        );
        // No `stdin` object: empty standard input; no objects left: status 96.
        let none = Environment::default();
        let spec = RunSpec {
            objects: &[],
            env: &none,
            ..spec
        };
        let r = run(&bin, &spec).unwrap();
        assert_eq!(r.status, Status::Exit(EXIT_NO_OBJECT));
        assert!(
            String::from_utf8_lossy(&r.stderr).contains("no object left for symbolic input `x`")
        );
    }

    #[test]
    fn the_native_directories_are_named_as_the_analysis_names_them() {
        let out = b"here /tmp/r/cwd/a, up /tmp/r".to_vec();
        assert_eq!(
            in_modelled_work_dir(out, Path::new("/tmp/r/cwd")),
            b"here /augur/work/a, up /augur".to_vec()
        );
    }
}
