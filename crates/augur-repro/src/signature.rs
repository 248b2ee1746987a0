//! A function's signature read from its `define`/`declare` line in textual LLVM IR, as
//! much as a C wrapper needs: C types for the return value and each parameter, and what
//! of it can be logged.

use crate::log::ResultKind;

/// A scalar type a wrapper can pass through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CType {
    /// The C spelling (`int`, `unsigned char`, `double`, `void *`, ...).
    pub c: &'static str,
    /// For a pointer to a scalar other than `char`: the pointee's size, whose changed
    /// bytes are logged after a call.
    pub out_size: Option<u8>,
    /// Is it a `char *` (a string)?
    pub string: bool,
    /// Size of a value in bytes (0 for void).
    pub size: u8,
    /// How a result of this type is logged.
    pub kind: ResultKind,
}

/// A signature a wrapper can be generated for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The return type.
    pub ret: CType,
    /// The parameter types.
    pub params: Vec<CType>,
}

fn scalar(c: &'static str, size: u8, kind: ResultKind) -> CType {
    CType {
        c,
        out_size: None,
        string: false,
        size,
        kind,
    }
}

fn pointee_size(t: &str) -> Option<u8> {
    Some(match t {
        "i16" => 2,
        "i32" | "float" => 4,
        "i64" | "double" => 8,
        _ => return None,
    })
}

/// The C type of an LLVM type with its parameter attributes.
fn c_type(ty: &str, attrs: &str) -> Result<CType, String> {
    if let Some(pointee) = ty.strip_suffix('*') {
        return Ok(CType {
            c: "void *",
            out_size: pointee_size(pointee),
            string: pointee == "i8",
            size: 8,
            kind: ResultKind::Int,
        });
    }
    if ty == "ptr" {
        // LLVM 15 and later: an opaque pointer, whose pointee is not known here (neither
        // a string nor an out-parameter of known size).
        return Ok(CType {
            c: "void *",
            out_size: None,
            string: false,
            size: 8,
            kind: ResultKind::Int,
        });
    }
    let zext = attrs.contains("zeroext");
    Ok(match ty {
        "void" => scalar("void", 0, ResultKind::Void),
        "i1" => scalar("_Bool", 1, ResultKind::Int),
        "i8" if zext => scalar("unsigned char", 1, ResultKind::Int),
        "i8" => scalar("signed char", 1, ResultKind::Int),
        "i16" if zext => scalar("unsigned short", 2, ResultKind::Int),
        "i16" => scalar("short", 2, ResultKind::Int),
        "i32" => scalar("int", 4, ResultKind::Int),
        "i64" => scalar("long long", 8, ResultKind::Int),
        "float" => scalar("float", 4, ResultKind::Float),
        "double" => scalar("double", 8, ResultKind::Double),
        other => return Err(format!("has a parameter or result of type `{other}`")),
    })
}

/// Split a parameter list at top-level commas.
pub(crate) fn split_params(list: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in list.char_indices() {
        match c {
            '(' | '{' | '[' | '<' => depth += 1,
            ')' | '}' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = list[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// The signature of `@name` on its `define` or `declare` line; `Err` says why no wrapper
/// can be generated for it.
pub fn parse(line: &str, name: &str) -> Result<Signature, String> {
    let at = format!("@{name}(");
    let i = line
        .find(&at)
        .ok_or_else(|| format!("no `{at}` on its line"))?;
    let ret_ty = line[..i].split_whitespace().last().unwrap_or("void");
    let open = i + at.len();
    let mut depth = 1;
    let close = line[open..]
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map(|(j, _)| open + j)
        .ok_or("an unterminated parameter list")?;
    let mut params = Vec::new();
    for p in split_params(&line[open..close]) {
        if p == "..." {
            return Err("takes a variable number of arguments".into());
        }
        if p.contains("byval") || p.contains("sret") || p.contains("inalloca") {
            return Err("passes a struct by value".into());
        }
        let (ty, attrs) = p.split_once(' ').unwrap_or((p, ""));
        params.push(c_type(ty, attrs)?);
    }
    let mut ret = c_type(ret_ty, &line[..i])?;
    if ret.c == "void *" {
        if !ret.string {
            return Err("returns a pointer to something other than a string".into());
        }
        ret.kind = ResultKind::String;
        ret.size = 0;
    }
    Ok(Signature { ret, params })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_common_signatures() {
        let s = parse(
            "define dso_local i32 @checksum(i8* noundef %0, i32* noundef %1) #0 !dbg !9 {",
            "checksum",
        )
        .unwrap();
        assert_eq!(s.ret.c, "int");
        assert!(s.params[0].string);
        assert_eq!(s.params[1].out_size, Some(4));
        let s = parse(
            "declare double @pow(double noundef, double noundef) #2",
            "pow",
        )
        .unwrap();
        assert_eq!(s.ret.kind, ResultKind::Double);
        assert_eq!(s.params.len(), 2);
        let s = parse("declare i8* @getenv(i8* noundef) #1", "getenv").unwrap();
        assert_eq!(s.ret.kind, ResultKind::String);
        let s = parse("define internal zeroext i8 @f() #0 {", "f").unwrap();
        assert_eq!(s.ret.c, "unsigned char");
    }

    #[test]
    fn refuses_what_a_wrapper_cannot_pass() {
        assert!(parse("declare i32 @printf(i8* noundef, ...) #1", "printf").is_err());
        assert!(parse(
            "define void @g(%struct.S* noundef byval(%struct.S) align 8 %0) {",
            "g"
        )
        .is_err());
        assert!(parse("declare %struct.S* @h() #1", "h").is_err());
        assert!(parse("define { i64, i64 } @k() {", "k").is_err());
    }
}
