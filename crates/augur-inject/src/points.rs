//! Transition points (the paper's IdentifyTransitionPoints): line visits on the seed
//! path where a statement can go and input-dependent variables are in scope, scored by
//! depth in the call graph, depth in the path's branches (each branch on the path before
//! a point is a decision the input must make to reach it) and useful variables.

use crate::embed::{self, Probe};
use crate::predicate::{self, Pred};
use crate::sample;
use crate::seeded::{self, SeededRun, VarValue};
use crate::space::{self, Space};
use augur_expr::{ArrayId, ExprId, ExprPool};
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
    /// The input bytes its input-dependent variables read (see [`bytes_read`]) that the
    /// path does not pin (see [`free_bits`]).
    pub bytes: Vec<(ArrayId, u64)>,
}

/// What a point scores for each input byte it reads that no point chosen before it
/// reads, for up to [`NEW_BYTES_SCORED`] of them: a conjunction can only be rarer than
/// its rarest predicate when its predicates read independent bytes (two points reading
/// one byte, `c >= 58` and then `wc <= 58` on `btowc (c)`, are one equality on it, which
/// about one in 256 mutated or random inputs satisfies). Worth two levels of call depth.
const NEW_BYTE_SCORE: u64 = 8;
/// New bytes scored at most per point: a point over a string's 7th byte reads the six
/// before it too, but is not worth seven independent predicates.
const NEW_BYTES_SCORED: usize = 2;

impl Point {
    fn score(&self, pool: &ExprPool) -> u64 {
        let useful = self.vals.iter().filter(|v| v.is_symbolic(pool)).count() as u64;
        u64::from(self.branches) + 4 * u64::from(self.call_depth) + 2 * useful
    }

    /// Its score with the bytes it reads that no point in `read` reads.
    fn score_beside(&self, pool: &ExprPool, read: &FxHashSet<(ArrayId, u64)>) -> u64 {
        let new = self.bytes.iter().filter(|b| !read.contains(b)).count();
        self.score(pool) + NEW_BYTE_SCORE * new.min(NEW_BYTES_SCORED) as u64
    }
}

/// The input bytes read, at constant indices, by the input-dependent values among
/// `vals` (a value read at an index that depends on the input adds none).
pub fn bytes_read(pool: &ExprPool, vals: &[VarValue]) -> Vec<(ArrayId, u64)> {
    let mut out: Vec<_> = vals
        .iter()
        .filter(|v| v.is_symbolic(pool))
        .filter_map(|v| space::bytes_read(pool, v.expr))
        .flatten()
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The bits of choice the path condition `pc` leaves each of `bytes`: log2 of the
/// values it can take as the constraints that read it alone show (no solver is asked):
/// 0 for a byte the path pins (wc's `case '\n':`), 8 for one it says nothing of. A
/// predicate over a pinned byte is implied by the path, so a point or a seed path gains
/// nothing from reading it.
pub fn free_bits(pool: &ExprPool, pc: &[ExprId], bytes: &[(ArrayId, u64)]) -> Vec<f64> {
    let mut all = sample::support(pool, pc);
    all.extend_from_slice(bytes);
    all.sort_unstable();
    all.dedup();
    let space = Space::new(pool, pc, &all);
    bytes
        .iter()
        .map(|b| {
            let i = all.binary_search(b).expect("every byte is in the space");
            (space.values[i].len() as f64).log2()
        })
        .collect()
}

/// Whether a visit after `branches` input-dependent branches is in the deeper half of a
/// path whose deepest visit is after `deepest`: only there are transitions placed (a
/// point before the program's input checks would let inputs off the seed path, which
/// the path's counts know nothing of, drive the ETS).
pub fn in_deeper_half(branches: u32, deepest: u32) -> bool {
    2 * branches >= deepest
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
            // The probe asks whether the identifiers are in scope (an element's
            // aggregate, and the variable indexing it).
            for id in var.identifiers() {
                if !names.iter().any(|n| n == id) {
                    names.push(id.to_string());
                }
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
                v.var.identifiers().iter().all(|id| {
                    !probe
                        .out_of_scope
                        .contains(&(s, visit.line, id.to_string()))
                })
            })
            .collect();
        let cands = predicate::candidates(&mut run.pool, &vals);
        if cands.is_empty() {
            continue;
        }
        let bytes = bytes_read(&run.pool, &vals);
        out.push(Point {
            visit: i,
            source: s,
            line: visit.line,
            instance: visit.instance,
            call_depth: visit.call_depth,
            branches: visit.branches,
            vals,
            cands,
            bytes,
        });
    }
    // Only the bytes the path leaves a choice count for a point.
    let mut read: Vec<(ArrayId, u64)> = out.iter().flat_map(|p| p.bytes.clone()).collect();
    read.sort_unstable();
    read.dedup();
    let bits = free_bits(&run.pool, &run.rec.constraints, &read);
    for p in &mut out {
        p.bytes
            .retain(|b| bits[read.binary_search(b).expect("read")] > 0.0);
    }
    out
}

