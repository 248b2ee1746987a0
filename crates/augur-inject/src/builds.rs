//! Native builds of a program with augur's replay runtime (which feeds a test's objects
//! to the program): augur replay's own build, and the independent builds a bug must fire
//! on (clang and gcc, `-O0` and `-O2`, with AddressSanitizer and all of UBSan; clang
//! `-O0` with MemorySanitizer alone for reads of uninitialised memory: unoptimised,
//! because the optimiser folds such a read into an arbitrary constant before
//! MemorySanitizer sees it, and alone, because clang 14 then misses them beside UBSan), so that a bug does not fire by the grace of one compiler's stack layout or
//! one optimisation level.

use augur_env::{NativeRun, RunSpec, NATIVE_LINK_FLAGS};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How a program is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// As `augur replay` builds it (clang `-O0`, AddressSanitizer and the UBSan checks of
    /// what augur reports as errors).
    Replay,
    /// An independent build.
    Independent {
        /// `clang` (augur's clang) or `gcc`.
        gcc: bool,
        /// The optimisation flag.
        opt: &'static str,
        /// The `-fsanitize=` list.
        sanitize: &'static str,
    },
}

/// The independent builds every bug must fire on.
pub const INDEPENDENT: [Flavour; 5] = [
    Flavour::Independent {
        gcc: false,
        opt: "-O0",
        sanitize: "address,undefined",
    },
    Flavour::Independent {
        gcc: false,
        opt: "-O2",
        sanitize: "address,undefined",
    },
    Flavour::Independent {
        gcc: true,
        opt: "-O0",
        sanitize: "address,undefined",
    },
    Flavour::Independent {
        gcc: true,
        opt: "-O2",
        sanitize: "address,undefined",
    },
    Flavour::Independent {
        gcc: false,
        opt: "-O0",
        sanitize: "memory",
    },
];

/// Flags of every independent build: sanitizers stop at their first report (UBSan's and
/// MemorySanitizer's are built to go on, [`Flavour::recover`], and stop by their runtime
/// options, [`Build::run`]).
const INDEPENDENT_CFLAGS: &[&str] = &[
    "-g",
    "-w",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// Flags of an independent build of `.c` files with the replay runtime: augur's `long
/// double`, and `reach_error` as the runtime's.
const SOURCES_CFLAGS: &[&str] = &[
    "-mlong-double-64",
    "-Dreach_error=augur_replay_reach_error",
    "-D__VERIFIER_error=augur_replay_reach_error",
];

impl Flavour {
    /// Its name in reports: `gcc -O2 address,undefined`.
    pub fn name(self) -> String {
        match self {
            Flavour::Replay => format!("{} -O0 (augur replay's build)", augur_ir::llvm::clang()),
            Flavour::Independent { gcc, opt, sanitize } => {
                let cc = if gcc {
                    "gcc".to_string()
                } else {
                    augur_ir::llvm::clang()
                };
                format!("{cc} {opt} {sanitize}")
            }
        }
    }

    /// Can a run of this build show an error of augur's `kind`? (A write into freed
    /// memory shows only under AddressSanitizer.)
    pub fn shows(self, kind: &str) -> bool {
        match self {
            Flavour::Independent { sanitize, .. } => {
                kind != "use-after-free" || sanitize.contains("address")
            }
            Flavour::Replay => true,
        }
    }

    /// The flag building its UBSan or MemorySanitizer checks to go on past a report
    /// when the run's options say so (AddressSanitizer's always stop).
    fn recover(sanitize: &str) -> &'static str {
        match sanitize.contains("memory") {
            true => "-fsanitize-recover=memory",
            false => "-fsanitize-recover=undefined",
        }
    }

    /// An independent build's compiler (`clang-14`, `gcc`) and flags, for a project's
    /// own build (`CC`, `CFLAGS`): no replay runtime, the platform's `long double`.
    pub fn compiler_and_flags(self) -> Option<(String, Vec<String>)> {
        let Flavour::Independent { gcc, opt, sanitize } = self else {
            return None;
        };
        let cc = if gcc {
            "gcc".to_string()
        } else {
            augur_ir::llvm::clang()
        };
        let mut flags: Vec<String> = INDEPENDENT_CFLAGS.iter().map(|f| f.to_string()).collect();
        flags.push(opt.to_string());
        flags.push(format!("-fsanitize={sanitize}"));
        flags.push(Flavour::recover(sanitize).to_string());
        Some((cc, flags))
    }

    /// The compiler command of an independent build with its flags (None for augur
    /// replay's build, which `augur_env::NativeProgram` makes).
    fn command(self) -> Option<(Command, String)> {
        let Flavour::Independent { gcc, opt, sanitize } = self else {
            return None;
        };
        let (mut c, name) = if gcc {
            (Command::new("gcc"), "gcc".to_string())
        } else {
            (augur_ir::llvm::clang_command(), augur_ir::llvm::clang())
        };
        c.args(INDEPENDENT_CFLAGS)
            .args(SOURCES_CFLAGS)
            .arg(opt)
            .arg(format!("-fsanitize={sanitize}"))
            .arg(Flavour::recover(sanitize));
        Some((c, name))
    }
}

