//! The interface every layer of the chain implements.

use augur_expr::{Assignment, ExprId, ExprPool};

/// The answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    /// Satisfiable, with a model.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
}

/// A layer in the solver chain (KLEE style: every optimisation is one layer behind one
/// interface).
pub trait Solver {
    /// Is the conjunction of `constraints` (all width-1 exprs) satisfiable? On Sat, returns
    /// a model that assigns EVERY array occurring in the constraints (full byte vector of
    /// array_size bytes).
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError>;
}

use crate::SolverError;

/// `model` cut down to exactly the arrays of `constraints`, each a full byte vector
/// (arrays `model` lacks become zeros, as evaluation reads them).
pub(crate) fn restrict(pool: &ExprPool, model: &Assignment, constraints: &[ExprId]) -> Assignment {
    let mut out = Assignment::default();
    for a in pool.arrays_of_all(constraints) {
        let mut bytes = model.get(a).map_or_else(Vec::new, <[u8]>::to_vec);
        bytes.resize(pool.array_size(a) as usize, 0);
        out.set(a, bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restrict_keeps_exactly_the_constraint_arrays() {
        let mut p = ExprPool::new();
        let (x, y, z) = (
            p.new_array("x", 2),
            p.new_array("y", 3),
            p.new_array("z", 1),
        );
        let i0 = p.constant(0, 64);
        let (ax, ay) = (p.array_sym(x), p.array_sym(y));
        let (bx, by) = (p.select(ax, i0), p.select(ay, i0));
        let c = p.eq(bx, by);
        let mut m = Assignment::default();
        m.set(x, vec![4]);
        m.set(z, vec![1]);
        let r = restrict(&p, &m, &[c]);
        assert_eq!(r.get(x), Some(&[4u8, 0][..]));
        assert_eq!(r.get(y), Some(&[0u8, 0, 0][..]));
        assert_eq!(r.get(z), None);
        assert_eq!(p.arrays_of_all(&[c, c]), [x, y]);
    }
}
