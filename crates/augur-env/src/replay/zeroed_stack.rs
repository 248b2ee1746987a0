//! Stack memory of the native build that starts as augur's does: zero. The analysis gives
//! every execution of an `alloca` a fresh zero-filled object, so a program that reads a
//! local variable before writing it sees 0; natively it would see whatever an earlier
//! call left there, and its test would disagree with its native run (or differ from one
//! native run to the next). So the native build's IR gets, after each run of `alloca`
//! instructions, a `memset` of each of them to zero: the same objects, zeroed at the
//! same moments as in the analysis (once per execution of the `alloca`, so a variable
//! declared in a loop body keeps its value across iterations there too).

/// The prefix of the names of the values this pass adds.
const PREFIX: &str = "augur.zero";

/// One `alloca` instruction of textual IR.
#[derive(Debug, PartialEq, Eq)]
struct Alloca<'a> {
    /// The result, with its sigil (`%buf`, `%3`, `%"a b"`).
    result: &'a str,
    /// The allocated type.
    ty: &'a str,
    /// The element count's type and value, when one is given (`i64 %n`).
    count: Option<(&'a str, &'a str)>,
}

/// `text` split at its first comma outside brackets: (before, after the comma).
fn split_top_comma(text: &str) -> (&str, Option<&str>) {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => return (&text[..i], Some(&text[i + 1..])),
            _ => {}
        }
    }
    (text, None)
}

/// The `alloca` of an IR line, if it is one this pass zeroes (plain allocas in the default
/// address space; `inalloca` and `swifterror` ones are left alone).
fn alloca(line: &str) -> Option<Alloca<'_>> {
    let (result, rest) = line.trim_start().split_once(" = alloca ")?;
    if !result.starts_with('%') || rest.starts_with("inalloca ") || rest.starts_with("swifterror ")
    {
        return None;
    }
    let (ty, after) = split_top_comma(rest);
    let mut count = None;
    if let Some(after) = after {
        let (operand, _) = split_top_comma(after);
        let operand = operand.trim();
        if operand.starts_with("addrspace") {
            return None;
        }
        if !operand.starts_with("align") && !operand.starts_with('!') {
            count = Some(operand.split_once(' ')?);
        }
    }
    Some(Alloca {
        result,
        ty: ty.trim(),
        count,
    })
}

/// The memset intrinsic and its declaration, for typed (LLVM 14) or opaque pointers.
fn memset(opaque: bool) -> (&'static str, &'static str) {
    if opaque {
        (
            "@llvm.memset.p0.i64",
            "declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)",
        )
    } else {
        (
            "@llvm.memset.p0i8.i64",
            "declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg)",
        )
    }
}

/// The instructions that zero `a` (the `n`th alloca zeroed in the module).
fn zeroing(a: &Alloca, n: usize, opaque: bool) -> String {
    let v = format!("%{PREFIX}{n}");
    let ptr = if opaque {
        "ptr".to_string()
    } else {
        format!("{}*", a.ty)
    };
    let mut s = String::new();
    let count = match a.count {
        None => "1".to_string(),
        Some(("i64", value)) => value.to_string(),
        Some((ty, value)) => {
            s += &format!("  {v}.n = zext {ty} {value} to i64\n");
            format!("{v}.n")
        }
    };
    s += &format!(
        "  {v}.end = getelementptr {}, {ptr} null, i64 {count}\n",
        a.ty
    );
    s += &format!("  {v}.size = ptrtoint {ptr} {v}.end to i64\n");
    let (name, _) = memset(opaque);
    if opaque {
        s += &format!(
            "  call void {name}(ptr {}, i8 0, i64 {v}.size, i1 false)\n",
            a.result
        );
    } else {
        s += &format!("  {v}.p = bitcast {ptr} {} to i8*\n", a.result);
        s += &format!("  call void {name}(i8* {v}.p, i8 0, i64 {v}.size, i1 false)\n");
    }
    s
}

/// `ir` (one module's textual IR, written by this build's LLVM) with every `alloca`
/// zeroed after the run of allocas it belongs to.
pub fn zeroed_stack(ir: &str) -> String {
    with_zeroed_stack(ir, augur_ir::llvm::LLVM_VERSION >= 15)
}

/// [`zeroed_stack`] of IR whose pointers are `ptr` (`opaque`) or typed.
fn with_zeroed_stack(ir: &str, opaque: bool) -> String {
    let mut out = String::with_capacity(ir.len() * 2);
    let mut pending: Vec<Alloca> = Vec::new();
    let mut zeroed = 0;
    for line in ir.lines() {
        if let Some(a) = alloca(line) {
            out.push_str(line);
            out.push('\n');
            pending.push(a);
            continue;
        }
        for a in pending.drain(..) {
            out += &zeroing(&a, zeroed, opaque);
            zeroed += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    let (name, declaration) = memset(opaque);
    if zeroed > 0 && !ir.contains(&format!("declare void {name}(")) {
        out.push_str(declaration);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocas_are_read_with_their_type_and_count() {
        assert_eq!(
            alloca("  %buf = alloca [4 x i8], align 1"),
            Some(Alloca {
                result: "%buf",
                ty: "[4 x i8]",
                count: None
            })
        );
        assert_eq!(
            alloca("  %vla = alloca i32, i64 %2, align 16"),
            Some(Alloca {
                result: "%vla",
                ty: "i32",
                count: Some(("i64", "%2"))
            })
        );
        assert_eq!(
            alloca("  %p = alloca { i32, <{ i8, i16 }> }, align 4, !dbg !7"),
            Some(Alloca {
                result: "%p",
                ty: "{ i32, <{ i8, i16 }> }",
                count: None
            })
        );
        assert_eq!(alloca("  %x = alloca i32, addrspace(5)"), None);
        assert_eq!(alloca("  %x = load i32, i32* %y, align 4"), None);
    }

    #[test]
    fn a_run_of_allocas_is_zeroed_after_its_last_and_the_intrinsic_declared_once() {
        let ir = "define i32 @f(i32 %n) {\nentry:\n  %a = alloca i32, align 4\n  \
                  %v = alloca i8, i32 %n, align 1\n  store i32 1, i32* %a, align 4\n  \
                  ret i32 0\n}\n";
        let out = with_zeroed_stack(ir, false);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[3], "  %v = alloca i8, i32 %n, align 1");
        assert_eq!(
            lines[4],
            "  %augur.zero0.end = getelementptr i32, i32* null, i64 1"
        );
        assert!(out.contains("  %augur.zero1.n = zext i32 %n to i64\n"));
        assert!(out.contains(
            "  call void @llvm.memset.p0i8.i64(i8* %augur.zero1.p, i8 0, i64 %augur.zero1.size, i1 false)\n  store i32 1"
        ));
        assert_eq!(
            out.matches("declare void @llvm.memset.p0i8.i64(").count(),
            1
        );
        let opaque = with_zeroed_stack(&ir.replace("i32*", "ptr"), true);
        assert!(
            opaque.contains("call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 %augur.zero0.size")
        );
        assert!(opaque.contains("declare void @llvm.memset.p0.i64(ptr"));
    }

    #[test]
    fn a_module_without_allocas_is_unchanged() {
        let ir = "define i32 @f() {\n  ret i32 0\n}\n";
        assert_eq!(with_zeroed_stack(ir, false), ir);
    }
}
