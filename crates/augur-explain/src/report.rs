//! The report: unexplained conjuncts with their source lines (and a few lines of context),
//! the figures the paper tabulates; as text, JSON (`report.json`) and SARIF 2.1.0
//! (`report.sarif`).

use crate::compare::Unexplained;
use crate::difference::Difference;
use crate::rank::Ranked;
use crate::{SrcLine, Which};
use augur_engine::Outcome;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Lines of context shown on each side of a reported line.
const CONTEXT: u32 = 2;

/// Conjuncts shown per group of conjuncts from the same lines.
const GROUP_SHOWN: usize = 4;

/// Sizes and costs, per program as (golden, buggy).
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Did the two runs behave the same (output and outcome)?
    pub same_behaviour: bool,
    /// Instructions executed.
    pub trace_len: (usize, usize),
    /// Instructions in the backward dynamic slice.
    pub slice_size: (usize, usize),
    /// Distinct weakest-precondition conjuncts.
    pub conjuncts: (usize, usize),
    /// Conjuncts left after dropping tautologies.
    pub kept: (usize, usize),
    /// Solver queries of the comparison.
    pub queries: u64,
    /// Of those, queries the solver could not decide in time.
    pub undecided: u64,
    /// Wall-clock seconds of the whole command.
    pub time_s: f64,
    /// Peak resident memory in MiB.
    pub peak_memory_mib: u64,
}

/// What `augur explain` found.
pub struct Report {
    /// The figures.
    pub figures: Figures,
    /// What each run showed at its criterion (golden, buggy); None when the runs behave
    /// the same and no criterion was named.
    pub observed: Option<(String, String)>,
    /// How the runs' observable behaviour differs (None when it does not).
    pub difference: Option<Difference>,
    /// For identical behaviour: what both runs did.
    pub same_summary: Option<String>,
    /// The findings: conjuncts left unexplained and places where values part, those
    /// naming the lead lines first.
    pub unexplained: Vec<Unexplained>,
    /// The lines the report leads with and the rest of the evidence.
    pub ranked: Ranked,
}

/// Source lines as `[{"file", "line"}]`.
fn lines_json<'a>(lines: impl IntoIterator<Item = &'a SrcLine>) -> Json {
    lines
        .into_iter()
        .map(|l| json!({"file": l.file, "line": l.line}))
        .collect()
}

/// `file:line, line, other:line, ...` (a file is named where its lines begin).
fn lines_text<'a>(lines: impl IntoIterator<Item = &'a SrcLine>) -> String {
    let mut out = String::new();
    let mut file: Option<&str> = None;
    for l in lines {
        if file.is_some() {
            out.push_str(", ");
        }
        if file != Some(l.file.as_str()) {
            let _ = write!(out, "{}:", l.file);
            file = Some(&l.file);
        }
        let _ = write!(out, "{}", l.line);
    }
    out
}

fn outcome_text(o: &Outcome) -> String {
    match o {
        Outcome::Exit(c) => format!("exited with status {c}"),
        Outcome::Signal(s) => format!("was ended by signal {s}"),
        Outcome::Error(e) => format!("stopped on {} at {}:{}", e.kind.name(), e.file, e.line),
        Outcome::Partial(r) => format!("stopped early ({r})"),
        Outcome::Dropped => "was dropped".into(),
    }
}

/// A location as SARIF wants it: a URI for absolute paths, else the path itself.
fn uri(file: &str) -> String {
    if file.starts_with('/') {
        format!("file://{file}")
    } else {
        file.to_string()
    }
}

impl Report {
    /// The report of two runs behaving the same (`bytes` of output each, `outcome`).
    pub fn same(figures: Figures, bytes: usize, outcome: &Outcome) -> Report {
        Report {
            figures,
            observed: None,
            difference: None,
            same_summary: Some(format!(
                "both programs wrote the same {bytes} bytes to standard output and {}",
                outcome_text(outcome)
            )),
            unexplained: Vec::new(),
            ranked: Ranked::default(),
        }
    }

    /// The report of two differing runs.
    pub fn differ(
        figures: Figures,
        observed: (String, String),
        difference: Option<Difference>,
        unexplained: Vec<Unexplained>,
        ranked: Ranked,
    ) -> Report {
        Report {
            figures,
            observed: Some(observed),
            difference,
            same_summary: None,
            unexplained,
            ranked,
        }
    }

    /// `report.json`.
    pub fn to_json(&self) -> Json {
        let f = &self.figures;
        let side = |i: usize| {
            let pick = |p: (usize, usize)| if i == 0 { p.0 } else { p.1 };
            json!({
                "trace_length": pick(f.trace_len),
                "slice_size": pick(f.slice_size),
                "wp_conjuncts": pick(f.conjuncts),
                "wp_conjuncts_after_tautologies": pick(f.kept),
            })
        };
        json!({
            "same_behaviour": f.same_behaviour,
            "summary": self.same_summary,
            "observed": self.observed.as_ref().map(|(g, b)| json!({"golden": g, "buggy": b})),
            "difference": self.difference.map(Difference::name),
            "lines": lines_json(self.ranked.lead.iter()),
            "context_lines": lines_json(self.ranked.context.iter()),
            "unexplained": self.unexplained.iter().map(|u| json!({
                "side": u.side.name(),
                "constraint": u.constraint,
                "kind": u.kind.name(),
                "lines": lines_json(&u.lines),
                "context_lines": lines_json(&u.context),
                "no_counterpart_at": lines_json(&u.missing_at),
            })).collect::<Vec<_>>(),
            "figures": {
                "golden": side(0),
                "buggy": side(1),
                "solver_queries": f.queries,
                "solver_queries_undecided": f.undecided,
                "time_s": f.time_s,
                "peak_memory_mib": f.peak_memory_mib,
            },
        })
    }

