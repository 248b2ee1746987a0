//! Crash reports: an ASan/UBSan report, gdb `bt` output, or an augur test JSON, parsed
//! into the error kinds it may stand for and its stack frames (innermost first), then
//! matched to the program's functions by name and file:line. Frames of libc, the
//! sanitizer runtime or anything else outside the program are skipped.

use augur_engine::same_file;
use augur_ir::Program;

/// One frame of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The function.
    pub function: String,
    /// Its source file as the report gives it ("" when unknown).
    pub file: String,
    /// The line (0 when unknown).
    pub line: u32,
}

/// Which tool wrote a report.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// AddressSanitizer or UndefinedBehaviorSanitizer.
    Sanitizer,
    /// gdb's `bt`.
    Gdb,
    /// An augur test JSON.
    AugurJson,
    /// A failed assertion's message alone (a build without sanitizers): the crash's frame
    /// only, the frames calling it unknown.
    Assertion,
}

/// A parsed crash report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its format.
    pub format: Format,
    /// The augur error kinds the crash may be (empty: any error).
    pub kinds: Vec<&'static str>,
    /// What the report says the error is, in its own words.
    pub headline: String,
    /// The stack, innermost first, as reported.
    pub frames: Vec<Frame>,
}

/// The augur kinds an abort (SIGABRT) stands for.
pub const ABORT_KINDS: &[&str] = &["assertion", "abort", "reach-error"];

/// A failed `assert`'s message (glibc: `PROG: FILE:LINE: FUNC: Assertion `COND' failed.`,
/// where FUNC is the function's signature; musl: `Assertion failed: COND (FILE: FUNC:
/// LINE)`): the frame it names.
fn assertion_frame(text: &str) -> Option<Frame> {
    text.lines().find_map(|l| {
        if let Some(head) = l.strip_suffix("' failed.") {
            let head = &head[..head.find(": Assertion `")?];
            // PROG: FILE:LINE: FUNC
            let mut parts = head.splitn(3, ": ");
            let (site, signature) = (parts.nth(1)?, parts.next()?);
            let (file, line) = site.rsplit_once(':')?;
            let before_params = signature.split('(').next()?;
            let function = before_params.rsplit([' ', '*']).next()?;
            return Some(Frame {
                function: function.to_string(),
                file: file.to_string(),
                line: line.parse().ok()?,
            });
        }
        let rest = l.strip_prefix("Assertion failed: ")?;
        let inside = rest[rest.rfind(" (")? + 2..].strip_suffix(')')?;
        let mut parts = inside.split(": ");
        let (file, function, line) = (parts.next()?, parts.next()?, parts.next()?);
        Some(Frame {
            function: function.to_string(),
            file: file.to_string(),
            line: line.parse().ok()?,
        })
    })
}

/// The file and line a failed `assert`'s message in `text` names, if there is one.
pub fn assertion_site(text: &str) -> Option<(String, u32)> {
    assertion_frame(text).map(|f| (f.file, f.line))
}

/// The augur kinds an ASan error name stands for.
fn asan_kinds(what: &str, line: &str) -> Vec<&'static str> {
    if what.contains("use-after-free") {
        vec!["use-after-free"]
    } else if what.contains("double-free") {
        vec!["double-free"]
    } else if what.contains("free on address") || what.contains("bad-free") {
        vec!["invalid-free"]
    } else if what.starts_with("SEGV") {
        // A SEGV at a small address is a null dereference.
        let null = line
            .split("address ")
            .nth(1)
            .and_then(|a| {
                u64::from_str_radix(a.trim_start_matches("0x").split(' ').next()?, 16).ok()
            })
            .is_some_and(|a| a < 4096);
        if null {
            vec!["null-dereference"]
        } else {
            vec!["out-of-bounds", "null-dereference"]
        }
    } else if what.starts_with("ABRT") {
        ABORT_KINDS.to_vec()
    } else if what.starts_with("FPE") {
        vec!["division-by-zero"]
    } else if what.contains("overflow") || what.contains("underflow") {
        vec!["out-of-bounds"]
    } else {
        Vec::new()
    }
}

/// The augur kinds a UBSan `runtime error:` message stands for.
fn ubsan_kinds(msg: &str) -> Vec<&'static str> {
    if msg.contains("out of bounds") {
        vec!["out-of-bounds"]
    } else if msg.contains("division by zero") {
        vec!["division-by-zero"]
    } else if msg.contains("null pointer") {
        vec!["null-dereference"]
    } else if msg.contains("unreachable") {
        vec!["unreachable"]
    } else {
        Vec::new()
    }
}

