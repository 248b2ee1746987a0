//! Where two observed values differ: the golden and buggy expressions of a postcondition
//! are walked together from the root, node by node while they have the same shape (same
//! operator, same parameters); where they part (another constant, operator or input
//! leaf), the instructions of each run that produced the differing sub-expressions (or
//! their nearest enclosing ones) are where the computations diverge.

use crate::import::Importer;
use crate::slice::{backward, Follow};
use crate::{Execution, SrcLine};
use augur_expr::{ExprId, ExprKind, ExprPool};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;
use std::mem::discriminant;

/// One run's observed value, as the alignment needs it.
pub struct Observed<'a> {
    /// The run.
    pub run: &'a Execution,
    /// The entries defining the value (the slice of its computation starts there).
    pub deps: &'a [u32],
    /// The value's expression.
    pub value: ExprId,
}

/// Do two nodes have the same operator and parameters (children aside)?
fn same_shape(a: &ExprKind, b: &ExprKind) -> bool {
    use ExprKind::*;
    match (a, b) {
        (Bin { op: x, .. }, Bin { op: y, .. }) => x == y,
        (Cmp { op: x, .. }, Cmp { op: y, .. }) => x == y,
        (
            Extract { lo, width, .. },
            Extract {
                lo: l, width: w, ..
            },
        ) => (lo, width) == (l, w),
        (ZExt { width: x, .. }, ZExt { width: y, .. })
        | (SExt { width: x, .. }, SExt { width: y, .. }) => x == y,
        (Const { .. } | ArraySym(_) | ArrayConst(_), _) => a == b,
        _ => discriminant(a) == discriminant(b),
    }
}

/// The children of `a` and `b` paired for the walk; the operands of a commutative
/// operator are swapped when that pairs equal ones.
fn pairs(pool: &ExprPool, a: ExprId, b: ExprId) -> Vec<(ExprId, ExprId)> {
    let (ka, kb) = (pool.kind(a), pool.kind(b));
    let mut cb: Vec<ExprId> = kb.children().collect();
    let ca: Vec<ExprId> = ka.children().collect();
    if let (ExprKind::Bin { op, .. }, [x, y], [u, v]) = (ka, &ca[..], &cb[..]) {
        if op.is_commutative() && x != u && y != v && (x == v || y == u) {
            cb.swap(0, 1);
        }
    }
    ca.into_iter().zip(cb).collect()
}

/// Per expression (in `pool`): the earliest entry of `o`'s data slice producing it.
fn producers(o: &Observed, imp: &mut Importer, pool: &mut ExprPool) -> FxHashMap<ExprId, u32> {
    let slice = backward(&o.run.graph, o.deps, Follow::Data);
    let mut out = FxHashMap::default();
    for (i, e) in o.run.trace.entries.iter().enumerate() {
        if let (true, Some(r)) = (slice[i], e.result) {
            out.entry(imp.import(pool, r)).or_insert(i as u32);
        }
    }
    out
}

/// The source lines, in each run (golden, buggy), of the instructions that produced the
/// sub-expressions where the two observed values differ; empty when the expressions are
/// the same or no instruction of the slice produced a differing part.
pub fn differing_lines(
    golden: &Observed,
    buggy: &Observed,
) -> (BTreeSet<SrcLine>, BTreeSet<SrcLine>) {
    let mut pool = ExprPool::new();
    let (mut gi, mut bi) = (
        Importer::new(&golden.run.pool),
        Importer::new(&buggy.run.pool),
    );
    let (g, b) = (
        gi.import(&mut pool, golden.value),
        bi.import(&mut pool, buggy.value),
    );
    let gp = producers(golden, &mut gi, &mut pool);
    let bp = producers(buggy, &mut bi, &mut pool);
    let mut lines = (BTreeSet::new(), BTreeSet::new());
    let mut seen = FxHashSet::default();
    // (golden node, buggy node, nearest producers above them)
    let mut stack = vec![(g, b, None, None)];
    while let Some((x, y, px, py)) = stack.pop() {
        if x == y || !seen.insert((x, y)) {
            continue;
        }
        let px = gp.get(&x).copied().or(px);
        let py = bp.get(&y).copied().or(py);
        if same_shape(pool.kind(x), pool.kind(y)) {
            let children = pairs(&pool, x, y);
            if children.iter().any(|(u, v)| u != v) {
                stack.extend(children.into_iter().map(|(u, v)| (u, v, px, py)));
                continue;
            }
        }
        lines.0.extend(px.and_then(|i| golden.run.line(i)));
        lines.1.extend(py.and_then(|i| buggy.run.line(i)));
    }
    lines
}