    /// `report.sarif`: one result per unexplained conjunct, at its lines.
    pub fn to_sarif(&self) -> Json {
        let results: Vec<Json> = self
            .unexplained
            .iter()
            .map(|u| {
                let (rule, why) = match u.side {
                    Which::Buggy => ("wrong-code", "in the buggy program"),
                    Which::Golden => ("missing-code", "in the golden program only"),
                };
                json!({
                    "ruleId": rule,
                    "level": "warning",
                    "message": {"text": format!("unexplained constraint {why}: {}", u.constraint)},
                    "locations": u.lines.iter().map(|l| json!({
                        "physicalLocation": {
                            "artifactLocation": {"uri": uri(&l.file)},
                            "region": {"startLine": l.line},
                        }
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {
                    "name": "augur explain",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": [
                        {"id": "wrong-code", "shortDescription": {"text":
                            "A constraint of the buggy run the golden run does not imply: wrong code"}},
                        {"id": "missing-code", "shortDescription": {"text":
                            "A constraint of the golden run the buggy run does not imply: code missing from the buggy program"}},
                    ],
                }},
                "results": results,
            }],
        })
    }

    /// The report for the terminal, with source context read from the files.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(s) = &self.same_summary {
            let _ = writeln!(out, "same behaviour: {s}; nothing to explain.");
        }
        if let Some(d) = self.difference {
            let _ = writeln!(out, "{}", d.describe());
        }
        if let Some((g, b)) = &self.observed {
            let _ = writeln!(out, "observed:\n  golden: {g}\n  buggy:  {b}");
        }
        if !self.ranked.lead.is_empty() {
            let _ = writeln!(out, "\nthe evidence points most strongly at:");
            for l in &self.ranked.lead {
                let _ = writeln!(out, "  {}:{}", l.file, l.line);
                out.push_str(&context(l));
            }
        }
        for which in [Which::Buggy, Which::Golden] {
            let mine: Vec<&Unexplained> = self
                .unexplained
                .iter()
                .filter(|u| u.side == which)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let _ = match self.difference {
                // Nothing is unexplained: each program's output call is the finding.
                Some(Difference::Format) => {
                    writeln!(out, "\nwritten by the {} program:", which.name())
                }
                _ => writeln!(
                    out,
                    "\nunexplained in the {} program ({}):",
                    which.name(),
                    match which {
                        Which::Buggy => "wrong code",
                        Which::Golden => "code missing from the buggy program",
                    }
                ),
            };
            // Findings pointing at the same lines (a loop's iterations) are listed together.
            let mut groups: Vec<(&BTreeSet<SrcLine>, Vec<&Unexplained>)> = Vec::new();
            for u in mine {
                match groups.iter_mut().find(|g| *g.0 == u.lines) {
                    Some(g) => g.1.push(u),
                    None => groups.push((&u.lines, vec![u])),
                }
            }
            for (at, us) in groups {
                match at.is_empty() {
                    true => out.push_str("  pointing at no leading line:\n"),
                    false => {
                        let _ = writeln!(out, "  from {}:", lines_text(at));
                    }
                }
                for u in us.iter().take(GROUP_SHOWN) {
                    let _ = writeln!(out, "    {}: {}", u.kind.name(), u.short);
                }
                let missing: BTreeSet<&SrcLine> = us.iter().flat_map(|u| &u.missing_at).collect();
                if !missing.is_empty() {
                    let _ = writeln!(
                        out,
                        "    this code exists in the golden implementation and has no \
                         counterpart in the buggy one, which tests the same input bytes \
                         only more loosely at {}",
                        lines_text(missing)
                    );
                }
                // The rest of the slice, as one line of context.
                let rest: BTreeSet<&SrcLine> = us.iter().flat_map(|u| &u.context).collect();
                if !rest.is_empty() {
                    let _ = writeln!(
                        out,
                        "    (its slice also runs through {})",
                        lines_text(rest)
                    );
                }
                if us.len() > GROUP_SHOWN {
                    let _ = writeln!(
                        out,
                        "    ... and {} more like these",
                        us.len() - GROUP_SHOWN
                    );
                }
            }
        }
        if self.observed.is_some() && self.unexplained.is_empty() {
            out.push_str(
                "\nthe two weakest preconditions imply each other: no line is singled out.\n",
            );
        }
        let f = &self.figures;
        let _ = writeln!(
            out,
            "\nfigures (golden / buggy): trace {} / {} instructions, slice {} / {}, \
             WP conjuncts {} / {} ({} / {} after tautologies); solver queries {} \
             ({} undecided); time {:.2} s; peak memory {} MiB",
            f.trace_len.0,
            f.trace_len.1,
            f.slice_size.0,
            f.slice_size.1,
            f.conjuncts.0,
            f.conjuncts.1,
            f.kept.0,
            f.kept.1,
            f.queries,
            f.undecided,
            f.time_s,
            f.peak_memory_mib
        );
        out
    }
}

/// A few numbered source lines around `l` (nothing if the file cannot be read).
fn context(l: &SrcLine) -> String {
    let Ok(text) = std::fs::read_to_string(&l.file) else {
        return String::new();
    };
    let first = l.line.saturating_sub(CONTEXT).max(1);
    let mut out = String::new();
    for (n, s) in text
        .lines()
        .enumerate()
        .map(|(i, s)| (i as u32 + 1, s))
        .filter(|(n, _)| *n >= first && *n <= l.line + CONTEXT)
    {
        let mark = if n == l.line { '>' } else { ' ' };
        let _ = writeln!(out, "    {mark} {n:4} | {s}");
    }
    out
}
