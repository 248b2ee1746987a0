//! Embedding ETSs into the C source. Injected code goes at the start of a recorded line,
//! on that same line (so no other line moves), as one block marked by a comment:
//! each transition is a branch-free update of the bug's own global state variable,
//! `if (++augur_bugN_visitK == V) augur_bugN += (augur_bugN == k) & (PRED);`, made only
//! on the visit V of its line that synthesis read the predicate's values at (a counter
//! per transition counts the visits: its test is no branch on the input, as a path fixes
//! how often it visits a line; the predicate is evaluated on that visit only, where the
//! bytes it reads, such as a string's, are those synthesis saw, and not on a later visit
//! where a string byte's guard would read memory the program never wrote), and the last
//! point also holds the bug action, run
//! when the state is final. A line visited more than once (a loop's body) may hold
//! several transitions of one bug, each on a visit of its own. The state variable and
//! the counters are defined at the end of the file holding the last point. Before synthesis, a probe compile (clang `-fsyntax-only`
//! with `(void)(v);` at every candidate line) tells which lines take a statement and
//! which variables are in scope there.

use crate::predicate::Pred;
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};

/// The bug action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An assertion failure.
    Assert,
    /// A write past the end of a global array.
    OobWrite,
    /// A write through a null pointer.
    NullDeref,
    /// A write into freed heap memory.
    UseAfterFree,
    /// An integer division by zero.
    DivZero,
}

impl Kind {
    /// Parse a `--kind` value.
    pub fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "assert" => Kind::Assert,
            "oob-write" => Kind::OobWrite,
            "null-deref" => Kind::NullDeref,
            "use-after-free" => Kind::UseAfterFree,
            "div-zero" => Kind::DivZero,
            _ => return None,
        })
    }

    /// The `--kind` spelling.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Assert => "assert",
            Kind::OobWrite => "oob-write",
            Kind::NullDeref => "null-deref",
            Kind::UseAfterFree => "use-after-free",
            Kind::DivZero => "div-zero",
        }
    }

    /// The error kind augur (and replay's judge) reports for it.
    pub fn error(self) -> &'static str {
        match self {
            Kind::Assert => "assertion",
            Kind::OobWrite => "out-of-bounds",
            Kind::NullDeref => "null-dereference",
            Kind::UseAfterFree => "use-after-free",
            Kind::DivZero => "division-by-zero",
        }
    }

    /// The C statements of the action of bug `id`.
    fn action(self, id: usize) -> String {
        match self {
            Kind::Assert => format!(
                "extern void __assert_fail(const char *, const char *, unsigned int, const char *); \
                 __assert_fail(\"augur-inject bug {id}\", __FILE__, __LINE__, __func__);"
            ),
            Kind::OobWrite => format!(
                "extern char augur_bug{id}_buf[4]; volatile int augur_i = 8; augur_bug{id}_buf[augur_i] = 1;"
            ),
            Kind::NullDeref => "int *volatile augur_p = 0; *augur_p = 1;".to_string(),
            Kind::UseAfterFree => "extern void *malloc(unsigned long); extern void free(void *); \
                 char *volatile augur_p = malloc(8); free(augur_p); augur_p[0] = 1;"
                .to_string(),
            Kind::DivZero => format!(
                "volatile int augur_z = 0; augur_bug{id} = augur_bug{id} / augur_z;"
            ),
        }
    }

    /// Definitions the action needs at file scope.
    fn definitions(self, id: usize) -> String {
        match self {
            Kind::OobWrite => format!("char augur_bug{id}_buf[4];\n"),
            _ => String::new(),
        }
    }
}

/// A transition point of a bug, in a source file.
#[derive(Clone, Debug)]
pub struct Site {
    /// Index of the file in the program's sources.
    pub source: usize,
    /// 1-based line.
    pub line: u32,
    /// Which visit of the line (1 = the first) makes the transition.
    pub instance: u32,
    /// The transition predicate.
    pub pred: Pred,
}

/// A bug to embed: its points in path order (the last one holds the action).
#[derive(Clone, Debug)]
pub struct BugPlan {
    /// Its number (names its state variable `augur_bugN`).
    pub id: usize,
    /// Transition points in order.
    pub sites: Vec<Site>,
    /// The action.
    pub kind: Kind,
}

/// The name of the `augur_output` object by which a measuring build's bug says it
/// reached its final state (its bytes: the bug's number, a native `int`).
pub const MARK: &str = "augur-mark";

