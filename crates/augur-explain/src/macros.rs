//! Object- and function-like macros of the user's sources, read from their `#define`
//! lines (the user's files and the headers they include with `#include "..."`): which
//! macros a source line expands (the names on it, and through their bodies the names
//! those use), and where each is defined. Debug information does not know macros, so
//! a constant that differs because a `#define` changed is traced back to the
//! `#define` line this way.

use crate::SrcLine;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::Path;

/// One macro definition.
#[derive(Clone, Debug)]
pub struct Define {
    /// Its `#define` line.
    pub at: SrcLine,
    /// Its parameters and body, whitespace normalised.
    pub body: String,
}

/// The macros of one program, by name (the first definition of a name).
#[derive(Default, Debug)]
pub struct Macros {
    defs: FxHashMap<String, Define>,
}

/// The identifiers of a line of C, outside string and character literals and comments.
fn identifiers(text: &str) -> Vec<&str> {
    let code = text.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut start: Option<usize> = None;
    let mut prev = ' ';
    for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
        if let Some(q) = quote {
            if c == q && prev != '\\' {
                quote = None;
            }
            prev = if prev == '\\' { ' ' } else { c };
            continue;
        }
        let word = c.is_ascii_alphanumeric() || c == '_';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if !code.as_bytes()[s].is_ascii_digit() {
                    out.push(&code[s..i]);
                }
                start = None;
            }
            _ => {}
        }
        if c == '"' || c == '\'' {
            quote = Some(c);
        }
        prev = c;
    }
    out
}

/// `NAME` and the rest of a `#define NAME rest` line.
fn define_line(text: &str) -> Option<(&str, &str)> {
    let rest = text.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| (&rest[..end], &rest[end..]))
}

/// The file a `#include "name"` line of `file` names, if any.
fn local_include(file: &str, text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix('#')?.trim_start();
    let name = rest.strip_prefix("include")?.trim().strip_prefix('"')?;
    let name = &name[..name.find('"')?];
    let dir = Path::new(file).parent()?;
    Some(dir.join(name).display().to_string())
}

impl Macros {
    /// The macros defined in `files` (whose text `text` gives) and in the headers they
    /// include by quoted name.
    pub fn scan(files: &[String], mut text: impl FnMut(&str) -> Vec<String>) -> Macros {
        let mut m = Macros::default();
        let mut seen = FxHashSet::default();
        let mut todo: Vec<String> = files.to_vec();
        while let Some(file) = todo.pop() {
            if !seen.insert(file.clone()) {
                continue;
            }
            for (k, line) in text(&file).iter().enumerate() {
                todo.extend(local_include(&file, line));
                let Some((name, rest)) = define_line(line) else {
                    continue;
                };
                let body = rest
                    .split("/*")
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                m.defs.entry(name.to_string()).or_insert(Define {
                    at: SrcLine {
                        file: file.clone(),
                        line: k as u32 + 1,
                    },
                    body,
                });
            }
        }
        m
    }

    /// The definition of `name`.
    pub fn get(&self, name: &str) -> Option<&Define> {
        self.defs.get(name)
    }

    /// The macros a line reading `text` expands, directly or through macro bodies.
    pub fn used(&self, text: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let mut todo: Vec<&str> = identifiers(text);
        while let Some(name) = todo.pop() {
            let Some((key, d)) = self.defs.get_key_value(name) else {
                continue;
            };
            if !out.contains(&key.as_str()) {
                out.push(key);
                todo.extend(identifiers(&d.body));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_used_through_bodies() {
        let src = "#define LIMIT 500\n#define TWICE(x) ((x) * 2)\n#define MAX TWICE(LIMIT) /* c */\nint a = MAX + 1; // LIMIT\n";
        let m = Macros::scan(&["f.c".to_string()], |_| {
            src.lines().map(str::to_string).collect()
        });
        let mut used = m.used("int a = MAX + 1; // LIMIT \"TWICE\"");
        used.sort();
        assert_eq!(used, vec!["LIMIT", "MAX", "TWICE"]);
        assert_eq!(m.get("MAX").unwrap().body, "TWICE(LIMIT)");
        assert_eq!(m.get("TWICE").unwrap().at.line, 2);
        assert!(m.used("char *s = \"LIMIT\";").is_empty());
    }
}
