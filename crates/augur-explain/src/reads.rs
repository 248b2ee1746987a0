//! The input bytes an expression reads. Two satisfiable constraints reading disjoint
//! bytes cannot imply one another unless the implied one is a tautology, so the pairwise
//! comparison only asks the solver about pairs that share a byte.

use augur_expr::{ArrayId, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashSet;

/// Input bytes read: `(array, Some(i))` for byte `i`, `(array, None)` for any byte (a read
/// at a symbolic index, or the array used whole).
#[derive(Clone, Debug, Default)]
pub struct Reads(FxHashSet<(ArrayId, Option<u64>)>);

impl Reads {
    /// The bytes `e` reads.
    pub fn of(pool: &ExprPool, e: ExprId) -> Reads {
        let mut out = FxHashSet::default();
        let mut seen = FxHashSet::default();
        let mut stack = vec![e];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            match pool.kind(n) {
                ExprKind::Select { array, index } => {
                    match (pool.kind(*array), pool.as_const(*index)) {
                        (ExprKind::ArraySym(a), Some(i)) => {
                            out.insert((*a, Some(i as u64)));
                        }
                        _ => stack.extend([*array, *index]),
                    }
                }
                ExprKind::ArraySym(a) => {
                    out.insert((*a, None));
                }
                k => stack.extend(k.children()),
            }
        }
        Reads(out)
    }

    /// The bytes read at constant indices, as expressions of `pool` (`arg00[2]`).
    pub fn bytes(&self, pool: &mut ExprPool) -> Vec<ExprId> {
        let mut at: Vec<(ArrayId, u64)> = self
            .0
            .iter()
            .filter_map(|(a, i)| Some((*a, (*i)?)))
            .collect();
        at.sort();
        at.into_iter()
            .map(|(a, i)| {
                let whole = pool.array_sym(a);
                let index = pool.constant(i as u128, 64);
                pool.select(whole, index)
            })
            .collect()
    }

    /// Do the two read a common byte?
    pub fn overlaps(&self, other: &Reads) -> bool {
        self.0.iter().any(|(a, i)| {
            other.0.contains(&(*a, None))
                || match i {
                    Some(_) => other.0.contains(&(*a, *i)),
                    None => other.0.iter().any(|(b, _)| b == a),
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_at_constant_and_symbolic_indices() {
        let mut p = ExprPool::new();
        let a = p.new_array("stdin", 4);
        let s = p.array_sym(a);
        let byte = |p: &mut ExprPool, i: u128| {
            let k = p.constant(i, 64);
            p.select(s, k)
        };
        let b0 = byte(&mut p, 0);
        let b1 = byte(&mut p, 1);
        let zero = p.constant(0, 8);
        let c0 = p.eq(b0, zero);
        let c1 = p.eq(b1, zero);
        let both = p.bool_and(c0, c1);
        assert!(!Reads::of(&p, c0).overlaps(&Reads::of(&p, c1)));
        assert!(Reads::of(&p, both).overlaps(&Reads::of(&p, c1)));
        // A read at a symbolic index may be any byte.
        let idx = p.zext(b1, 64);
        let any = p.select(s, idx);
        let c_any = p.eq(any, zero);
        assert!(Reads::of(&p, c_any).overlaps(&Reads::of(&p, c0)));
        assert!(Reads::of(&p, c0).overlaps(&Reads::of(&p, c_any)));
    }
}