/// What a bug does when its state is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// Its kind's failure.
    Fail,
    /// Report its number through the replay runtime's `augur_output` and go on, so
    /// that one run of a measuring build tells every bug it fires (declared weak: a
    /// project's native `augur cc` build links without the runtime).
    Mark,
}

/// The C statements of `bug`'s action.
fn action(bug: &BugPlan, a: Action) -> String {
    match a {
        Action::Fail => bug.kind.action(bug.id),
        Action::Mark => format!(
            "extern void augur_output(const char *, const void *, unsigned long) __attribute__((weak)); \
             static const int augur_mark = {}; augur_output(\"{MARK}\", &augur_mark, sizeof augur_mark);",
            bug.id
        ),
    }
}

/// The code injected at the start of site `k` of `bug`.
fn transition(bug: &BugPlan, k: usize, a: Action) -> String {
    let id = bug.id;
    let site = &bug.sites[k];
    let mut code = format!(
        "/* augur-inject bug {id}: transition {} */ {{ extern int augur_bug{id}; extern unsigned {visits}; \
         if (++{visits} == {}u) augur_bug{id} += (augur_bug{id} == {k}) & {};",
        k + 1,
        site.instance,
        site.pred.c(),
        visits = visit_counter(id, k),
    );
    if k + 1 == bug.sites.len() {
        code.push_str(&format!(
            " if (augur_bug{id} == {}) {{ {} }}",
            bug.sites.len(),
            action(bug, a)
        ));
    }
    code.push_str(" } ");
    code
}

/// The name of the global counting the visits of transition `k`'s line of bug `id`.
fn visit_counter(id: usize, k: usize) -> String {
    format!("augur_bug{id}_visit{}", k + 1)
}

/// The sources with `bugs` embedded (same order as `sources`).
pub fn embed(sources: &[String], bugs: &[BugPlan]) -> Vec<String> {
    embed_with(sources, bugs, Action::Fail)
}

/// The sources with `bugs` embedded for measuring: each bug, on reaching its final
/// state, outputs its number as [`MARK`] instead of failing, so one run tells every bug
/// it would fire.
pub fn embed_marked(sources: &[String], bugs: &[BugPlan]) -> Vec<String> {
    embed_with(sources, bugs, Action::Mark)
}

/// The sources with `bugs` embedded, each doing `a` when its state is final.
fn embed_with(sources: &[String], bugs: &[BugPlan], a: Action) -> Vec<String> {
    let mut prefixes: FxHashMap<(usize, u32), String> = FxHashMap::default();
    let mut tails: Vec<String> = vec![String::new(); sources.len()];
    for bug in bugs {
        // Backwards: where a line holds two transitions of one bug, the later one's
        // code comes first, so one visit makes one transition at most.
        for k in (0..bug.sites.len()).rev() {
            let s = &bug.sites[k];
            prefixes
                .entry((s.source, s.line))
                .or_default()
                .push_str(&transition(bug, k, a));
        }
        let last = bug.sites.last().expect("a bug has a point").source;
        let definitions = match a {
            Action::Fail => bug.kind.definitions(bug.id),
            Action::Mark => String::new(),
        };
        let counters: String = (0..bug.sites.len())
            .map(|k| format!("unsigned {};\n", visit_counter(bug.id, k)))
            .collect();
        tails[last].push_str(&format!(
            "/* augur-inject bug {id}: ETS state */\nint augur_bug{id};\n{counters}{definitions}",
            id = bug.id
        ));
    }
    sources
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut out = String::with_capacity(text.len() + 256);
            for (n, line) in text.split_inclusive('\n').enumerate() {
                if let Some(p) = prefixes.get(&(i, n as u32 + 1)) {
                    let indent = line.len() - line.trim_start().len();
                    out.push_str(&line[..indent]);
                    out.push_str(p);
                    out.push_str(&line[indent..]);
                } else {
                    out.push_str(line);
                }
            }
            if !tails[i].is_empty() {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str(&tails[i]);
            }
            out
        })
        .collect()
}

