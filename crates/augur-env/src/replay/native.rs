//! Compiling the program natively with the replay runtime and sanitizers, and running it
//! on one test's inputs in a scratch directory.

use super::environment::{check_file_name, Environment};
use super::private_root::{self, PrivateRoot};
use super::spawn::LaunchError;
use super::unprivileged::{place_binary, Unprivileged};
use augur_engine::KTest;
use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The flags of the native build: debug info, the same `long double` as analysis, and
/// sanitizers that turn memory errors, division by zero and `unreachable` into an abnormal
/// end (but not a variable used outside its scope: augur's stack objects live as long as
/// their function's frame, as the `alloca`s do). UBSan checks of behaviour augur does not report as an error (signed overflow wraps
/// in augur, shifts, alignment, ...) are left out, or they would fail tests augur ran fine.
pub const NATIVE_CFLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-mlong-double-64",
    "-fsanitize=address,undefined",
    "-fno-sanitize=signed-integer-overflow,shift,pointer-overflow,float-cast-overflow,alignment,nonnull-attribute",
    "-fno-sanitize-recover=all",
    "-fno-sanitize-address-use-after-scope",
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

/// clang with the native build's flags, the runtime's headers and the user's `cflags`.
pub(super) fn native_clang(cflags: &[String], runtime_dir: &Path) -> Command {
    let mut cmd = augur_ir::llvm::clang_command();
    cmd.args(NATIVE_CFLAGS)
        .arg("-I")
        .arg(runtime_dir)
        .args(cflags);
    cmd
}

/// Run a clang command of a native build of `what` (the inputs' names); its standard
/// output.
pub fn run_clang(mut cmd: Command, what: &str) -> Result<Vec<u8>, String> {
    let clang = augur_ir::llvm::clang();
    let o = cmd
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&clang, &e))?;
    if o.status.success() {
        Ok(o.stdout)
    } else {
        Err(format!(
            "{what}: does not compile natively: {}",
            first_error_line(&o.stderr)
        ))
    }
}

/// Compile `inputs` (C, .bc or .ll) with the replay runtime of `runtime_dir` into the
/// executable `out`, linking `libs` and those the IR inputs name (`augur extract-bc`'s).
/// Every input becomes textual IR written next to `out` (see `native_ir.rs`).
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
        let s = super::native_ir::native_ir(input, cflags, runtime_dir)?;
        std::fs::write(&copy, &s.text)
            .map_err(|e| format!("{}: cannot be written: {e}", copy.display()))?;
        files.push(copy);
        for l in s.libs {
            if !libs.contains(&l) {
                libs.push(l);
            }
        }
    }
    let mut cmd = native_clang(cflags, runtime_dir);
    let runtime = crate::runtime_object(&cmd, &runtime_dir.join("replay").join("replay.c"))?;
    cmd.args(&files)
        .arg(runtime)
        .args(&libs)
        .args(NATIVE_LINK_FLAGS)
        .arg("-o")
        .arg(out);
    run_clang(cmd, &names.join(", ")).map(drop)
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
    /// Variables added to the program's environment (a sanitizer's options).
    pub extra_env: &'a [(&'a str, &'a str)],
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

/// Lay out the scratch directory `root`: `test.ktest`, `argv.ktest`, `stdin`, `stdout`,
/// `stderr`, copies of the environment's files, `program` (by the caller), and `cwd/`
/// holding the test's files. Returns the working directory.
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
    // Made here, before the directory is given to the run's user: the program may change
    // its standard output's times or mode (`touch -`), as the analysis's user may.
    for stream in ["stdout", "stderr"] {
        std::fs::write(root.join(stream), b"").map_err(io)?;
    }
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

/// The first pause between two looks at a running child; each next one is twice as
/// long, up to [`LONGEST_NAP`]. Most runs of a test take a few milliseconds: a fixed 5 ms
/// pause made each of them last at least that long.
const FIRST_NAP: Duration = Duration::from_micros(100);
/// The longest pause between two looks at a running child.
const LONGEST_NAP: Duration = Duration::from_millis(5);

