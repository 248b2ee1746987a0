//! The instrumented native build: the program compiled with sanitizers (as `augur replay`
//! compiles it), each hard function wrapped at the IR level by a generated C wrapper that
//! calls the real one and logs (or substitutes) its results through
//! `runtime/record/record.c`. A program built from a source tree comes as the bitcode
//! `augur extract-bc` linked: the recording build is compiled from that very bitcode
//! (instrumented for AddressSanitizer as `augur replay` does), so its lines are the
//! analysis' lines, and linked with the libraries the project's link named.
//!
//! Wrapping: for a function the program defines, its definition is renamed
//! `__augur_real_F` in the textual IR and the wrapper takes the name `F`, so every call
//! (recursive ones included) and every function pointer reaches the wrapper; for an
//! external function, every reference `@F` in the IR becomes `@__augur_rec_F`, the
//! wrapper's name, and the wrapper calls the real `F`.

use crate::log::hex;
use crate::prototype;
use crate::signature::{self, Signature};
use augur_env::{NATIVE_CFLAGS, NATIVE_LINK_FLAGS};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The prefix of a recorded function's own definition once its wrapper takes its name: a
/// crash inside it shows `__augur_real_F` in the sanitizer's stack.
pub(crate) const REAL_PREFIX: &str = "__augur_real_";

/// What to build.
pub struct BuildSpec<'a> {
    /// The program's C sources, or its bitcode (`augur extract-bc`'s, whose `!augur.libs`
    /// are linked).
    pub inputs: &'a [PathBuf],
    /// Extra clang flags.
    pub cflags: &'a [String],
    /// Native-only files linked in (objects, libraries, C files not analysed).
    pub link: &'a [PathBuf],
    /// The functions to record, sorted by name.
    pub hard: &'a [String],
    /// The binary to write.
    pub out: &'a Path,
}

/// What was built.
pub struct Built {
    /// The functions recorded (their index is their id in the log).
    pub recorded: Vec<String>,
    /// Hard functions that could not be wrapped, with why.
    pub skipped: Vec<String>,
}

/// The build id of a program: a hash of its sources' contents and the clang flags (the
/// same sources and flags give the same id wherever they are compiled).
pub fn build_id(inputs: &[PathBuf], cflags: &[String]) -> Result<[u8; 32], String> {
    let mut h = Sha256::new();
    for p in inputs {
        let data = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        h.update((data.len() as u64).to_le_bytes());
        h.update(&data);
    }
    for f in cflags {
        h.update(f.as_bytes());
        h.update([0]);
    }
    Ok(h.finalize().into())
}

fn clang() -> Command {
    augur_ir::llvm::clang_command()
}

/// Is `c` a character of an LLVM identifier?
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-')
}

/// Replace every reference `@from` (as a whole name) by `@to`.
fn rename_refs(text: &str, from: &str, to: &str) -> String {
    let pat = format!("@{from}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        let after = &rest[i + pat.len()..];
        out.push_str(&rest[..i]);
        if after.chars().next().is_some_and(ident_char) {
            out.push_str(&pat);
        } else {
            out.push('@');
            out.push_str(to);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The `define` or `declare` line of `@name` in a module's text.
fn header_line<'a>(text: &'a str, name: &str, keyword: &str) -> Option<&'a str> {
    let at = format!("@{name}(");
    text.lines()
        .find(|l| l.starts_with(keyword) && l.contains(&at))
}

/// A `declare` line for the function defined on `define` (its parameters without their
/// names), so the module's calls still resolve once the definition is renamed.
fn declaration(define: &str, name: &str) -> Option<String> {
    let at = format!("@{name}(");
    let i = define.find(&at)?;
    let head = define[..i]
        .replacen("define ", "declare ", 1)
        .replace(" internal ", " ");
    let close = define.rfind(')')?;
    let params: Vec<String> = define[i + at.len()..close]
        .split(',')
        .map(|p| {
            let p = p.trim();
            match p.rsplit_once(' ') {
                Some((ty, last)) if last.starts_with('%') => ty.to_string(),
                _ => p.to_string(),
            }
        })
        .filter(|p| !p.is_empty())
        .collect();
    Some(format!("{head}{at}{})\n", params.join(", ")))
}

/// How a hard function is wrapped.
struct Wrapped {
    name: String,
    sig: Signature,
    defined: bool,
}

/// The generated C of one wrapper.
fn wrapper_c(id: usize, w: &Wrapped) -> String {
    let (outer, real) = if w.defined {
        (w.name.clone(), format!("{REAL_PREFIX}{}", w.name))
    } else {
        (format!("__augur_rec_{}", w.name), w.name.clone())
    };
    let ret = w.sig.ret.c;
    let params: Vec<String> = w
        .sig
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{} a{i}", p.c))
        .collect();
    let decl_params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let args: Vec<String> = (0..w.sig.params.len()).map(|i| format!("a{i}")).collect();
    let call = format!("{real}({})", args.join(", "));
    let void = ret == "void";
    let string = w.sig.ret.kind == crate::log::ResultKind::String;
    let mut s = format!("extern {ret} {real}({decl_params});\n{ret} {outer}({decl_params}) {{\n");
    if !void {
        s += &format!("  {ret} r;\n");
    }
    let assign = if void { String::new() } else { "r = ".into() };
    let ret_stmt = if void { "return;" } else { "return r;" };
    s += &format!(
        "  if (!augur_rec_enter()) {{\n    {assign}{call};\n    augur_rec_leave();\n    {ret_stmt}\n  }}\n"
    );
    // Substitution of logged results.
    s += &format!("  if (augur_rec_next({id})) {{\n");
    if string {
        s += "    r = augur_rec_get_string(0);\n";
    } else if !void {
        s += "    augur_rec_get(0, &r, sizeof r);\n";
    }
    let outs: Vec<(usize, u8)> = w
        .sig
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.out_size.map(|n| (i, n)))
        .collect();
    for (i, n) in &outs {
        s += &format!("    if (a{i}) augur_rec_get({}, a{i}, {n});\n", i + 1);
    }
    s += &format!("    augur_rec_leave();\n    {ret_stmt}\n  }}\n");
    // Recording.
    for (i, n) in &outs {
        s += &format!(
            "  unsigned char b{i}[{n}];\n  if (a{i}) __builtin_memcpy(b{i}, a{i}, {n});\n"
        );
    }
    s += &format!("  {assign}{call};\n  augur_rec_begin({id});\n");
    if string {
        s += "  augur_rec_part(0, r, r ? augur_rec_strnlen(r, 255) : -1);\n";
    } else if !void {
        s += "  augur_rec_part(0, &r, sizeof r);\n";
    }
    for (i, n) in &outs {
        s += &format!(
            "  if (a{i} && __builtin_memcmp(b{i}, a{i}, {n})) augur_rec_part({}, a{i}, {n});\n",
            i + 1
        );
    }
    s += &format!("  augur_rec_end();\n  augur_rec_leave();\n  {ret_stmt}\n}}\n\n");
    s
}