/// Does line `line` (1-based) of `text` look like the start of a statement inside a
/// function body? (Its previous non-blank line ends a statement or opens or closes a
/// block, and it is not a label, `else`, brace or preprocessor line.) The probe compile
/// settles the rest.
pub fn starts_statement(text: &str, line: u32) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let Some(this) = lines.get(line as usize - 1).map(|l| l.trim()) else {
        return false;
    };
    let bad_start = ["}", "{", "else", "case", "default", "#", "//", "/*", "*"];
    if this.is_empty() || bad_start.iter().any(|b| this.starts_with(b)) {
        return false;
    }
    let prev = lines[..line as usize - 1]
        .iter()
        .map(|l| l.trim())
        .rfind(|l| !l.is_empty());
    match prev {
        Some(p) => {
            p.ends_with(';')
                || p.ends_with('{')
                || p.ends_with('}')
                || ((p.starts_with("case") || p.starts_with("default")) && p.ends_with(':'))
        }
        None => false,
    }
}

/// Does the line begin a loop (whose line the engine visits once per iteration, while
/// code before it runs once)?
pub fn is_loop_header(text: &str, line: u32) -> bool {
    let l = text
        .lines()
        .nth(line as usize - 1)
        .unwrap_or("")
        .trim_start();
    ["for", "while", "do"].iter().any(|k| {
        l.strip_prefix(k)
            .is_some_and(|rest| rest.starts_with(['(', ' ', '{']) || rest.is_empty())
    })
}

/// What the probe compile found.
#[derive(Debug, Default)]
pub struct Probe {
    /// Lines that do not take a statement: (source index, line).
    pub bad_lines: FxHashSet<(usize, u32)>,
    /// Variables not in scope at a line: (source index, line, name).
    pub out_of_scope: FxHashSet<(usize, u32, String)>,
    /// The variables already asked about at each line (source index, line).
    pub asked: FxHashMap<(usize, u32), FxHashSet<String>>,
}

impl Probe {
    /// What of `wanted` has not been asked yet: the probe compile only needs those, as
    /// the answers for one line and variable do not depend on the other lines asked.
    pub fn unasked(
        &self,
        wanted: &FxHashMap<(usize, u32), Vec<String>>,
    ) -> FxHashMap<(usize, u32), Vec<String>> {
        wanted
            .iter()
            .filter_map(|(at, names)| {
                let known = self.asked.get(at);
                let new: Vec<String> = names
                    .iter()
                    .filter(|n| !known.is_some_and(|k| k.contains(*n)))
                    .cloned()
                    .collect();
                // A line not asked yet is probed even with no variable (does it take a
                // statement?).
                (known.is_none() || !new.is_empty()).then_some((*at, new))
            })
            .collect()
    }

    /// Add the answers of the probe compile `found` of `wanted`.
    pub fn merge(&mut self, wanted: &FxHashMap<(usize, u32), Vec<String>>, found: Probe) {
        self.bad_lines.extend(found.bad_lines);
        self.out_of_scope.extend(found.out_of_scope);
        for (at, names) in wanted {
            self.asked
                .entry(*at)
                .or_default()
                .extend(names.iter().cloned());
        }
    }
}

/// Source `i`'s text with `{ (void)(name); ... }` at the start of every line `wanted`
/// asks about.
pub fn probe_text(i: usize, text: &str, wanted: &FxHashMap<(usize, u32), Vec<String>>) -> String {
    let mut out = String::new();
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if let Some(names) = wanted.get(&(i, n as u32 + 1)) {
            out.push_str("{ ");
            for v in names {
                out.push_str(&format!("(void)({v}); "));
            }
            out.push_str("} ");
        }
        out.push_str(line);
    }
    out
}

/// Add the errors a probe compile reported in `stderr` to `probe`; `files` are the
/// probe copies (source index, path as the compile named it).
pub fn read_probe_errors(stderr: &[u8], files: &[(usize, PathBuf)], probe: &mut Probe) {
    for l in String::from_utf8_lossy(stderr).lines() {
        let Some((i, line, msg)) = parse_error(l, files) else {
            continue;
        };
        match msg
            .strip_prefix("use of undeclared identifier '")
            .and_then(|m| m.strip_suffix('\''))
        {
            Some(name) => {
                probe.out_of_scope.insert((i, line, name.to_string()));
            }
            None => {
                probe.bad_lines.insert((i, line));
            }
        }
    }
}