/// The augur kinds a fatal signal stands for.
fn signal_kinds(sig: &str) -> Vec<&'static str> {
    match sig {
        "SIGSEGV" | "SIGBUS" => vec!["out-of-bounds", "null-dereference", "use-after-free"],
        "SIGFPE" => vec!["division-by-zero"],
        "SIGABRT" => ABORT_KINDS.to_vec(),
        _ => Vec::new(),
    }
}

/// `FILE:LINE[:COL]` split, if it is one.
fn file_line(s: &str) -> Option<(String, u32)> {
    let mut parts = s.rsplitn(3, ':');
    let last = parts.next()?;
    let mid = parts.next()?;
    match (mid.parse::<u32>(), last.parse::<u32>(), parts.next()) {
        (Ok(line), Ok(_col), Some(file)) => Some((file.to_string(), line)),
        _ => last.parse().ok().map(|line| {
            let file = s[..s.len() - last.len() - 1].to_string();
            (file, line)
        }),
    }
}

/// A sanitizer frame: `#N 0xADDR in FUNC FILE:LINE:COL` (or `(module+0x...)`).
fn sanitizer_frame(line: &str) -> Option<Frame> {
    let rest = line.trim_start().strip_prefix('#')?;
    let (_, rest) = rest.split_once(" in ")?;
    let (function, loc) = rest.split_once(' ').unwrap_or((rest, ""));
    let (file, line) = file_line(loc.trim()).unwrap_or_default();
    Some(Frame {
        function: function.to_string(),
        file,
        line,
    })
}

/// A gdb frame: `#N  [0xADDR in ]FUNC (ARGS) at FILE:LINE` (or `from LIB`).
fn gdb_frame(line: &str) -> Option<Frame> {
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    let rest = match rest.split_once(" in ") {
        Some((addr, r)) if addr.starts_with("0x") => r,
        _ => rest,
    };
    let function = rest.split([' ', '(']).next()?.to_string();
    let (file, line) = rest
        .rsplit_once(" at ")
        .and_then(|(_, l)| file_line(l.trim()))
        .unwrap_or_default();
    Some(Frame {
        function,
        file,
        line,
    })
}

fn parse_json(text: &str) -> Result<Report, String> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a test JSON: {e}"))?;
    let outcome = &json["outcome"];
    let kind = outcome["error"]
        .as_str()
        .ok_or("the test JSON has no error outcome (outcome.error)")?;
    let frames = outcome["stack"]
        .as_array()
        .ok_or("the test JSON has no stack (outcome.stack)")?
        .iter()
        .map(|f| Frame {
            function: f["function"].as_str().unwrap_or_default().to_string(),
            file: f["file"].as_str().unwrap_or_default().to_string(),
            line: f["line"].as_u64().unwrap_or(0) as u32,
        })
        .collect();
    let known = [
        "assertion",
        "abort",
        "reach-error",
        "null-dereference",
        "out-of-bounds",
        "use-after-free",
        "double-free",
        "invalid-free",
        "division-by-zero",
        "unreachable",
        "bad-function-pointer",
    ];
    Ok(Report {
        format: Format::AugurJson,
        kinds: known.iter().copied().filter(|k| *k == kind).collect(),
        headline: kind.to_string(),
        frames,
    })
}

