//! `augur cc` and `augur extract-bc`: a project's own build to one bitcode (the work is
//! `augur_env::project`'s).

use clap::Args;
use std::path::PathBuf;

/// Options of `augur cc`: none of its own (`augur cc --help` alone is augur's); everything
/// goes to clang.
#[derive(Args, Debug)]
pub struct CcArgs {
    /// clang's arguments, as the build gives them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

/// Run `augur cc`: the compiler's exit status.
pub fn cc(a: CcArgs) -> i32 {
    augur_env::project::cc(&a.args)
}

/// Options of `augur extract-bc`.
#[derive(Args, Debug)]
pub struct ExtractArgs {
    /// An executable (or object) built with `CC='augur cc'`.
    program: PathBuf,
    /// The bitcode file to write (default: PROGRAM.bc).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Run `augur extract-bc`: link the program's bitcode and say what it holds.
pub fn extract(a: ExtractArgs) -> Result<(), String> {
    let out = a.output.unwrap_or_else(|| {
        let mut name = a.program.clone().into_os_string();
        name.push(".bc");
        PathBuf::from(name)
    });
    let e = augur_env::project::extract(&a.program, &out)?;
    let libs = if e.libs.is_empty() {
        String::new()
    } else {
        format!("; links {} natively", e.libs.join(" "))
    };
    println!(
        "{}: {} bitcode file(s) linked{libs}",
        out.display(),
        e.files
    );
    Ok(())
}