/// Compile the sources with `(void)(name);` for every candidate (source, line, names).
pub fn probe(
    paths: &[PathBuf],
    sources: &[String],
    wanted: &FxHashMap<(usize, u32), Vec<String>>,
    cflags: &[String],
) -> Result<Probe, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary dir: {e}"))?;
    let mut files = Vec::new();
    for (i, text) in sources.iter().enumerate() {
        let path = dir.path().join(format!("{i}_{}", file_name(&paths[i])));
        std::fs::write(&path, probe_text(i, text, wanted))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        files.push((i, path));
    }
    let runtime =
        augur_env::runtime_dir().map_err(|e| format!("cannot write augur's runtime files: {e}"))?;
    let clang = augur_ir::llvm::clang();
    let o = augur_ir::llvm::clang_command()
        .args(["-fsyntax-only", "-ferror-limit=0", "-w", "-I"])
        .arg(&runtime)
        .args(cflags)
        .args(files.iter().map(|(_, p)| p))
        .output()
        .map_err(|e| augur_ir::llvm::cannot_run(&clang, &e))?;
    let mut probe = Probe::default();
    read_probe_errors(&o.stderr, &files, &mut probe);
    Ok(probe)
}

/// `FILE:LINE:COL: error: MSG` for one of `files`: (file index, line, message).
fn parse_error<'a>(l: &'a str, files: &[(usize, PathBuf)]) -> Option<(usize, u32, &'a str)> {
    let (i, rest) = files.iter().find_map(|(i, f)| {
        l.strip_prefix(f.to_str()?)
            .and_then(|r| r.strip_prefix(':'))
            .map(|r| (*i, r))
    })?;
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let msg = parts
        .next()
        .and(parts.next())?
        .trim_start()
        .strip_prefix("error: ")?;
    Some((i, line, msg))
}

