//! Transition points (the paper's IdentifyTransitionPoints): line visits on the seed
//! path where a statement can go and input-dependent variables are in scope, scored by
//! depth in the call graph, depth in the path's branches (each branch on the path before
//! a point is a decision the input must make to reach it) and useful variables.

use crate::embed::{self, Probe};
use crate::predicate::{self, Pred};
use crate::seeded::{self, SeededRun, VarValue};
use augur_ir::FileId;
use rustc_hash::{FxHashMap, FxHashSet};

/// A candidate transition point.
#[derive(Clone, Debug)]
pub struct Point {
    /// Index of the visit in the recording.
    pub visit: usize,
    /// Index of its file among the sources.
    pub source: usize,
    /// Its line.
    pub line: u32,
    /// Which visit of the line.
    pub instance: u32,
    /// Call depth.
    pub call_depth: u32,
    /// Branches on the path before it.
    pub branches: u32,
    /// The variables in scope with their values.
    pub vals: Vec<VarValue>,
    /// Candidate predicates (true on the seed).
    pub cands: Vec<Pred>,
}

impl Point {
    fn score(&self, pool: &augur_expr::ExprPool) -> u64 {
        let useful = self.vals.iter().filter(|v| v.is_symbolic(pool)).count() as u64;
        u64::from(self.branches) + 4 * u64::from(self.call_depth) + 2 * useful
    }
}

/// The visits that could hold a transition: (visit index, source index).
fn embeddable(
    run: &SeededRun,
    files: &FxHashMap<FileId, usize>,
    texts: &[String],
) -> Vec<(usize, usize)> {
    run.rec
        .visits
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let s = *files.get(&v.file)?;
            let text = &texts[s];
            // Code before a loop header runs once, while the header's line is visited
            // once per iteration.
            let once = v.instance == 1 || !embed::is_loop_header(text, v.line);
            (once && embed::starts_statement(text, v.line)).then_some((i, s))
        })
        .collect()
}

/// The variable names wanted at each (source, line) for the probe compile.
pub fn probe_request(
    run: &SeededRun,
    files: &FxHashMap<FileId, usize>,
    texts: &[String],
) -> FxHashMap<(usize, u32), Vec<String>> {
    let mut want: FxHashMap<(usize, u32), Vec<String>> = FxHashMap::default();
    for (i, s) in embeddable(run, files, texts) {
        let v = &run.rec.visits[i];
        let names = want.entry((s, v.line)).or_default();
        for (var, _) in &v.vars {
            // The probe asks whether the identifier is in scope (an element's
            // aggregate).
            let base = var.base();
            if !names.iter().any(|n| n == base) {
                names.push(base.to_string());
            }
        }
    }
    want
}

/// Every candidate point of a seed run that the probe accepted, with its predicates.
pub fn candidates(
    run: &mut SeededRun,
    files: &FxHashMap<FileId, usize>,
    texts: &[String],
    probe: &Probe,
) -> Vec<Point> {
    let mut out = Vec::new();
    for (i, s) in embeddable(run, files, texts) {
        let visit = run.rec.visits[i].clone();
        if probe.bad_lines.contains(&(s, visit.line)) {
            continue;
        }
        let vals: Vec<VarValue> = seeded::values(&mut run.pool, &run.rec.seed, &visit)
            .into_iter()
            .filter(|v| {
                !probe
                    .out_of_scope
                    .contains(&(s, visit.line, v.var.base().to_string()))
            })
            .collect();
        let cands = predicate::candidates(&mut run.pool, &vals);
        if cands.is_empty() {
            continue;
        }
        out.push(Point {
            visit: i,
            source: s,
            line: visit.line,
            instance: visit.instance,
            call_depth: visit.call_depth,
            branches: visit.branches,
            vals,
            cands,
        });
    }
    out
}

/// Choose up to `k` points, none of whose line is in `avoid`: the candidates in the
/// deeper half of the path, in path order, are cut into `k` stretches and the
/// best-scoring point of each is taken, so the points spread along the path (different
/// loop iterations and variables, rather than `k` views of one value). Two points may be
/// visits of one line (a loop's body at two iterations): the embedding then lets one
/// visit make one transition only, so each needs a visit of its own.
pub fn choose(
    pool: &augur_expr::ExprPool,
    points: &[Point],
    k: usize,
    avoid: &FxHashSet<(usize, u32)>,
) -> Vec<Point> {
    // Only the deeper half of the path (by input-dependent branches passed): a point
    // before the program's input checks would let inputs off the seed path, which the
    // path's counts know nothing of, drive the ETS.
    let deepest = points.iter().map(|p| p.branches).max().unwrap_or(0);
    let usable: Vec<&Point> = points
        .iter()
        .filter(|p| !avoid.contains(&(p.source, p.line)) && 2 * p.branches >= deepest)
        .collect();
    let mut picked: Vec<Point> = Vec::new();
    for part in 0..k {
        let (lo, hi) = (usable.len() * part / k, usable.len() * (part + 1) / k);
        let best = usable[lo..hi]
            .iter()
            .max_by_key(|p| (p.score(pool), std::cmp::Reverse(p.visit)));
        if let Some(p) = best {
            picked.push((*p).clone());
        }
    }
    picked
}
