//! ETS synthesis (the paper's Algorithm 2): one predicate per transition point, chosen
//! round-robin by hill climbing so that as few sampled path inputs as possible satisfy
//! all predicates, each predicate true on the seed (the seed stays a trigger). Inputs
//! that must not fire the bug (in one program, the triggers of the bugs chosen before)
//! weigh more than all the samples together: the conjunction is narrowed to exclude
//! them first.

use crate::predicate::Pred;
use crate::sample::Checker;
use augur_engine::Rng;
use augur_expr::{Assignment, ExprId, ExprPool};
use augur_solver::SolverChain;

/// Hill-climbing rounds over all points.
const ROUNDS: usize = 3;
/// Candidates checked with the solver when the samples cannot tell them apart.
const SOLVER_TRIES: usize = 24;

/// Per candidate of a point: which samples satisfy it.
type Table = Vec<Vec<bool>>;

/// Which of `samples` (`n` of them) satisfy each candidate: the candidates are one
/// [`Checker`], run once per sample.
fn table<'s>(
    pool: &ExprPool,
    cands: &[Pred],
    samples: impl Iterator<Item = &'s Assignment>,
    n: usize,
) -> Table {
    let mut t = vec![Vec::with_capacity(n); cands.len()];
    let exprs: Vec<ExprId> = cands.iter().map(|c| c.expr).collect();
    let mut checker = Checker::new(pool, &exprs);
    let mut holds = Vec::with_capacity(cands.len());
    for s in samples {
        checker.holds_each(s, &mut holds);
        for (row, &h) in t.iter_mut().zip(&holds) {
            row.push(h);
        }
    }
    t
}

/// Samples satisfying every chosen predicate except point `skip`'s.
fn others(tables: &[Table], chosen: &[Option<usize>], skip: usize, n: usize) -> Vec<bool> {
    let mut keep = vec![true; n];
    for (k, (t, c)) in tables.iter().zip(chosen).enumerate() {
        if let (true, Some(c)) = (k != skip, c) {
            for (x, y) in keep.iter_mut().zip(&t[*c]) {
                *x &= *y;
            }
        }
    }
    keep
}

/// The weight of the inputs kept by both `keep` and `row`.
fn weighed_hits(weights: &[usize], keep: &[bool], row: &[bool]) -> usize {
    weights
        .iter()
        .zip(keep.iter().zip(row))
        .filter(|(_, (a, b))| **a && **b)
        .map(|(w, _)| w)
        .sum()
}

/// The predicate expressions chosen for every point but `skip`.
fn chosen_exprs(cands: &[Vec<Pred>], chosen: &[Option<usize>], skip: usize) -> Vec<ExprId> {
    chosen
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != skip)
        .filter_map(|(k, c)| c.map(|c| cands[k][c].expr))
        .collect()
}