/// Wait for the child `pid` at most `timeout`; kill it after that. Reaps it.
fn wait(pid: libc::pid_t, timeout: Duration) -> std::io::Result<Status> {
    let start = Instant::now();
    let mut nap = FIRST_NAP;
    loop {
        let mut status = 0;
        // SAFETY: waitpid on this process's own child, writing `status`.
        match unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } {
            r if r < 0 => return Err(std::io::Error::last_os_error()),
            0 => {}
            _ if libc::WIFEXITED(status) => return Ok(Status::Exit(libc::WEXITSTATUS(status))),
            _ if libc::WIFSIGNALED(status) => return Ok(Status::Signal(libc::WTERMSIG(status))),
            _ => return Ok(Status::Exit(-1)),
        }
        if start.elapsed() >= timeout {
            // SAFETY: signalling and reaping this process's own child.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
            return Ok(Status::Timeout);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(LONGEST_NAP);
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
    place_binary(root.path(), binary, user)?;
    let io = |e: std::io::Error| format!("cannot run {}: {e}", binary.display());
    let jail = if PRIVATE_ROOTS.load(Ordering::Relaxed) {
        let names = spec.env.files.iter().map(|(n, _)| n.as_str());
        let reads_stdin = spec.env.stdin.is_some();
        let id = user.map(|u| u.id());
        Some(PrivateRoot::prepare(root.path(), names, reads_stdin, id).map_err(io)?)
    } else {
        None
    };
    let shared_root = || -> Result<libc::pid_t, String> {
        let invocation = Invocation::new(spec, root.path(), false, binary)?;
        invocation.spawn(&cwd, user).map_err(io)
    };
    let pid = match &jail {
        Some(jail) => match Invocation::new(spec, root.path(), true, binary)?.spawn_in(jail) {
            Err(LaunchError::Refused(e)) => {
                PRIVATE_ROOTS.store(false, Ordering::Relaxed);
                tracing::warn!(
                    "native runs share this machine's root: the kernel refused one of their \
                     own ({e})"
                );
                shared_root()?
            }
            Err(LaunchError::Failed(e)) => return Err(io(e)),
            Ok(pid) => pid,
        },
        None => shared_root()?,
    };
    let status = wait(pid, spec.timeout).map_err(io)?;
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

/// What one native run starts: the program, its argv and the environment it adds, its
/// standard streams' files, with the scratch directory's files named as the program sees
/// them (in its own root when `jailed`).
struct Invocation {
    program: PathBuf,
    argv: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    /// Standard input's file, or None for /dev/null.
    stdin: Option<File>,
    stdout: File,
    stderr: File,
}

impl Invocation {
    /// The invocation of `binary`, whose run's scratch directory is `scratch`.
    fn new(spec: &RunSpec, scratch: &Path, jailed: bool, binary: &Path) -> Result<Self, String> {
        let io = |e: std::io::Error| format!("cannot run {}: {e}", binary.display());
        let seen = |name: &str| match jailed {
            true => Path::new(private_root::REPLAY).join(name),
            false => scratch.join(name),
        };
        let mut env: Vec<(OsString, OsString)> = vec![
            ("AUGUR_REPLAY_KTEST".into(), seen("test.ktest").into()),
            ("AUGUR_REPLAY_ARGV".into(), seen("argv.ktest").into()),
            // Fresh heap memory reads as zero in the analysis (a program may read it
            // before writing it: gnulib's randread seeds ISAAC from a partly filled
            // buffer), so AddressSanitizer fills new blocks with zeros, not 0xbe, up to
            // 256 MiB.
            (
                "ASAN_OPTIONS".into(),
                "detect_leaks=0:malloc_fill_byte=0:max_malloc_fill_size=268435456".into(),
            ),
            // The libc models' world has only the C locale (setlocale(LC_ALL, "") gives
            // "C"): the native run must too, whatever the user's LANG.
            ("LC_ALL".into(), "C".into()),
            ("AUGUR_OUTPUTS".into(), seen("outputs").into()),
        ];
        if let Some(r) = spec.revision {
            env.push(("AUGUR_REVISION".into(), r.to_string().into()));
        }
        for (i, (name, _)) in spec.env_files.iter().enumerate() {
            env.push(((*name).into(), seen(&env_file(i)).into()));
        }
        env.extend(
            spec.extra_env
                .iter()
                .map(|(name, value)| ((*name).into(), (*value).into())),
        );
        let argv = std::iter::once(OsString::from(spec.argv0))
            .chain(spec.args.iter().map(OsString::from))
            .chain(
                spec.env
                    .args()
                    .into_iter()
                    .map(|a| OsStr::from_bytes(a).to_os_string()),
            )
            .collect();
        let open = |name: &str| File::open(scratch.join(name)).map_err(io);
        let create = |name: &str| File::create(scratch.join(name)).map_err(io);
        Ok(Self {
            program: seen("program"),
            argv,
            env,
            stdin: spec
                .env
                .stdin
                .is_some()
                .then(|| open("stdin"))
                .transpose()?,
            stdout: create("stdout")?,
            stderr: create("stderr")?,
        })
    }

    /// Start it in the machine's root, in `cwd`, as `user` when given.
    fn spawn(self, cwd: &Path, user: Option<Unprivileged>) -> std::io::Result<libc::pid_t> {
        let mut cmd = Command::new(&self.program);
        cmd.arg0(&self.argv[0])
            .args(&self.argv[1..])
            .envs(self.env)
            .current_dir(cwd)
            .stdin(self.stdin.map_or_else(Stdio::null, Stdio::from))
            .stdout(self.stdout)
            .stderr(self.stderr);
        if let Some(user) = user {
            user.apply(&mut cmd);
        }
        // Reaped by `wait`, by its pid.
        Ok(cmd.spawn()?.id() as libc::pid_t)
    }

    /// Start it in the root `jail` (`spawn.rs`).
    fn spawn_in(self, jail: &PrivateRoot) -> Result<libc::pid_t, LaunchError> {
        let c = |s: &OsStr| {
            CString::new(s.as_bytes()).map_err(|e| LaunchError::Failed(std::io::Error::other(e)))
        };
        let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
            .filter(|(k, _)| !self.env.iter().any(|(set, _)| set == k))
            .collect();
        env.extend(self.env);
        private_root::name_the_symbolizer(&mut env);
        let envp = env
            .iter()
            .map(|(k, v)| c(&[k.as_os_str(), v.as_os_str()].join(OsStr::new("="))))
            .collect::<Result<Vec<_>, _>>()?;
        let argv = self
            .argv
            .iter()
            .map(|a| c(a))
            .collect::<Result<Vec<_>, _>>()?;
        let null = File::open("/dev/null").map_err(LaunchError::Failed)?;
        let stdin = self.stdin.as_ref().unwrap_or(&null);
        let stdio = [stdin, &self.stdout, &self.stderr].map(|f| f.as_raw_fd());
        super::spawn::launch(&c(self.program.as_os_str())?, &argv, &envp, stdio, jail)
    }
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
                extra_env: &[],
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
            extra_env: &[],
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
