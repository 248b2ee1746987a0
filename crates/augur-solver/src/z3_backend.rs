//! Layer 5: Z3. One fresh Z3 solver per query (Z3's incremental mode is slower on
//! bit-vector problems), a persistent term cache, an optional per-query time limit and
//! byte-wise model extraction.

use crate::solver::arrays_in;
use crate::stats::SharedStats;
use crate::z3_translate::{array_const, Translator};
use crate::{SatResult, Solver, SolverError};
use augur_expr::{Assignment, ExprId, ExprPool};
use std::time::{Duration, Instant};
use z3::ast::BV;
use z3::{Model, Params};

/// The solver at the end of the chain.
pub(crate) struct Z3Backend {
    translator: Translator,
    timeout: Option<Duration>,
    stats: SharedStats,
}

impl Z3Backend {
    /// A backend giving each query at most `timeout_ms` milliseconds (None: no limit).
    pub(crate) fn new(timeout_ms: Option<u64>, stats: SharedStats) -> Self {
        Z3Backend {
            translator: Translator::default(),
            timeout: timeout_ms.map(Duration::from_millis),
            stats,
        }
    }

    /// The full byte vector of every array of `constraints` in `model`.
    fn extract(pool: &ExprPool, model: &Model, constraints: &[ExprId]) -> Assignment {
        let mut out = Assignment::default();
        for a in arrays_in(pool, constraints) {
            let array = array_const(pool.array_name(a));
            let bytes = (0..pool.array_size(a))
                .map(|i| {
                    model
                        .eval(&array.select(&BV::from_u64(i, 64)), true)
                        .and_then(|v| v.as_bv())
                        .and_then(|v| v.as_u64())
                        .unwrap_or(0) as u8
                })
                .collect();
            out.set(a, bytes);
        }
        out
    }

    /// The error for an `unknown` answer after `elapsed`.
    fn unknown(&self, reason: String, elapsed: Duration) -> SolverError {
        let timed_out = self.timeout.is_some_and(|limit| {
            elapsed >= limit || reason.contains("timeout") || reason.contains("canceled")
        });
        if timed_out {
            self.stats.borrow_mut().timeouts += 1;
            SolverError::Timeout
        } else {
            SolverError::Unknown(reason)
        }
    }
}

impl Solver for Z3Backend {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        self.stats.borrow_mut().solver_calls += 1;
        let solver = z3::Solver::new();
        if let Some(limit) = self.timeout {
            let mut params = Params::new();
            params.set_u32(
                "timeout",
                u32::try_from(limit.as_millis()).unwrap_or(u32::MAX),
            );
            solver.set_params(&params);
        }
        for &c in constraints {
            solver.assert(self.translator.boolean(pool, c));
        }
        let start = Instant::now();
        let result = solver.check();
        let elapsed = start.elapsed();
        self.stats.borrow_mut().time_s += elapsed.as_secs_f64();
        match result {
            z3::SatResult::Unsat => Ok(SatResult::Unsat),
            z3::SatResult::Sat => {
                let model = solver
                    .get_model()
                    .ok_or_else(|| SolverError::Unknown("sat without a model".into()))?;
                Ok(SatResult::Sat(Self::extract(pool, &model, constraints)))
            }
            z3::SatResult::Unknown => {
                let reason = solver.get_reason_unknown().unwrap_or_default();
                Err(self.unknown(reason, elapsed))
            }
        }
    }
}
