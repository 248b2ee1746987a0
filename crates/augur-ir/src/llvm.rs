//! The LLVM this build of augur reads, and the one place that names its tools.
//!
//! The version is chosen at build time: LLVM 14 by default (feature `llvm14`), LLVM 19
//! with `--no-default-features --features augur-ir/llvm19` (which also selects
//! `llvm-ir`'s and `llvm-sys`'s matching versions, see `Cargo.toml`). Programs, the libc models, the replay and
//! recording runtimes are all compiled by the clang of that version, so that every
//! bitcode file augur links was written by the LLVM it reads.

/// The LLVM major version this build reads.
#[cfg(not(feature = "llvm19"))]
pub const LLVM_VERSION: u32 = 14;
/// The LLVM major version this build reads.
#[cfg(feature = "llvm19")]
pub const LLVM_VERSION: u32 = 19;

/// `name-VERSION` (`clang-14`), or the value of `env` when it is set.
fn versioned(env: &str, name: &str) -> String {
    std::env::var(env).unwrap_or_else(|_| format!("{name}-{LLVM_VERSION}"))
}

/// The clang that compiles C for this build (`clang-14`; `AUGUR_CLANG` overrides).
pub fn clang() -> String {
    versioned("AUGUR_CLANG", "clang")
}

/// Flags that keep the C clang accepts as clang 14 accepted it: clang 16 made implicit
/// function declarations, implicit `int`, int-conversions and incompatible function
/// pointers errors, and programs written for KLEE or SV-COMP call `klee_make_symbolic` or
/// `__VERIFIER_nondet_int` undeclared. Empty for LLVM 14.
#[cfg(not(feature = "llvm19"))]
pub const C_DIALECT_FLAGS: &[&str] = &[];
/// Flags that keep the C clang accepts as clang 14 accepted it: clang 16 made implicit
/// function declarations, implicit `int`, int-conversions and incompatible function
/// pointers errors, and programs written for KLEE or SV-COMP call `klee_make_symbolic` or
/// `__VERIFIER_nondet_int` undeclared. Empty for LLVM 14.
#[cfg(feature = "llvm19")]
pub const C_DIALECT_FLAGS: &[&str] = &[
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types",
];

/// A command running [`clang`] with the [`C_DIALECT_FLAGS`].
pub fn clang_command() -> std::process::Command {
    let mut cmd = std::process::Command::new(clang());
    cmd.args(C_DIALECT_FLAGS);
    cmd
}

/// The bitcode linker of this build (`llvm-link-14`; `AUGUR_LLVM_LINK` overrides).
pub fn llvm_link() -> String {
    versioned("AUGUR_LLVM_LINK", "llvm-link")
}

/// Another tool of this build's LLVM by its plain name (`llvm-dis` -> `llvm-dis-14`).
pub fn llvm_tool(name: &str) -> String {
    format!("{name}-{LLVM_VERSION}")
}

/// The textual IR of the bitcode file `bc` (`llvm-dis` of this build's LLVM); Err names
/// the file and what `llvm-dis` said.
pub fn disassemble(bc: &std::path::Path) -> Result<String, String> {
    let dis = llvm_tool("llvm-dis");
    let o = std::process::Command::new(&dis)
        .arg(bc)
        .args(["-o", "-"])
        .output()
        .map_err(|e| cannot_run(&dis, &e))?;
    if !o.status.success() {
        return Err(format!(
            "{}: cannot be disassembled: {}",
            bc.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The error of a tool that could not be started: `cannot run clang-14: ... (is LLVM 14
/// installed?)`.
pub fn cannot_run(tool: &str, e: &std::io::Error) -> String {
    format!("cannot run {tool}: {e} (is LLVM {LLVM_VERSION} installed?)")
}

/// If an LLVM error message says the bitcode was written by a newer LLVM than this
/// build's (LLVM's bitcode reader appends `(Producer: 'LLVM19.1.7' Reader: 'LLVM 14.0.6')`
/// to its errors), the producer's version (`19.1.7`).
pub fn newer_producer(message: &str) -> Option<&str> {
    let rest = &message[message.find("Producer: 'LLVM")? + "Producer: 'LLVM".len()..];
    let version = &rest[..rest.find('\'')?];
    let major: u32 = version.split('.').next()?.trim().parse().ok()?;
    (major > LLVM_VERSION).then_some(version)
}

/// The one-line error for `file`, written by LLVM `producer`, newer than this build's.
pub fn newer_bitcode_error(file: &str, producer: &str) -> String {
    format!(
        "{file}: bitcode from LLVM {producer}, newer than the LLVM {LLVM_VERSION} this augur \
         was built for (compile it with clang-{LLVM_VERSION}, or build augur for a newer LLVM: \
         see docs/llvm.md)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn producer_newer_than_the_build() {
        let msg =
            "error: Unknown attribute kind (86) (Producer: 'LLVM99.1.7' Reader: 'LLVM 14.0.6')";
        assert_eq!(newer_producer(msg), Some("99.1.7"));
        let old = "error: Invalid record (Producer: 'LLVM3.9.0' Reader: 'LLVM 14.0.6')";
        assert_eq!(newer_producer(old), None);
        assert_eq!(newer_producer("error: expected type"), None);
    }

    #[test]
    fn tools_carry_the_version() {
        assert_eq!(llvm_tool("llvm-dis"), format!("llvm-dis-{LLVM_VERSION}"));
    }
}
