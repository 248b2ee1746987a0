//! The sanitizer reports of a native run, each by the place it names and what it says
//! (UBSan's `runtime error:` lines, MemorySanitizer's and AddressSanitizer's reports),
//! so that the reports a buggy program makes can be told from those its original makes
//! on the same input: the original's own undefined behaviour (gnulib's `buffer + 0` with
//! a null buffer, say) is not the bug's.

use std::fmt;

/// One report: the file (its name, without directories: the buggy and the original
/// program are built in different places) and line it names, and what it says (its
/// addresses left out: they differ from one build to another).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Report {
    /// The file's name, or empty when the report names no place.
    pub file: String,
    /// The line, 0 when it names none.
    pub line: u32,
    /// What it says: `UBSan: MESSAGE`, `MemorySanitizer: KIND`, `AddressSanitizer: KIND`.
    pub what: String,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.what),
            line => write!(f, "{} at {}:{line}", self.what, self.file),
        }
    }
}

/// `PATH:LINE[:COL]` as a file name and a line (0 when it is no such place).
fn place(text: &str) -> (String, u32) {
    let mut parts = text.trim().trim_end_matches(':').rsplitn(3, ':');
    let (last, middle, first) = (parts.next(), parts.next(), parts.next());
    let (path, line) = match (first, middle, last) {
        (Some(p), Some(l), Some(_)) => (p, l),
        (None, Some(p), Some(l)) => (p, l),
        _ => return (String::new(), 0),
    };
    match line.parse() {
        Ok(line) => (file_name(path), line),
        Err(_) => (String::new(), 0),
    }
}

/// The last component of `path`.
fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_string()
}

/// `text` with every hexadecimal number (an address) as `0x`.
fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i + 2]);
        rest = rest[i + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// The first stack frame's place after line `at` of `lines` (`#0 0x... in FUNC PATH:LINE:COL`).
fn first_frame(lines: &[&str], at: usize) -> (String, u32) {
    lines[at + 1..]
        .iter()
        .find_map(|l| {
            let l = l.trim_start();
            l.starts_with("#0 ")
                .then(|| l.rsplit(' ').next().map(place))
                .flatten()
        })
        .unwrap_or_default()
}

/// Every report in a run's standard error, in order.
pub fn reports(stderr: &[u8]) -> Vec<Report> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if let Some(i) = line.find("runtime error: ") {
            let (file, line_no) = place(&line[..i]);
            out.push(Report {
                file,
                line: line_no,
                what: format!(
                    "UBSan: {}",
                    without_addresses(&line[i + "runtime error: ".len()..])
                ),
            });
        }
        for (marker, tool) in [
            ("WARNING: MemorySanitizer: ", "MemorySanitizer"),
            ("ERROR: AddressSanitizer: ", "AddressSanitizer"),
        ] {
            if let Some(i) = line.find(marker) {
                // (`heap-buffer-overflow on address ...`, `attempting double-free on ...`)
                let rest = &line[i + marker.len()..];
                let kind = rest
                    .split(" on ")
                    .next()
                    .unwrap_or(rest)
                    .trim()
                    .trim_end_matches(':');
                let (file, line_no) = first_frame(&lines, at);
                out.push(Report {
                    file,
                    line: line_no,
                    what: format!("{tool}: {kind}"),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sanitizer_s_report_is_read_with_its_place() {
        let stderr = b"lib/linebuffer.c:65:23: runtime error: applying zero offset to null pointer
SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior lib/linebuffer.c:65:23 in
t.c:10:7: runtime error: load of misaligned address 0x602000000011 for type 'int'
==27027==WARNING: MemorySanitizer: use-of-uninitialized-value
    #0 0x55ba0ceb644c in main /tmp/ub/m.c:6:7
    #1 0x55ba0ceb6000 in start /tmp/ub/s.c:1:1

SUMMARY: MemorySanitizer: use-of-uninitialized-value /tmp/ub/m.c:6:7 in main
==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602 at pc 0x4 bp 0x5
    #0 0x4 in f /src/a.c:3:9
==2==ERROR: AddressSanitizer: attempting double-free on 0x603 in thread T0:
    #0 0x5 in g /src/b.c:7:2
";
        let got: Vec<String> = reports(stderr).iter().map(|r| r.to_string()).collect();
        assert_eq!(
            got,
            [
                "UBSan: applying zero offset to null pointer at linebuffer.c:65",
                "UBSan: load of misaligned address 0x for type 'int' at t.c:10",
                "MemorySanitizer: use-of-uninitialized-value at m.c:6",
                "AddressSanitizer: heap-buffer-overflow at a.c:3",
                "AddressSanitizer: attempting double-free at b.c:7",
            ]
        );
    }

    #[test]
    fn a_report_naming_no_place_is_read_as_such() {
        let got = reports(b"<unknown>: runtime error: x\nno report here\n");
        assert_eq!(
            got,
            [Report {
                file: String::new(),
                line: 0,
                what: "UBSan: x".into()
            }]
        );
    }
}
