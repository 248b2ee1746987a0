//! Turning the user's inputs (`.c`, `.bc`, `.ll`) into one linked bitcode module with
//! the clang and llvm-link of the build's LLVM (`crate::llvm`), and reading it with `llvm-ir`.

use crate::llvm::{self, LLVM_VERSION};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags every C file is compiled with for analysis.
pub const ANALYSIS_CFLAGS: &[&str] = &[
    "-c",
    "-emit-llvm",
    "-g",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-fno-discard-value-names",
    // `long double` is analysed as `double`: the engine computes long doubles at double
    // precision, so native replay compiles with the same flag and agrees. (Bitcode built
    // elsewhere keeps x86_fp80; its constants are rebuilt by `wide_consts`.)
    "-mlong-double-64",
];

/// An error turning inputs into a program: one line naming the file and the problem.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct IrError(pub String);

/// How to compile C inputs.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// Extra flags for clang (`-I`, `-D`, ...).
    pub cflags: Vec<String>,
    /// Directories searched for headers before the user's `-I`s (augur's runtime headers).
    pub include_dirs: Vec<PathBuf>,
}

fn run(cmd: &mut Command, what: &str) -> Result<(), IrError> {
    let out = cmd
        .output()
        .map_err(|e| IrError(llvm::cannot_run(what, &e)))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(producer) = llvm::newer_producer(&stderr) {
        // `llvm-link-14: error: Unknown attribute kind (..) (Producer: 'LLVM19.1.7' ..)`:
        // name the file (the first word of the line, before `: error`) and the versions.
        let file = stderr
            .lines()
            .find(|l| l.contains("Producer: 'LLVM"))
            .and_then(|l| l.split(": ").find(|w| w.ends_with(".bc")))
            .unwrap_or("input");
        return Err(IrError(llvm::newer_bitcode_error(file, producer)));
    }
    let first = stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("failed");
    Err(IrError(first.trim().to_string()))
}

/// Compile one C file to bitcode at `out`.
pub fn compile_c(src: &Path, out: &Path, opts: &CompileOptions) -> Result<(), IrError> {
    let clang = llvm::clang();
    let mut cmd = llvm::clang_command();
    cmd.args(ANALYSIS_CFLAGS);
    for d in &opts.include_dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.args(&opts.cflags).arg(src).arg("-o").arg(out);
    run(&mut cmd, &clang)
        .map_err(|e| IrError(format!("{}: does not compile: {}", src.display(), e.0)))
}

/// Compile every input that is C, then link all of them (plus `extra` bitcode such as the
/// libc models): into `workdir/user.bc`, then `workdir/linked.bc` when there is `extra`.
/// Returns the path of the result; one module and no `extra` is its own result (the input
/// bitcode itself, or the C file's compiled into `workdir`).
pub fn build_bitcode(
    inputs: &[PathBuf],
    extra: &[PathBuf],
    opts: &CompileOptions,
    workdir: &Path,
) -> Result<PathBuf, IrError> {
    let mut parts = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        if !input.exists() {
            return Err(IrError(format!("{}: no such file", input.display())));
        }
        match input.extension().and_then(|e| e.to_str()) {
            Some("c") => {
                let out = workdir.join(format!("input{i}.bc"));
                compile_c(input, &out, opts)?;
                parts.push(out);
            }
            Some("bc") | Some("ll") => parts.push(input.clone()),
            _ => {
                return Err(IrError(format!(
                    "{}: not a C (.c) or LLVM (.bc, .ll) file",
                    input.display()
                )))
            }
        }
    }
    if let ([one], []) = (&parts[..], extra) {
        // Nothing to link: linking one module with nothing only copies it (seconds for a
        // large program; BusyBox: 5 s).
        return Ok(one.clone());
    }
    let user = workdir.join("user.bc");
    let link = llvm::llvm_link();
    let mut cmd = Command::new(&link);
    cmd.args(&parts).arg("-o").arg(&user);
    run(&mut cmd, &link).map_err(|e| link_error(inputs, e))?;
    if extra.is_empty() {
        return Ok(user);
    }
    link_models(&user, extra, inputs, workdir)
}

fn link_error(inputs: &[PathBuf], e: IrError) -> IrError {
    if e.0.contains(", newer than the LLVM") {
        return e;
    }
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    IrError(format!("{}: cannot link: {}", names.join(", "), e.0))
}

/// Link the program `user` (built by [`build_bitcode`] from `inputs`, named in errors)
/// with the `extra` bitcode (libc models), which only fills in what the program uses and
/// does not define itself, into `workdir/linked.bc`. Returns that path.
pub fn link_models(
    user: &Path,
    extra: &[PathBuf],
    inputs: &[PathBuf],
    workdir: &Path,
) -> Result<PathBuf, IrError> {
    let linked = workdir.join("linked.bc");
    let link = llvm::llvm_link();
    let mut cmd = Command::new(&link);
    cmd.arg(user)
        .arg("--only-needed")
        .args(extra)
        .arg("-o")
        .arg(&linked);
    run(&mut cmd, &link).map_err(|e| link_error(inputs, e))?;
    Ok(linked)
}

/// Read a bitcode or textual IR file with `llvm-ir`.
pub fn read_module(path: &Path) -> Result<llvm_ir::Module, IrError> {
    let res = if path.extension().and_then(|e| e.to_str()) == Some("ll") {
        llvm_ir::Module::from_ir_path(path)
    } else {
        llvm_ir::Module::from_bc_path(path)
    };
    res.map_err(|e| not_valid(path, &e))
}

/// The error for a file this build's LLVM cannot read: a newer LLVM's bitcode is named as
/// such, anything else is `not valid LLVM 14 IR` with LLVM's message.
pub(crate) fn not_valid(path: &Path, message: &str) -> IrError {
    let file = path.display().to_string();
    match llvm::newer_producer(message) {
        Some(producer) => IrError(llvm::newer_bitcode_error(&file, producer)),
        None => IrError(format!(
            "{file}: not valid LLVM {LLVM_VERSION} IR: {message}"
        )),
    }
}