/// The file name of `p`.
pub fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_asks_only_what_earlier_probes_did_not() {
        let ask = |v: &[((usize, u32), &[&str])]| -> FxHashMap<(usize, u32), Vec<String>> {
            v.iter()
                .map(|(at, names)| (*at, names.iter().map(|n| n.to_string()).collect()))
                .collect()
        };
        let mut probe = Probe::default();
        let first = ask(&[((0, 3), &["x", "y"]), ((0, 5), &[])]);
        assert_eq!(probe.unasked(&first), first, "nothing asked yet");
        let mut found = Probe::default();
        found.out_of_scope.insert((0, 3, "y".into()));
        found.bad_lines.insert((0, 5));
        probe.merge(&first, found);
        let second = ask(&[((0, 3), &["x", "z"]), ((0, 5), &[]), ((1, 2), &[])]);
        assert_eq!(
            probe.unasked(&second),
            ask(&[((0, 3), &["z"]), ((1, 2), &[])]),
            "line 5 and x at line 3 are known"
        );
        assert!(probe.out_of_scope.contains(&(0, 3, "y".into())));
        assert!(probe.bad_lines.contains(&(0, 5)));
    }

    #[test]
    fn a_measuring_build_marks_every_bug_and_fails_on_none() {
        use crate::predicate::{Op, Side};
        let mut pool = augur_expr::ExprPool::new();
        let pred = Pred {
            lhs: Side::Var("x".into(), 4),
            op: Op::Gt,
            rhs: Side::Const(1),
            expr: pool.constant(1, 1),
        };
        let bug = |id| BugPlan {
            id,
            sites: vec![Site {
                source: 0,
                line: 2,
                instance: 1,
                pred: pred.clone(),
            }],
            kind: Kind::OobWrite,
        };
        let src = vec!["int f(int x) {\n  return x;\n}\n".to_string()];
        let marked = &embed_marked(&src, &[bug(1), bug(2)])[0];
        for id in [1, 2] {
            assert!(marked.contains(&format!("static const int augur_mark = {id};")));
        }
        assert_eq!(marked.matches("augur_output(\"augur-mark\"").count(), 2);
        assert!(!marked.contains("augur_bug1_buf"), "no failure: {marked}");
        let failing = &embed(&src, &[bug(1)])[0];
        assert!(failing.contains("augur_bug1_buf[augur_i] = 1;") && !failing.contains(MARK));
    }

    /// Whether the program `src`, with `bug` embedded and built natively, fires it on
    /// each of `runs` (its arguments), in order.
    fn fires_natively(src: &str, bug: BugPlan, runs: &[&[&str]]) -> Vec<bool> {
        let dir = tempfile::tempdir().unwrap();
        let (c, exe) = (dir.path().join("prog.c"), dir.path().join("prog"));
        std::fs::write(&c, &embed(&[src.to_string()], &[bug])[0]).unwrap();
        let built = augur_ir::llvm::clang_command()
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(built.status.success(), "{built:?}");
        runs.iter()
            .map(|args| {
                let out = std::process::Command::new(&exe)
                    .args(*args)
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&out.stderr).contains("augur-inject bug 1")
            })
            .collect()
    }

    /// A loop over the arguments whose body (line 4) sees `i` = 1, 2, ... on its
    /// visits 1, 2, ...
    const LOOP: &str = "int main(int argc, char **argv) {\n  int n = 0;\n  for (int i = 1; i < argc; i++) {\n    n += argv[i][0];\n  }\n  return 0;\n}\n";

    /// A transition at the loop body's visit `instance` on `i op c`.
    fn at_body(instance: u32, op: crate::predicate::Op, c: i64) -> Site {
        use crate::predicate::Side;
        let mut pool = augur_expr::ExprPool::new();
        Site {
            source: 0,
            line: 4,
            instance,
            pred: Pred {
                lhs: Side::Var("i".into(), 4),
                op,
                rhs: Side::Const(c),
                expr: pool.constant(1, 1),
            },
        }
    }

    #[test]
    fn one_visit_of_a_line_makes_one_transition_of_a_bug_at_most() {
        use crate::predicate::Op;
        // Both transitions at the loop body's line, on its first and second visits:
        // the bug fires from the loop's second iteration on, not on its first.
        let bug = BugPlan {
            id: 1,
            sites: vec![at_body(1, Op::Ge, 1), at_body(2, Op::Ge, 1)],
            kind: Kind::Assert,
        };
        let got = fires_natively(LOOP, bug, &[&["a"], &["a", "b"], &["a", "b", "c"]]);
        assert_eq!(got, [false, true, true]);
    }

    #[test]
    fn a_transition_is_made_on_its_own_visit_only() {
        use crate::predicate::Op;
        // `i <= 1` holds on the body's first visit only: at the second, never.
        let early = BugPlan {
            id: 1,
            sites: vec![at_body(2, Op::Le, 1)],
            kind: Kind::Assert,
        };
        let got = fires_natively(LOOP, early, &[&["a"], &["a", "b"], &["a", "b", "c"]]);
        assert_eq!(got, [false, false, false]);
        // `i >= 3` at the third visit: three arguments or more.
        let third = BugPlan {
            id: 1,
            sites: vec![at_body(3, Op::Ge, 3)],
            kind: Kind::Assert,
        };
        let got = fires_natively(LOOP, third, &[&["a", "b"], &["a", "b", "c"], &["a"; 4]]);
        assert_eq!(got, [false, true, true]);
    }

    #[test]
    fn a_predicate_is_evaluated_on_its_own_visit_only() {
        use crate::predicate::{Op, Side};
        // `v` divides by zero on the loop body's third visit: the transition on its
        // first visit must not read it there (as a string byte's guard must not read
        // past the bytes a program wrote), so the bug, whose action follows the loop,
        // fires with three arguments.
        let src = "#define v (1 / (3 - i))\nint main(int argc, char **argv) {\n  int n = 0;\n  for (int i = 1; i < argc; i++) {\n    n += argv[i][0];\n  }\n  return n < 0;\n}\n";
        let mut pool = augur_expr::ExprPool::new();
        let mut site = |line, var: &str| Site {
            source: 0,
            line,
            instance: 1,
            pred: Pred {
                lhs: Side::Var(var.into(), 4),
                op: Op::Ge,
                rhs: Side::Const(0),
                expr: pool.constant(1, 1),
            },
        };
        let bug = BugPlan {
            id: 1,
            sites: vec![site(5, "v"), site(7, "n")],
            kind: Kind::Assert,
        };
        assert_eq!(fires_natively(src, bug, &[&["a", "b", "c"]]), [true]);
    }

    #[test]
    fn statement_lines() {
        let src = "int f(int x)\n{\n  int y = x;\n  if (y)\n    y++;\n  else {\n    y--;\n  }\n  return y;\n}\n";
        let ok: Vec<u32> = (1..=10).filter(|l| starts_statement(src, *l)).collect();
        assert_eq!(ok, vec![3, 4, 7, 9]);
    }

    #[test]
    fn loop_headers() {
        let src = "for (;;)\nwhile(1)\nformat(x);\ndo {\n";
        let heads: Vec<u32> = (1..=4).filter(|l| is_loop_header(src, *l)).collect();
        assert_eq!(heads, vec![1, 2, 4]);
    }
}
