//! Rank and cut: every finding (unexplained weakest-precondition conjunct, place where
//! the values part) weighs on its lines; a line a finding points at carries its weight,
//! a line only in its slice a little. Lines of the two programs that are versions of
//! one line (see [`Versions`]) make one place, weighed together, more when their text
//! differs. A line expanding a macro the two programs define differently passes its
//! weight on to the `#define` lines; a golden line (code missing from the buggy program)
//! passes it to the buggy line where that code is missing. The report leads with the
//! lines of the heaviest places, at most [`LEAD`], and keeps the rest as context.

use crate::compare::Unexplained;
use crate::macros::Macros;
use crate::versions::Versions;
use crate::wp::Kind;
use crate::{SrcLine, Which};
use std::collections::{BTreeMap, BTreeSet};

/// Lines a report leads with, at most.
pub const LEAD: usize = 4;

/// Places lighter than the heaviest one divided by this are context only.
const CUT_RATIO: u32 = 3;

/// How strongly each kind of evidence points at its lines.
pub mod weight {
    /// A line only in a finding's slice.
    pub const SLICE: u32 = 1;
    /// Where the values of the two runs part because of a constant, an operation or a
    /// global's initial value ([`crate::lockstep`]).
    pub const VALUE_ORIGIN: u32 = 8;
    /// Where the two runs' computations of a value part structurally.
    pub const DIVERGENCE: u32 = 4;
    /// Where an unexplained postcondition's value departs from the other program's.
    pub const FOCUS: u32 = 6;
    /// The line of an unexplained branch condition.
    pub const BRANCH: u32 = 5;
    /// A golden branch condition with no counterpart in the buggy program, which tests
    /// the same input bytes only more loosely (see `compare`): the missing case, and
    /// the buggy lines where it is missing.
    pub const MISSING: u32 = 8;
    /// A place whose lines differ between the two versions.
    pub const CHANGED: u32 = 6;
}

/// What the report leads with and what it keeps as context.
#[derive(Clone, Debug, Default)]
pub struct Ranked {
    /// At most [`LEAD`] lines, heaviest place first.
    pub lead: Vec<SrcLine>,
    /// Every other line of the evidence.
    pub context: BTreeSet<SrcLine>,
}

/// One place: a buggy line and its golden counterparts (or a line of one program),
/// weighing as its heaviest line, more when the versions differ there.
#[derive(Default)]
struct Place {
    lines: BTreeSet<SrcLine>,
    weight: u32,
    changed: bool,
}

/// The evidence on each line, and the lines each line passes its weight on to.
struct Evidence<'a> {
    versions: &'a Versions,
    weight: BTreeMap<SrcLine, u32>,
    derived: BTreeMap<SrcLine, BTreeSet<SrcLine>>,
}

impl Evidence<'_> {
    /// A line weighs as much as the strongest evidence on it: many findings on one
    /// line (a loop's iterations, the bytes of one parsed number) are one place.
    fn add(&mut self, l: &SrcLine, w: u32) {
        let at = self.weight.entry(l.clone()).or_default();
        *at = (*at).max(w);
    }

    /// Pass the weight of lines expanding a macro defined differently in the two
    /// programs on to its `#define` lines.
    fn macros(&mut self, golden: &Macros, buggy: &Macros) {
        let lines: Vec<(SrcLine, u32)> = self.weight.iter().map(|(l, w)| (l.clone(), *w)).collect();
        for (l, w) in lines {
            let mine = match self.versions.side(&l) {
                Which::Golden => golden,
                Which::Buggy => buggy,
            };
            let Some(text) = self.versions.text(&l) else {
                continue;
            };
            for name in mine.used(text) {
                let (g, b) = (golden.get(name), buggy.get(name));
                if g.map(|d| &d.body) == b.map(|d| &d.body) {
                    continue;
                }
                for d in g.into_iter().chain(b) {
                    self.add(&d.at, w);
                    self.derived
                        .entry(l.clone())
                        .or_default()
                        .insert(d.at.clone());
                }
            }
        }
    }

    /// The places, heaviest first.
    fn places(&self) -> Vec<Place> {
        let mut places: BTreeMap<SrcLine, Place> = BTreeMap::new();
        for (l, w) in &self.weight {
            let other = self.versions.counterpart(l);
            let key = match (self.versions.side(l), &other) {
                (Which::Golden, Some((c, _))) => c.clone(),
                _ => l.clone(),
            };
            let p = places.entry(key).or_default();
            p.lines.insert(l.clone());
            p.weight = p.weight.max(*w);
            if let Some((c, same)) = other {
                p.lines.insert(c);
                p.changed |= !same;
            }
        }
        let mut out: Vec<Place> = places
            .into_values()
            .map(|mut p| {
                p.weight += if p.changed { weight::CHANGED } else { 0 };
                p
            })
            .collect();
        out.sort_by_key(|p| std::cmp::Reverse(p.weight));
        out
    }
}

/// The weight of `f` when the two programs are independent implementations: a golden
/// condition, and the shape of either program's computation of the observed value, are
/// that program's own way of doing the job and point at nothing; only a golden
/// condition the buggy program tests more loosely (a missing case) keeps its weight.
fn independent_weight(f: &Unexplained) -> u32 {
    match (f.side, f.kind) {
        (Which::Golden, Kind::Branch) if f.missing_at.is_empty() => weight::SLICE,
        (_, Kind::Postcondition) => weight::SLICE,
        _ => f.weight,
    }
}