/// The executable of a build.
enum Executable {
    /// `program` in this directory.
    Own(tempfile::TempDir),
    /// augur replay's build.
    Replay(augur_env::NativeProgram),
}

/// A native build of a program.
pub struct Build {
    exe: Executable,
    argv0: String,
    args: Vec<String>,
    /// Timeout of each run.
    pub timeout: Duration,
    /// How it was built.
    pub flavour: Flavour,
}

impl Build {
    /// Compile `sources` (with `cflags`) and the replay runtime as `flavour`; runs get
    /// the concrete `args`.
    pub fn new(
        sources: &[PathBuf],
        cflags: &[String],
        args: &[String],
        timeout: Duration,
        flavour: Flavour,
    ) -> Result<Build, String> {
        let Some((mut cmd, cc)) = flavour.command() else {
            return Build::replayed(sources, cflags, args, timeout);
        };
        let runtime = augur_env::runtime_dir()
            .map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        cmd.arg("-I").arg(&runtime).args(cflags);
        let runtime_object =
            augur_env::runtime_object(&cmd, &runtime.join("replay").join("replay.c"))?;
        cmd.args(sources)
            .arg(runtime_object)
            .args(NATIVE_LINK_FLAGS)
            .arg("-o")
            .arg(dir.path().join("program"));
        let o = cmd
            .output()
            .map_err(|e| augur_ir::llvm::cannot_run(&cc, &e))?;
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let first = err
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("failed");
            return Err(format!(
                "does not compile with {}: {}",
                flavour.name(),
                first.trim()
            ));
        }
        let argv0 = sources[0]
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Build {
            exe: Executable::Own(dir),
            argv0,
            args: args.to_vec(),
            timeout,
            flavour,
        })
    }

    /// A build of the executable `exe` (copied: the original may be rebuilt), run as
    /// `argv0` with the concrete `args`.
    pub fn of_executable(
        exe: &Path,
        argv0: &str,
        args: &[String],
        timeout: Duration,
        flavour: Flavour,
    ) -> Result<Build, String> {
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
        std::fs::copy(exe, dir.path().join("program"))
            .map_err(|e| format!("{}: cannot copy: {e}", exe.display()))?;
        Ok(Build {
            exe: Executable::Own(dir),
            argv0: argv0.to_string(),
            args: args.to_vec(),
            timeout,
            flavour,
        })
    }

    /// augur replay's build of the bitcode file `bc` (linking the libraries it names),
    /// run as `bc`'s file stem with the concrete `args`.
    pub fn of_bitcode(bc: &Path, args: &[String], timeout: Duration) -> Result<Build, String> {
        Build::replayed(&[bc.to_path_buf()], &[], args, timeout)
    }

    /// augur replay's build of `inputs` (C or bitcode, with `cflags`), run as the first
    /// input's file stem with the concrete `args`.
    fn replayed(
        inputs: &[PathBuf],
        cflags: &[String],
        args: &[String],
        timeout: Duration,
    ) -> Result<Build, String> {
        let opts = augur_env::ReplayOptions {
            inputs: inputs.to_vec(),
            tests: Vec::new(),
            cflags: cflags.to_vec(),
            libs: Vec::new(),
            program_args: args.to_vec(),
            timeout,
        };
        Ok(Build {
            exe: Executable::Replay(augur_env::NativeProgram::build(&opts)?),
            argv0: augur_env::program_name(&inputs[0]),
            args: args.to_vec(),
            timeout,
            flavour: Flavour::Replay,
        })
    }

    /// Run it on a test's objects, stopping at the first sanitizer report.
    pub fn run(&self, objects: &[(String, Vec<u8>)]) -> Result<NativeRun, String> {
        self.run_with(objects, "halt_on_error=1")
    }

    /// Run it on a test's objects, going on past UBSan's and MemorySanitizer's reports
    /// (on an independent build; augur replay's stops at its first).
    pub fn run_past_reports(&self, objects: &[(String, Vec<u8>)]) -> Result<NativeRun, String> {
        self.run_with(objects, "halt_on_error=0")
    }

    /// Run it on a test's objects with these UBSan and MemorySanitizer options.
    fn run_with(
        &self,
        objects: &[(String, Vec<u8>)],
        sanitizer_options: &str,
    ) -> Result<NativeRun, String> {
        let dir = match &self.exe {
            Executable::Own(dir) => dir,
            Executable::Replay(p) => return p.run(objects, &self.args, self.timeout, None),
        };
        let env = augur_env::environment(objects);
        let spec = RunSpec {
            argv0: &self.argv0,
            args: &self.args,
            objects,
            env: &env,
            timeout: self.timeout,
            revision: None,
            env_files: &[],
            extra_env: &[
                ("UBSAN_OPTIONS", sanitizer_options),
                ("MSAN_OPTIONS", sanitizer_options),
            ],
        };
        augur_env::run_native(&dir.path().join("program"), &spec)
    }
}

/// `sources` built as every independent flavour (a build that fails says why).
pub fn independent(
    sources: &[PathBuf],
    cflags: &[String],
    args: &[String],
    timeout: Duration,
) -> Vec<(Flavour, Result<Build, String>)> {
    INDEPENDENT
        .iter()
        .map(|f| (*f, Build::new(sources, cflags, args, timeout, *f)))
        .collect()
}