/// The wrappers' file: the runtime's declarations, the build id, the function table and
/// one wrapper per function.
fn wrappers_file(id: &[u8; 32], wrapped: &[Wrapped]) -> String {
    let mut s = String::from(
        "/* Generated by augur record. No header: a wrapped library function (`strcmp`) is\n\
         declared here with the wrapper's types, which would conflict with the header's. */\n\
         static int augur_rec_strnlen(const char *s, int n) {\n\
         \x20 int i = 0;\n  while (i < n && s[i]) i++;\n  return i;\n}\n\
         struct augur_rec_fn { const char *name; char kind; unsigned char size; };\n\
         int augur_rec_enter(void);\nvoid augur_rec_leave(void);\n\
         void augur_rec_begin(unsigned);\nvoid augur_rec_part(unsigned, const void *, int);\n\
         void augur_rec_end(void);\nint augur_rec_next(unsigned);\n\
         int augur_rec_get(unsigned, void *, int);\nchar *augur_rec_get_string(unsigned);\n",
    );
    let bytes: Vec<String> = id.iter().map(|b| format!("0x{b:02x}")).collect();
    s += &format!(
        "const unsigned char augur_rec_build_id[32] = {{{}}};\n",
        bytes.join(", ")
    );
    s += "const struct augur_rec_fn augur_rec_functions[] = {\n";
    for w in wrapped {
        s += &format!(
            "  {{\"{}\", '{}', {}}},\n",
            w.name,
            w.sig.ret.kind.code() as char,
            w.sig.ret.size
        );
    }
    if wrapped.is_empty() {
        s += "  {\"\", 'v', 0},\n";
    }
    s += &format!(
        "}};\nconst unsigned augur_rec_nfunctions = {};\n\n",
        wrapped.len()
    );
    for (i, w) in wrapped.iter().enumerate() {
        s += &wrapper_c(i, w);
    }
    s
}