/// Rank the lines of `findings`, cut to the lead, and leave in each finding's `lines`
/// only its lead lines (those it points at, their counterparts, the `#define` lines they
/// expand), the rest in its `context`; findings naming a lead line come first.
pub fn cut(
    findings: &mut [Unexplained],
    versions: &Versions,
    golden: &Macros,
    buggy: &Macros,
) -> Ranked {
    let mut ev = Evidence {
        versions,
        weight: BTreeMap::new(),
        derived: BTreeMap::new(),
    };
    for f in findings.iter() {
        let w = match versions.independent() {
            true => independent_weight(f),
            false => f.weight,
        };
        for l in &f.lines {
            // The golden code with no counterpart comes before where it is missing.
            let golden_case = !f.missing_at.is_empty() && !f.missing_at.contains(l);
            ev.add(l, w + u32::from(golden_case));
        }
        for l in f.context.difference(&f.lines) {
            ev.add(l, weight::SLICE);
        }
    }
    // Two implementations define their own macros: none is a version of the other's.
    if !versions.independent() {
        ev.macros(golden, buggy);
    }
    let places = ev.places();
    let top = places.first().map(|p| p.weight).unwrap_or(0);
    let mut lead: Vec<SrcLine> = Vec::new();
    for p in places.iter().filter(|p| p.weight * CUT_RATIO >= top) {
        // The buggy program's lines first.
        let mut lines: Vec<&SrcLine> = p.lines.iter().collect();
        lines.sort_by_key(|l| versions.side(l) == Which::Golden);
        for l in lines {
            if lead.len() < LEAD && !lead.contains(l) {
                lead.push(l.clone());
            }
        }
    }
    let mut context: BTreeSet<SrcLine> = places.into_iter().flat_map(|p| p.lines).collect();
    for l in &lead {
        context.remove(l);
    }
    let rank = |l: &SrcLine| lead.iter().position(|m| m == l).unwrap_or(LEAD);
    for f in findings.iter_mut() {
        let mut mine: BTreeSet<SrcLine> = f.lines.union(&f.context).cloned().collect();
        let related: Vec<SrcLine> = mine
            .iter()
            .flat_map(|l| {
                let derived = ev.derived.get(l).into_iter().flatten().cloned();
                let counterpart = f
                    .lines
                    .contains(l)
                    .then(|| versions.counterpart(l).map(|c| c.0))
                    .flatten();
                derived.chain(counterpart)
            })
            .collect();
        mine.extend(related);
        let (lines, rest): (BTreeSet<SrcLine>, BTreeSet<SrcLine>) =
            mine.into_iter().partition(|l| lead.contains(l));
        f.lines = lines;
        f.context = rest;
    }
    findings.sort_by_key(|f| f.lines.iter().map(rank).min().unwrap_or(LEAD));
    Ranked { lead, context }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: u32) -> SrcLine {
        SrcLine {
            file: file.to_string(),
            line,
        }
    }

    fn finding(side: Which, lines: &[SrcLine], context: &[SrcLine], weight: u32) -> Unexplained {
        Unexplained {
            side,
            constraint: String::new(),
            short: String::new(),
            kind: Kind::Branch,
            lines: lines.iter().cloned().collect(),
            context: context.iter().cloned().collect(),
            weight,
            entry: None,
            missing_at: BTreeSet::new(),
        }
    }

    #[test]
    fn changed_define_leads_and_the_rest_is_context() {
        let dir = std::env::temp_dir().join(format!("augur-rank-{}", std::process::id()));
        let (g, b) = (dir.join("g/p.c"), dir.join("b/p.c"));
        let src = "#define K 5\nint f(int x) {\n  int y = x + 1;\n  return y > K;\n}\n";
        for (p, s) in [(&g, src.to_string()), (&b, src.replace("K 5", "K 6"))] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, s).unwrap();
        }
        let (g, b) = (g.display().to_string(), b.display().to_string());
        let versions = Versions::new(std::slice::from_ref(&g), std::slice::from_ref(&b));
        let scan = |f: &String| Macros::scan(std::slice::from_ref(f), crate::versions::read_lines);
        let mut findings = vec![
            finding(Which::Buggy, &[at(&b, 4)], &[at(&b, 3)], weight::BRANCH),
            finding(Which::Golden, &[at(&g, 3)], &[], weight::SLICE),
        ];
        let ranked = cut(&mut findings, &versions, &scan(&g), &scan(&b));
        std::fs::remove_dir_all(&dir).unwrap();
        // The #define lines (the use's weight and a change), then the use.
        assert_eq!(
            ranked.lead,
            vec![at(&b, 1), at(&g, 1), at(&b, 4), at(&g, 4)]
        );
        assert_eq!(ranked.context, BTreeSet::from([at(&b, 3), at(&g, 3)]));
        assert_eq!(
            findings[0].lines,
            BTreeSet::from([at(&b, 1), at(&g, 1), at(&b, 4), at(&g, 4)])
        );
        assert!(findings[1].lines.is_empty());
    }
}
