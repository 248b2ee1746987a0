//! Pointer types of a function's IR signature from its C prototype. With opaque pointers
//! (LLVM 15 and later) a `define`/`declare` line says `ptr` where LLVM 14 said `i8*` or
//! `i32*`, and LLVM 14's `i8*` is both `char *` and `void *`: whether a result is a
//! string, or a parameter an out-parameter of known size, is read from the prototype clang
//! sees in the source (its AST) or, for bitcode, from the function's debug information,
//! and the line is rewritten with LLVM 14's typed pointers (`void *` as `%void*`, no
//! string) for [`crate::signature::parse`].

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
        "char" | "signed char" | "unsigned char" | "_Bool" => "i8",
        "void" => "%void",
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
    let ret_at = [" ptr ", " i8* "].iter().find_map(|p| {
        head.rfind(p)
            .filter(|k| head[k + p.len()..].trim().is_empty())
    });
    match ret_at {
        Some(k) => {
            out.push_str(&head[..k + 1]);
            out.push_str(&typed_pointer(&ret)?);
            out.push(' ');
        }
        None => out.push_str(head),
    }
    out.push_str(&at);
    let ir_params: Vec<&str> = super::signature::split_params(&line[open..close]);
    if ir_params.len() != params.len() {
        return None;
    }
    let mut typed = Vec::new();
    for (p, c) in ir_params.iter().zip(&params) {
        typed.push(
            match p.strip_prefix("ptr").or_else(|| p.strip_prefix("i8*")) {
                Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                    format!("{}{rest}", typed_pointer(c)?)
                }
                _ => p.to_string(),
            },
        );
    }
    out.push_str(&typed.join(", "));
    out.push_str(&line[close..]);
    Some(out)
}

/// The C type of the function `name` defined in the textual IR `ir`, from its debug
/// information (its `DISubprogram`'s type), spelt as [`c_prototype`] spells it
/// (`void *(long *, int)`); None without debug information.
pub fn debug_prototype(ir: &str, name: &str) -> Option<String> {
    let at = format!("@{name}(");
    let define = ir
        .lines()
        .find(|l| l.starts_with("define ") && l.contains(&at))?;
    let sub = define[define.find("!dbg !")? + 5..]
        .split(|c: char| c.is_whitespace() || c == '{')
        .next()?;
    let nodes: std::collections::HashMap<&str, &str> = ir
        .lines()
        .filter(|l| l.starts_with('!'))
        .filter_map(|l| l.split_once(" = "))
        .collect();
    let field = |node: &str, key: &str| -> Option<String> {
        let text = nodes.get(node)?;
        let rest = &text[text.find(&format!("{key}: "))? + key.len() + 2..];
        Some(rest.split([',', ')']).next()?.trim().to_string())
    };
    let types = field(&field(sub, "type")?, "types")?;
    let list = nodes.get(types.as_str())?;
    let mut spelt: Vec<String> = list
        .trim_start_matches("!{")
        .trim_end_matches('}')
        .split(',')
        .map(|t| c_spelling(&nodes, t.trim(), 0))
        .collect();
    if spelt.len() > 1 && spelt.last().is_some_and(|t| t == "void") {
        spelt.pop();
        spelt.push("...".into());
    }
    let ret = if spelt.is_empty() {
        "void".to_string()
    } else {
        spelt.remove(0)
    };
    Some(format!("{ret} ({})", spelt.join(", ")))
}

/// The C spelling of the debug type node `id` (`null` is void), as far as pointers need it.
fn c_spelling(nodes: &std::collections::HashMap<&str, &str>, id: &str, depth: u32) -> String {
    let Some(text) = nodes.get(id).filter(|_| depth < 16) else {
        return "void".into();
    };
    let get = |key: &str| {
        let at = text.find(&format!("{key}: "))? + key.len() + 2;
        Some(
            text[at..]
                .split([',', ')'])
                .next()?
                .trim()
                .trim_matches('"')
                .to_string(),
        )
    };
    let base = || get("baseType").map_or("void".to_string(), |b| c_spelling(nodes, &b, depth + 1));
    let tag = get("tag").unwrap_or_default();
    if text.starts_with("!DIBasicType") {
        return get("name").unwrap_or_else(|| "int".into());
    }
    match tag.as_str() {
        "DW_TAG_pointer_type" => format!("{} *", base()),
        "DW_TAG_typedef"
        | "DW_TAG_const_type"
        | "DW_TAG_volatile_type"
        | "DW_TAG_restrict_type"
        | "DW_TAG_atomic_type" => base(),
        "DW_TAG_structure_type" | "DW_TAG_union_type" | "DW_TAG_enumeration_type" => {
            format!("struct {}", get("name").unwrap_or_default())
        }
        _ => "struct ?".into(),
    }
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
        let line = "define dso_local i8* @xpalloc(i8* noundef %p, i64* noundef %n) #0 {";
        assert_eq!(
            typed_line(line, "xpalloc", "void *(void *, long *)").unwrap(),
            "define dso_local %void* @xpalloc(%void* noundef %p, i64* noundef %n) #0 {"
        );
        assert_eq!(
            declared_type("time_t (time_t *)':'long (long *)' extern").unwrap(),
            "long (long *)"
        );
    }

    #[test]
    fn debug_information_gives_the_prototype() {
        let ir =
            "define dso_local i8* @xpalloc(i8* noundef %0, i64* noundef %1, ...) #0 !dbg !10 {\n\
            }\n\
            define dso_local i8* @name() #0 !dbg !20 {\n}\n\
            !10 = distinct !DISubprogram(name: \"xpalloc\", scope: !1, type: !11, unit: !0)\n\
            !11 = !DISubroutineType(types: !12)\n\
            !12 = !{!13, !13, !14, null}\n\
            !13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)\n\
            !14 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)\n\
            !15 = !DIDerivedType(tag: DW_TAG_typedef, name: \"idx_t\", baseType: !16)\n\
            !16 = !DIBasicType(name: \"long\", size: 64, encoding: DW_ATE_signed)\n\
            !20 = distinct !DISubprogram(name: \"name\", type: !21, unit: !0)\n\
            !21 = !DISubroutineType(types: !22)\n\
            !22 = !{!23}\n\
            !23 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !24, size: 64)\n\
            !24 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !25)\n\
            !25 = !DIBasicType(name: \"char\", size: 8, encoding: DW_ATE_signed_char)\n";
        assert_eq!(
            debug_prototype(ir, "xpalloc").unwrap(),
            "void * (void *, long *, ...)"
        );
        assert_eq!(debug_prototype(ir, "name").unwrap(), "char * ()");
        assert_eq!(debug_prototype(ir, "other"), None);
    }
}
