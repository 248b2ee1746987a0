//! Which pairs of halted paths may run on one input: the candidates for differential
//! tests. Paths share their constraints up to where they parted; paths that parted at a
//! branch (one took `c`, the other `not c`) never run on the same input, and most pairs
//! are such. A trie over the paths' constraint sequences finds the others without
//! looking at every pair: halted paths below two children of a node are candidates only
//! when the two children's constraints are not each other's negation, and a path ending
//! at a node is a candidate with every path below it. Paths of different revisions that
//! ran the same code after their meta fork share trie nodes, and so pair up.

use crate::halts::Halt;
use augur_expr::{ExprId, ExprPool};
use rustc_hash::FxHashMap;

#[derive(Default)]
struct Node {
    children: FxHashMap<ExprId, usize>,
    /// Halted paths whose constraints end here.
    ends: Vec<usize>,
}

/// The most candidate pairs kept; past it the rest are dropped (and the caller told).
pub const MAX_CANDIDATES: usize = 2_000_000;

/// Whether two halted paths read the same inputs: the same array at every creation index
/// both have. Paths that created different inputs (a revision reads another object first)
/// cannot be compared on one input.
pub fn same_inputs(a: &Halt, b: &Halt) -> bool {
    a.inputs.iter().zip(&b.inputs).all(|(x, y)| x.1 == y.1)
}

/// The candidate pairs of halted paths.
pub struct Candidates {
    /// The pairs (i, j), i < j, of halted paths of different revisions and the same inputs
    /// that the trie cannot rule out, sorted by j then i (the order in which they halted).
    pub pairs: Vec<(usize, usize)>,
    /// Whether [`MAX_CANDIDATES`] cut the list short.
    pub cut: bool,
    /// Pairs of different revisions left out because their paths created different inputs.
    pub other_inputs: usize,
}

/// The candidate pairs of `halts`.
pub fn candidates(pool: &mut ExprPool, halts: &[Halt]) -> Candidates {
    let mut nodes = vec![Node::default()];
    for (h, halt) in halts.iter().enumerate() {
        let mut at = 0;
        for c in &halt.constraints {
            let next = nodes.len();
            at = *nodes[at].children.entry(*c).or_insert(next);
            if at == next {
                nodes.push(Node::default());
            }
        }
        nodes[at].ends.push(h);
    }
    // A child is created after its parent: visiting nodes from the last to the first
    // sees every subtree before its root (no recursion, however long the paths).
    let mut subtree: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut out = Pairs {
        halts,
        pairs: Vec::new(),
        full: false,
        other_inputs: 0,
    };
    for n in (0..nodes.len()).rev() {
        let mut edges: Vec<(ExprId, usize)> =
            nodes[n].children.iter().map(|(c, m)| (*c, *m)).collect();
        edges.sort();
        let below: Vec<(ExprId, Vec<usize>)> = edges
            .into_iter()
            .map(|(c, m)| (c, std::mem::take(&mut subtree[m])))
            .collect();
        let ends = &nodes[n].ends;
        let mut all: Vec<usize> = ends.clone();
        for (k, (c, hs)) in below.iter().enumerate() {
            for (d, other) in &below[..k] {
                if pool.not(*c) != *d {
                    cross(hs, other, &mut out);
                }
            }
            cross(ends, hs, &mut out);
            all.extend(hs);
        }
        cross(ends, ends, &mut out);
        subtree[n] = all;
    }
    let mut pairs = out.pairs;
    for p in &mut pairs {
        *p = (p.0.min(p.1), p.0.max(p.1));
    }
    pairs.sort_by_key(|(i, j)| (*j, *i));
    pairs.dedup();
    Candidates {
        pairs,
        cut: out.full,
        other_inputs: out.other_inputs,
    }
}

/// Candidate pairs as they are found: different revisions, same inputs, at most
/// [`MAX_CANDIDATES`].
struct Pairs<'h> {
    halts: &'h [Halt],
    pairs: Vec<(usize, usize)>,
    full: bool,
    other_inputs: usize,
}

fn cross(a: &[usize], b: &[usize], out: &mut Pairs) {
    for &i in a {
        for &j in b {
            let (x, y) = (&out.halts[i], &out.halts[j]);
            if i == j || x.revision == y.revision {
                continue;
            }
            if !same_inputs(x, y) {
                out.other_inputs += 1;
                continue;
            }
            if out.pairs.len() >= MAX_CANDIDATES {
                out.full = true;
                return;
            }
            out.pairs.push((i, j));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn halt(revision: u32, constraints: Vec<ExprId>) -> Halt {
        Halt {
            revision,
            constraints,
            inputs: Vec::new(),
            ending: None,
            outputs: Vec::new(),
            values: None,
        }
    }

    #[test]
    fn paths_parted_at_a_branch_are_never_candidates() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 1);
        let arr = p.array_sym(a);
        let i0 = p.constant(0, 64);
        let x = p.select(arr, i0);
        let five = p.constant(5, 8);
        let c = p.ult(x, five);
        let not_c = p.not(c);
        let seven = p.constant(7, 8);
        let d = p.eq(x, seven);
        let halts = vec![
            halt(0, vec![c]),        // 0: base, x < 5
            halt(1, vec![not_c]),    // 1: revision 1, x >= 5: parted from 0
            halt(1, vec![c]),        // 2: revision 1, same path as 0
            halt(2, vec![c, d]),     // 3: revision 2, below 0 and 2 (not parted)
            halt(0, vec![not_c, d]), // 4: base, below 1
        ];
        let got = candidates(&mut p, &halts);
        assert_eq!(got.pairs, vec![(0, 2), (0, 3), (2, 3), (1, 4)]);
        assert!(!got.cut);
        assert_eq!(got.other_inputs, 0);
    }
}
