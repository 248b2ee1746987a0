//! Pointer types of a function's IR signature from its C prototype. With opaque pointers
//! (LLVM 15 and later) a `define`/`declare` line says `ptr` where LLVM 14 said `i8*` or
//! `i32*`: whether a result is a string, or a parameter an out-parameter of known size, is
//! read from the prototype clang sees in the source (its AST), and the line is rewritten
//! with LLVM 14's typed pointers for [`crate::signature::parse`].

use std::path::Path;
use std::process::Command;

/// The C type of `name` as clang declares it in `input` (desugared:
/// `char *(const char *)`), from clang's AST dump.
pub fn c_prototype(input: &Path, args: &[String], name: &str) -> Option<String> {
    let mut cmd: Command = augur_ir::llvm::clang_command();
    let o = cmd
        .args(["-fsyntax-only", "-w"])
        .args(args)
        .arg(input)
        .args([
            "-Xclang",
            "-ast-dump",
            "-Xclang",
            "-ast-dump-filter",
            "-Xclang",
        ])
        .arg(name)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&o.stdout);
    let at = format!(" {name} '");
    text.lines()
        .filter(|l| l.trim_start().starts_with("FunctionDecl"))
        .find_map(|l| declared_type(&l[l.find(&at)? + at.len()..]))
}

/// The type quoted at the start of `rest` (`char *(const char *)' extern`), or the
/// desugared one after it (`time_t (time_t *)':'long (long *)'`).
fn declared_type(rest: &str) -> Option<String> {
    let end = rest.find('\'')?;
    let sugared = &rest[..end];
    let after = &rest[end + 1..];
    if let Some(d) = after.strip_prefix(":'") {
        return Some(d[..d.find('\'')?].to_string());
    }
    Some(sugared.to_string())
}

/// The return type and parameter types of a C function type (`char *(const char *, int)`).
fn split_function_type(ty: &str) -> Option<(String, Vec<String>)> {
    let ty = ty.trim();
    let inner_end = ty.strip_suffix(')')?.len();
    let mut depth = 0;
    let mut open = None;
    for (i, c) in ty[..inner_end].char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => {
                open = Some(i);
                break;
            }
            '(' => depth -= 1,
            _ => {}
        }
    }
    let open = open?;
    let ret = ty[..open].trim().to_string();
    let list = &ty[open + 1..inner_end];
    let mut params = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                params.push(list[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = list[start..].trim();
    if !last.is_empty() && last != "void" {
        params.push(last.to_string());
    }
    Some((ret, params))
}

/// LLVM 14's spelling of a C pointer type (`const char *` -> `i8*`), or None if `c` is not
/// a pointer.
fn typed_pointer(c: &str) -> Option<String> {
    let pointee = c.trim().strip_suffix('*')?;
    let words: Vec<&str> = pointee
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "restrict" | "__restrict"))
        .collect();
    let ir = match words.join(" ").as_str() {
        "char" | "signed char" | "unsigned char" | "_Bool" | "void" => "i8",
        "short" | "unsigned short" => "i16",
        "int" | "unsigned int" | "unsigned" => "i32",
        "long" | "unsigned long" | "long long" | "unsigned long long" => "i64",
        "float" => "float",
        "double" => "double",
        _ => "%opaque",
    };
    Some(format!("{ir}*"))
}

/// `line` (a `define`/`declare` line of `@name`) with each `ptr` of its result and
/// parameters replaced by the typed pointer the C type `proto` says; None if the two do
/// not correspond (another number of parameters, a `ptr` where C has no pointer).
pub fn typed_line(line: &str, name: &str, proto: &str) -> Option<String> {
    let (ret, params) = split_function_type(proto)?;
    let at = format!("@{name}(");
    let i = line.find(&at)?;
    let open = i + at.len();
    let close = open + line[open..].rfind(')')?;
    let head = &line[..i];
    let mut out = String::new();
    match head.rfind(" ptr ") {
        Some(k) if head[k + 5..].trim().is_empty() => {
            out.push_str(&head[..k + 1]);
            out.push_str(&typed_pointer(&ret)?);
            out.push(' ');
        }
        _ => out.push_str(head),
    }
    out.push_str(&at);
    let ir_params: Vec<&str> = super::signature::split_params(&line[open..close]);
    if ir_params.len() != params.len() {
        return None;
    }
    let mut typed = Vec::new();
    for (p, c) in ir_params.iter().zip(&params) {
        typed.push(match p.strip_prefix("ptr") {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                format!("{}{rest}", typed_pointer(c)?)
            }
            _ => p.to_string(),
        });
    }
    out.push_str(&typed.join(", "));
    out.push_str(&line[close..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prototypes_type_the_pointers() {
        let line = "declare ptr @getenv(ptr noundef) #2";
        assert_eq!(
            typed_line(line, "getenv", "char *(const char *)").unwrap(),
            "declare i8* @getenv(i8* noundef) #2"
        );
        let line = "declare i64 @time(ptr noundef) #2";
        assert_eq!(
            typed_line(line, "time", "long (long *)").unwrap(),
            "declare i64 @time(i64* noundef) #2"
        );
        let line = "define dso_local i32 @f(i32 noundef %x, ptr noundef %p) #0 {";
        assert_eq!(
            typed_line(line, "f", "int (int, struct S *)").unwrap(),
            "define dso_local i32 @f(i32 noundef %x, %opaque* noundef %p) #0 {"
        );
        assert_eq!(typed_line(line, "f", "int (int)"), None);
        assert_eq!(
            declared_type("time_t (time_t *)':'long (long *)' extern").unwrap(),
            "long (long *)"
        );
    }
}