/// Choose one predicate per point (None where no non-trivial one exists) among `cands`
/// (all true on the seed), given samples of the path condition `pc` and inputs
/// `forbidden` to exclude before any sample (as assignments of the path's inputs).
pub fn synthesize(
    pool: &mut ExprPool,
    solver: &mut SolverChain,
    pc: &[ExprId],
    cands: &[Vec<Pred>],
    samples: &[Assignment],
    forbidden: &[Assignment],
    rng: &mut Rng,
) -> Result<Vec<Option<Pred>>, String> {
    let n = samples.len() + forbidden.len();
    let mut weights = vec![1; samples.len()];
    weights.resize(n, samples.len() + 1);
    let hits = |keep: &[bool], row: &[bool]| weighed_hits(&weights, keep, row);
    let tables: Vec<Table> = cands
        .iter()
        .map(|c| table(pool, c, samples.iter().chain(forbidden), n))
        .collect();
    let mut chosen: Vec<Option<usize>> = vec![None; cands.len()];
    for _ in 0..ROUNDS {
        let mut changed = false;
        for k in 0..cands.len() {
            let keep = others(&tables, &chosen, k, n);
            let now = chosen[k].map_or(hits(&keep, &keep), |c| hits(&keep, &tables[k][c]));
            // Among the best, a random one: bugs from the same seed differ.
            let counts: Vec<usize> = tables[k].iter().map(|row| hits(&keep, row)).collect();
            let Some(&best) = counts.iter().min() else {
                continue;
            };
            if best >= now {
                continue;
            }
            let ties: Vec<usize> = (0..counts.len()).filter(|&i| counts[i] == best).collect();
            chosen[k] = Some(ties[rng.below(ties.len() as u64) as usize]);
            changed = true;
        }
        if !changed {
            break;
        }
    }
    // Points the samples could not narrow: the predicate with fewest hits that the
    // solver shows is not implied by the path and the other predicates.
    for k in 0..cands.len() {
        if chosen[k].is_some() {
            continue;
        }
        let keep = others(&tables, &chosen, k, n);
        let mut order: Vec<(usize, u64, usize)> = (0..cands[k].len())
            .map(|i| (hits(&keep, &tables[k][i]), rng.next_u64(), i))
            .collect();
        order.sort_unstable();
        let mut context = pc.to_vec();
        context.extend(chosen_exprs(cands, &chosen, k));
        for &(_, _, i) in order.iter().take(SOLVER_TRIES) {
            let negated = pool.not(cands[k][i].expr);
            if solver
                .may_be_true(pool, &context, negated)
                .map_err(|e| e.to_string())?
            {
                chosen[k] = Some(i);
                break;
            }
        }
    }
    Ok(chosen
        .iter()
        .enumerate()
        .map(|(k, c)| c.map(|c| cands[k][c].clone()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::{Op, Side};
    use augur_expr::{ArrayId, CmpOp};

    fn pred(pool: &mut ExprPool, x: ExprId, op: Op, c: u128) -> Pred {
        let k = pool.constant(c, 8);
        let expr = match op {
            Op::Gt => pool.cmp(CmpOp::Ult, k, x),
            Op::Lt => pool.cmp(CmpOp::Ult, x, k),
            Op::Eq => pool.cmp(CmpOp::Eq, x, k),
            _ => unreachable!(),
        };
        Pred {
            lhs: Side::Var("x".into(), 1),
            op,
            rhs: Side::Const(c as i64),
            expr,
        }
    }

    /// The input x = v.
    fn byte(v: u8) -> Assignment {
        let mut s = Assignment::default();
        s.set(ArrayId(0), vec![v]);
        s
    }

    /// A pool with one input byte `x` (array 0).
    fn one_byte() -> (ExprPool, ExprId) {
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 1);
        let arr = pool.array_sym(a);
        let i0 = pool.constant(0, 64);
        let x = pool.select(arr, i0);
        (pool, x)
    }

    #[test]
    fn picks_the_narrowest_and_leaves_implied_points_empty() {
        let (mut pool, x) = one_byte();
        // The seed is x = 200; every candidate holds on it.
        let first = vec![
            pred(&mut pool, x, Op::Gt, 10),
            pred(&mut pool, x, Op::Eq, 200),
            pred(&mut pool, x, Op::Gt, 150),
        ];
        let second = vec![
            pred(&mut pool, x, Op::Gt, 150),
            pred(&mut pool, x, Op::Gt, 10),
        ];
        let samples: Vec<Assignment> = (0..=255u8).map(byte).collect();
        let mut solver = SolverChain::new(Default::default());
        let got = synthesize(
            &mut pool,
            &mut solver,
            &[],
            &[first, second],
            &samples,
            &[],
            &mut Rng::new(1),
        )
        .unwrap();
        assert_eq!(got[0].as_ref().map(Pred::text).as_deref(), Some("x == 200"));
        assert!(
            got[1].is_none(),
            "x == 200 implies every candidate of the second point"
        );
    }

    #[test]
    fn a_forbidden_input_is_excluded_before_any_sample() {
        let (mut pool, x) = one_byte();
        // The seed is x = 200: x > 199 holds on 56 of the 256 samples, x < 201 on 201.
        let point = vec![
            pred(&mut pool, x, Op::Gt, 199),
            pred(&mut pool, x, Op::Lt, 201),
        ];
        let samples: Vec<Assignment> = (0..=255u8).map(byte).collect();
        let mut solver = SolverChain::new(Default::default());
        let mut pick = |forbidden: &[Assignment]| {
            let got = synthesize(
                &mut pool,
                &mut solver,
                &[],
                std::slice::from_ref(&point),
                &samples,
                forbidden,
                &mut Rng::new(1),
            )
            .unwrap();
            got[0].as_ref().map(Pred::text)
        };
        assert_eq!(pick(&[]).as_deref(), Some("x > 199"));
        assert_eq!(
            pick(&[byte(255)]).as_deref(),
            Some("x < 201"),
            "x > 199 would fire on the forbidden 255"
        );
    }
}
