//! Differential tests from pairs of halted paths (Psychic's Algorithms 1 and 3): the
//! path conditions of two paths of different revisions, conjoined with "some output both
//! have differs", give, when satisfiable, an input on which the two revisions behave
//! differently.

use crate::halts::Halt;
use augur_engine::byte_expr;
use augur_engine::Executor;
use augur_expr::{ExprId, ExprPool};
use augur_solver::SolverError;

/// An input solved for a pair of halted paths.
#[derive(Clone, Debug)]
pub struct DiffInput {
    /// (name, bytes) of each symbolic object, in creation order.
    pub objects: Vec<(String, Vec<u8>)>,
    /// The two revisions it was solved to tell apart (smaller first).
    pub pair: (u32, u32),
    /// The outputs compared, by name (`exit` alone when the paths end differently).
    pub outputs: Vec<String>,
}

/// "Some output of both `a` and `b` differs", as a width-1 expression, and the names of the
/// outputs compared (`exit` alone when the paths end differently).
pub fn difference(pool: &mut ExprPool, a: &Halt, b: &Halt) -> (ExprId, Vec<String>) {
    let mut names = Vec::new();
    if a.ending != b.ending {
        names.push("exit".to_string());
        return (pool.bool_const(true), names);
    }
    let mut any = pool.bool_const(false);
    for (name, xs) in &a.outputs {
        let Some((_, ys)) = b.outputs.iter().find(|(n, _)| n == name) else {
            continue;
        };
        names.push(name.to_string());
        if xs.len() != ys.len() {
            any = pool.bool_const(true);
        } else {
            for (x, y) in xs.iter().zip(ys) {
                let (ex, ey) = (byte_expr(pool, *x), byte_expr(pool, *y));
                let ne = pool.ne(ex, ey);
                any = pool.bool_or(any, ne);
            }
        }
    }
    (any, names)
}

/// An input on which `a` and `b` (halted paths of different revisions) differ, if the
/// solver finds one.
pub fn solve(ex: &mut Executor, a: &Halt, b: &Halt) -> Result<Option<DiffInput>, SolverError> {
    let (diff, outputs) = difference(&mut ex.pool, a, b);
    if ex.pool.as_const(diff) == Some(0) {
        return Ok(None);
    }
    // Both paths at once, and a difference: b's path condition and the difference as one
    // condition under a's path condition.
    let mut cond = diff;
    for c in &b.constraints {
        cond = ex.pool.bool_and(cond, *c);
    }
    if !ex.solver.may_be_true(&mut ex.pool, &a.constraints, cond)? {
        return Ok(None);
    }
    let mut constraints = a.constraints.clone();
    constraints.push(cond);
    let longer = if b.inputs.len() > a.inputs.len() {
        b
    } else {
        a
    };
    let arrays: Vec<_> = a.inputs.iter().chain(&b.inputs).map(|i| i.1).collect();
    let model = ex.solver.model(&mut ex.pool, &constraints, &arrays)?;
    let objects = longer
        .inputs
        .iter()
        .map(|(name, array, size)| {
            let mut bytes = model.arrays.get(array).cloned().unwrap_or_default();
            bytes.resize(*size as usize, 0);
            (name.clone(), bytes)
        })
        .collect();
    let pair = (a.revision.min(b.revision), a.revision.max(b.revision));
    Ok(Some(DiffInput {
        objects,
        pair,
        outputs,
    }))
}