/// Choose up to `k` points, none of whose line is in `avoid`: the candidates in the
/// [deeper half](in_deeper_half) of the path, in path order, are cut into `k` stretches
/// and the best-scoring point of each is taken, so the points spread along the path
/// (different loop iterations and variables, rather than `k` views of one value); a
/// point scores more for the input bytes it reads that the points chosen in the
/// stretches before its own do not ([`NEW_BYTE_SCORE`]). Two points may be visits of
/// one line (a loop's body at two iterations): the embedding then lets one visit make
/// one transition only, so each needs a visit of its own.
pub fn choose(
    pool: &ExprPool,
    points: &[Point],
    k: usize,
    avoid: &FxHashSet<(usize, u32)>,
) -> Vec<Point> {
    let deepest = points.iter().map(|p| p.branches).max().unwrap_or(0);
    let usable: Vec<&Point> = points
        .iter()
        .filter(|p| !avoid.contains(&(p.source, p.line)) && in_deeper_half(p.branches, deepest))
        .collect();
    let mut picked: Vec<Point> = Vec::new();
    let mut read = FxHashSet::default();
    for part in 0..k {
        let (lo, hi) = (usable.len() * part / k, usable.len() * (part + 1) / k);
        let best = usable[lo..hi]
            .iter()
            .max_by_key(|p| (p.score_beside(pool, &read), std::cmp::Reverse(p.visit)));
        if let Some(p) = best {
            read.extend(p.bytes.iter().copied());
            picked.push((*p).clone());
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::Var;
    use augur_expr::CmpOp;

    /// A point at `visit` whose one variable is byte `byte` of `stdin`.
    fn point(pool: &mut ExprPool, stdin: ArrayId, visit: usize, depth: u32, byte: u64) -> Point {
        let arr = pool.array_sym(stdin);
        let at = pool.constant(u128::from(byte), 64);
        let expr = pool.select(arr, at);
        let vals = vec![VarValue {
            var: Var {
                name: "c".into(),
                size: 1,
            },
            expr,
            seed: 97,
        }];
        Point {
            visit,
            source: 0,
            line: 10 + visit as u32,
            instance: 1,
            call_depth: depth,
            branches: 10 + visit as u32,
            bytes: bytes_read(pool, &vals),
            vals,
            cands: Vec::new(),
        }
    }

    #[test]
    fn a_byte_the_path_pins_leaves_no_choice_and_one_it_bounds_leaves_some() {
        let mut pool = ExprPool::new();
        let stdin = pool.new_array("stdin", 3);
        let arr = pool.array_sym(stdin);
        let byte = |pool: &mut ExprPool, i: u128| {
            let at = pool.constant(i, 64);
            pool.select(arr, at)
        };
        let (b0, b1) = (byte(&mut pool, 0), byte(&mut pool, 1));
        let (newline, high) = (pool.constant(10, 8), pool.constant(128, 8));
        let pc = [pool.eq(b0, newline), pool.cmp(CmpOp::Ult, b1, high)];
        let bytes = [(stdin, 0), (stdin, 1), (stdin, 2)];
        assert_eq!(free_bits(&pool, &pc, &bytes), [0.0, 7.0, 8.0]);
    }

    #[test]
    fn a_point_reading_a_byte_no_earlier_point_reads_beats_a_deeper_one_on_a_read_byte() {
        let mut pool = ExprPool::new();
        let stdin = pool.new_array("stdin", 4);
        // Path order: byte 0 in a caller and again in a callee (`c`, then `btowc (c)`),
        // then byte 1 in the caller and byte 0 once more in the callee.
        let points = [
            point(&mut pool, stdin, 0, 2, 0),
            point(&mut pool, stdin, 1, 3, 0),
            point(&mut pool, stdin, 2, 2, 1),
            point(&mut pool, stdin, 3, 3, 0),
        ];
        assert_eq!(points[2].bytes, vec![(stdin, 1)]);
        let chosen = choose(&pool, &points, 2, &FxHashSet::default());
        let visits: Vec<usize> = chosen.iter().map(|p| p.visit).collect();
        assert_eq!(visits, [1, 2], "the second stretch's point reads byte 1");
        // Without a byte of its own, the deeper point wins its stretch.
        let same = [points[2].clone(), points[3].clone()];
        let alone = choose(&pool, &same, 1, &FxHashSet::default());
        assert_eq!(alone[0].visit, 3);
    }
}