/// Compile the program with its hard functions wrapped, the recording runtime and the
/// replay runtime, into `spec.out`.
pub fn build(spec: &BuildSpec) -> Result<Built, String> {
    let runtime =
        augur_env::runtime_dir().map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
    let work =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let io = |e: std::io::Error| format!("cannot write the instrumented build: {e}");
    // 1. Each input to the native build's textual IR (`augur_env::native_ir`: C through
    //    the front end, bitcode marked for AddressSanitizer, the stack zeroed), the
    //    libraries of bitcode's `!augur.libs` linked.
    let mut modules = Vec::new();
    let mut libs: Vec<String> = Vec::new();
    for (i, input) in spec.inputs.iter().enumerate() {
        let ll = work.path().join(format!("m{i}.ll"));
        let ir = augur_env::native_ir(input, spec.cflags, &runtime)?;
        for l in ir.libs {
            if !libs.contains(&l) {
                libs.push(l);
            }
        }
        modules.push((ll, ir.text));
    }
    // 2. Wrap each hard function found in the IR.
    let mut wrapped = Vec::new();
    let mut skipped = Vec::new();
    for name in spec.hard {
        if name == "main" {
            skipped.push("main cannot be recorded (it is the program)".to_string());
            continue;
        }
        let define = modules
            .iter()
            .find_map(|(_, t)| header_line(t, name, "define "));
        let line = define.or_else(|| {
            modules
                .iter()
                .find_map(|(_, t)| header_line(t, name, "declare "))
        });
        let Some(line) = line else {
            skipped.push(format!("{name} is not called natively: not recorded"));
            continue;
        };
        // Pointers are `ptr` (LLVM 15 and later) or `i8*` for both `char *` and `void *`
        // (LLVM 14): their pointees come from the C prototype in the sources, or from the
        // debug information of bitcode.
        let typed = if line.contains("ptr") || line.contains("i8*") {
            let mut args: Vec<String> = NATIVE_CFLAGS.iter().map(|f| f.to_string()).collect();
            args.extend(["-I".to_string(), runtime.display().to_string()]);
            args.extend(spec.cflags.iter().cloned());
            spec.inputs
                .iter()
                .filter(|input| {
                    !matches!(
                        input.extension().and_then(|e| e.to_str()),
                        Some("bc" | "ll")
                    )
                })
                .find_map(|input| prototype::c_prototype(input, &args, name))
                .or_else(|| {
                    modules
                        .iter()
                        .find_map(|(_, t)| prototype::debug_prototype(t, name))
                })
                .and_then(|proto| prototype::typed_line(line, name, &proto))
        } else {
            None
        };
        match signature::parse(typed.as_deref().unwrap_or(line), name) {
            Ok(sig) if sig.ret.c == "void" && sig.params.iter().all(|p| p.out_size.is_none()) => {
                skipped.push(format!(
                    "{name} returns nothing and writes through no pointer: nothing to record"
                ))
            }
            Ok(sig) => wrapped.push(Wrapped {
                name: name.clone(),
                sig,
                defined: define.is_some(),
            }),
            Err(why) => skipped.push(format!("{name} {why}: not recorded")),
        }
    }
    for (path, text) in &mut modules {
        for w in &wrapped {
            if w.defined {
                let at = format!("@{}(", w.name);
                let define = header_line(text, &w.name, "define ").map(str::to_string);
                let real = format!("@{REAL_PREFIX}{}(", w.name);
                *text = text
                    .lines()
                    .map(|l| {
                        if l.starts_with("define ") && l.contains(&at) {
                            l.replacen(&at, &real, 1)
                                .replacen("define internal ", "define ", 1)
                        } else {
                            l.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                text.push('\n');
                if let Some(decl) = define.as_deref().and_then(|l| declaration(l, &w.name)) {
                    text.push_str(&decl);
                }
            } else {
                *text = rename_refs(text, &w.name, &format!("__augur_rec_{}", w.name));
            }
        }
        std::fs::write(path, text.as_bytes()).map_err(io)?;
    }
    // 3. The wrappers and the runtimes, then the link.
    let id = build_id(spec.inputs, spec.cflags)?;
    let wrappers = work.path().join("augur_record_wrappers.c");
    std::fs::write(&wrappers, wrappers_file(&id, &wrapped)).map_err(io)?;
    let wrappers_object = work.path().join("wrappers.o");
    let mut cmd = clang();
    cmd.args(["-c", "-O2", "-w"])
        .arg(&wrappers)
        .arg("-o")
        .arg(&wrappers_object);
    augur_env::run_clang(cmd, &wrappers.display().to_string())?;
    let mut record_cc = clang();
    record_cc.args(["-O2", "-w"]);
    let record_object =
        augur_env::runtime_object(&record_cc, &runtime.join("record").join("record.c"))?;
    let mut cmd = clang();
    cmd.args(NATIVE_CFLAGS).arg("-I").arg(&runtime);
    let replay_object = augur_env::runtime_object(&cmd, &runtime.join("replay").join("replay.c"))?;
    cmd.args(modules.iter().map(|m| &m.0))
        .arg(wrappers_object)
        .arg(record_object)
        .arg(replay_object)
        .args(NATIVE_LINK_FLAGS)
        .args(spec.link)
        .args(&libs)
        .arg("-lm")
        .arg("-o")
        .arg(spec.out);
    let names: Vec<String> = spec
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    augur_env::run_clang(cmd, &names.join(", "))?;
    tracing::debug!("build id {}", hex(&id));
    Ok(Built {
        recorded: wrapped.into_iter().map(|w| w.name).collect(),
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_whole_names_only() {
        let t =
            "call double @pow(double %x)\ncall double @powf(float %y)\ndeclare double @pow(double)";
        let r = rename_refs(t, "pow", "__augur_rec_pow");
        assert_eq!(
            r,
            "call double @__augur_rec_pow(double %x)\ncall double @powf(float %y)\ndeclare double @__augur_rec_pow(double)"
        );
    }
}