/// Parse a report's text.
pub fn parse(text: &str) -> Result<Report, String> {
    if text.trim_start().starts_with('{') {
        return parse_json(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut kinds = Vec::new();
    let mut headline = String::new();
    let mut format = None;
    for l in &lines {
        if let Some(i) = l.find("ERROR: AddressSanitizer: ") {
            let what = &l[i + "ERROR: AddressSanitizer: ".len()..];
            kinds = asan_kinds(what, l);
            headline = format!(
                "AddressSanitizer: {}",
                what.split(" on ").next().unwrap_or(what)
            );
            format = Some(Format::Sanitizer);
            break;
        }
        if let Some(i) = l.find("runtime error: ") {
            let msg = &l[i + "runtime error: ".len()..];
            kinds = ubsan_kinds(msg);
            headline = format!("UBSan: {msg}");
            format = Some(Format::Sanitizer);
            break;
        }
        if let Some(i) = l.find("received signal ") {
            let sig = l[i + "received signal ".len()..]
                .split([',', ' '])
                .next()
                .unwrap_or("");
            kinds = signal_kinds(sig);
            headline = sig.to_string();
            format = Some(Format::Gdb);
            break;
        }
    }
    // An abort after a failed assertion's message is that assertion.
    if kinds == ABORT_KINDS && assertion_site(text).is_some() {
        kinds = vec!["assertion"];
    }
    // Without a headline, gdb frames show their arguments: `f (x=1) at prog.c:3`.
    let format = format.unwrap_or_else(|| {
        let first = lines.iter().find(|l| l.trim_start().starts_with("#0 "));
        if first.is_some_and(|l| l.contains(") at ") || l.contains(") from ")) {
            Format::Gdb
        } else {
            Format::Sanitizer
        }
    });
    // The first stack only (ASan follows it with allocation and free stacks).
    let mut frames = Vec::new();
    for l in lines
        .iter()
        .skip_while(|l| !l.trim_start().starts_with("#0 "))
    {
        if !l.trim_start().starts_with('#') {
            if format == Format::Sanitizer {
                break;
            }
            continue;
        }
        let f = match format {
            Format::Sanitizer => sanitizer_frame(l),
            _ => gdb_frame(l),
        };
        frames.extend(f);
    }
    if frames.is_empty() {
        return match assertion_frame(text) {
            Some(frame) => Ok(Report {
                format: Format::Assertion,
                kinds: vec!["assertion"],
                headline: format!("assertion failed at {}:{}", frame.file, frame.line),
                frames: vec![frame],
            }),
            None => Err("no stack frames in it (an ASan/UBSan report, gdb `bt` output, an augur test JSON or a failed assertion's message)".into()),
        };
    }
    Ok(Report {
        format,
        kinds,
        headline,
        frames,
    })
}

impl Report {
    /// Do a crash's frames of the program (function and line, innermost first) match the
    /// report's `frames`: all of them, or, when the report shows only the innermost
    /// ones (a failed assertion's message), those?
    pub fn frames_match(&self, got: &[(String, u32)], frames: &[Matched]) -> bool {
        let want: Vec<(String, u32)> = frames
            .iter()
            .map(|f| (f.function.clone(), f.line))
            .collect();
        match self.format {
            Format::Assertion => got.starts_with(&want),
            _ => got == want,
        }
    }
}

/// Does a report's `file` name the program's file `path`? The same path, one ending with
/// the other, or the same file name (a binary built in another directory).
pub fn names_file(path: &str, file: &str) -> bool {
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    same_file(path, file) || name(path) == name(file)
}

/// A frame matched to the program: the user's function, and a line it has code on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matched {
    /// The function's name.
    pub function: String,
    /// The program's path of the file.
    pub file: String,
    /// The line.
    pub line: u32,
}

/// The report's frames that are the program's, innermost first: the function is one the
/// user's code defines and has code at the frame's file (by path or file name) and line. Consecutive frames of
/// the same function and line (a recording wrapper's, or recursion at one call site) are
/// kept once. A recorded function's own code (`__augur_real_F` in a recorded build's
/// report) is the program's `F`; its wrapper's frame has no line and is skipped.
pub fn match_frames(report: &Report, prog: &Program) -> Vec<Matched> {
    let mut out: Vec<Matched> = Vec::new();
    for fr in &report.frames {
        let name = fr
            .function
            .strip_prefix(crate::build::REAL_PREFIX)
            .unwrap_or(&fr.function);
        let Some(id) = prog.func_named(name) else {
            continue;
        };
        if !crate::hard::is_user_function(prog, id) || fr.line == 0 {
            continue;
        }
        let f = prog.func(id);
        let file = f.locs.iter().find_map(|l| {
            let s = prog.loc(*l)?;
            let path = prog.file(s.file);
            (s.line == fr.line && names_file(path, &fr.file)).then(|| path.to_string())
        });
        let Some(file) = file else {
            continue;
        };
        let m = Matched {
            function: name.to_string(),
            file,
            line: fr.line,
        };
        if out.last() != Some(&m) {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASAN: &str = "=================================================================
==4242==ERROR: AddressSanitizer: global-buffer-overflow on address 0x55d0 at pc 0x1 bp 0x2 sp 0x3
WRITE of size 1 at 0x55d0 thread T0
    #0 0x55ad2c44e0b3 in store /src/prog.c:16:15
    #1 0x55ad2c44e28d in process /src/prog.c:22:5
    #2 0x55ad2c44e30f in main /src/prog.c:27:5
    #3 0x7f8916ff8249 in __libc_start_call_main csu/../sysdeps/nptl/libc_start_call_main.h:58:16
    #4 0x55ad2c390360 in _start (/tmp/rt/checksum+0x22360)

0x55d0 is located 0 bytes to the right of global variable 'table'
    #0 0x1 in other /src/prog.c:3:1
";

    const GDB: &str = "Program received signal SIGSEGV, Segmentation fault.
0x0000555555555189 in store (s=0x7fffffffe3a0 \"kfo\", slot=22) at prog.c:16
16\t  table[slot] = s[0];
#0  0x0000555555555189 in store (s=0x7fffffffe3a0 \"kfo\", slot=22) at prog.c:16
#1  0x00005555555551f0 in process (s=0x7fffffffe3a0 \"kfo\") at prog.c:22
#2  main (argc=2, argv=0x7fffffffe4c8) at prog.c:27
#3  0x00007ffff7dcd249 in __libc_start_call_main () from /lib/x86_64-linux-gnu/libc.so.6
";

    #[test]
    fn asan_report_first_stack() {
        let r = parse(ASAN).unwrap();
        assert_eq!(r.format, Format::Sanitizer);
        assert_eq!(r.kinds, vec!["out-of-bounds"]);
        assert_eq!(r.frames.len(), 5);
        assert_eq!(
            r.frames[1],
            Frame {
                function: "process".into(),
                file: "/src/prog.c".into(),
                line: 22
            }
        );
        assert_eq!(r.frames[4].line, 0);
    }

    #[test]
    fn gdb_backtrace() {
        let r = parse(GDB).unwrap();
        assert_eq!(r.format, Format::Gdb);
        assert!(r.kinds.contains(&"out-of-bounds"));
        let names: Vec<&str> = r.frames.iter().map(|f| f.function.as_str()).collect();
        assert_eq!(
            names,
            ["store", "process", "main", "__libc_start_call_main"]
        );
        assert_eq!(
            (r.frames[2].file.as_str(), r.frames[2].line),
            ("prog.c", 27)
        );
    }

    /// ASan's report of an abort (handle_abort=1), after glibc's assertion message.
    const ABORT: &str = "prog: prog.c:5: int main(int, char **): Assertion `n < 3' failed.
AddressSanitizer:DEADLYSIGNAL
==21980==ERROR: AddressSanitizer: ABRT on unknown address 0x0000000055dc (pc 0x7fc2 bp 0x7fc2 sp 0x7ffd T0)
    #0 0x7fc24bdbaeec in __pthread_kill_implementation nptl/./nptl/pthread_kill.c:44:76
    #1 0x7fc24bd56471 in abort stdlib/./stdlib/abort.c:79:7
    #2 0x7fc24bd64ec1 in __assert_fail assert/./assert/assert.c:103:3
    #3 0x5601c36cd0a8 in main /tmp/prog.c:5:43
";

    #[test]
    fn aborts_and_assertions() {
        let r = parse(ABORT).unwrap();
        assert_eq!(r.kinds, vec!["assertion"]);
        assert_eq!(r.headline, "AddressSanitizer: ABRT");
        assert_eq!(r.frames[3].function, "main");
        let plain = ABORT.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(parse(&plain).unwrap().kinds, ABORT_KINDS);
        assert_eq!(assertion_site(ABORT), Some(("prog.c".into(), 5)));
        assert_eq!(
            assertion_site("Assertion failed: n < 3 (src/prog.c: main: 12)"),
            Some(("src/prog.c".into(), 12))
        );
        assert_eq!(assertion_site("Aborted"), None);
        // The message alone is a report of the crash's frame.
        let alone = parse(ABORT.lines().next().unwrap()).unwrap();
        assert_eq!(alone.format, Format::Assertion);
        assert_eq!(alone.kinds, vec!["assertion"]);
        assert_eq!(
            alone.frames,
            vec![Frame {
                function: "main".into(),
                file: "prog.c".into(),
                line: 5
            }]
        );
        let musl = parse("Assertion failed: n < 3 (src/prog.c: count: 12)").unwrap();
        assert_eq!(musl.frames[0].function, "count");
    }

    #[test]
    fn files_built_elsewhere_match_by_name() {
        assert!(names_file(
            "/work/src/prog.c",
            "/home/user/build/src/prog.c"
        ));
        assert!(names_file("/work/src/prog.c", "src/prog.c"));
        assert!(!names_file("/work/src/prog.c", "/work/src/myprog.c"));
    }

    #[test]
    fn augur_json_and_garbage() {
        let j = r#"{"outcome":{"kind":"error","error":"division-by-zero","file":"a.c","line":3,
            "stack":[{"function":"f","file":"a.c","line":3},{"function":"main","file":"a.c","line":9}]}}"#;
        let r = parse(j).unwrap();
        assert_eq!(r.kinds, vec!["division-by-zero"]);
        assert_eq!(r.frames[1].function, "main");
        assert!(parse("hello\nworld\n")
            .unwrap_err()
            .starts_with("no stack frames"));
        assert!(parse(r#"{"outcome":{"kind":"exit"}}"#).is_err());
    }
}
