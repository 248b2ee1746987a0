//! Helpers shared by the unit tests of the layers.

use crate::{SatResult, Solver, SolverError};
use augur_expr::{ArrayId, Assignment, ExprId, ExprPool};
use std::cell::RefCell;
use std::rc::Rc;

/// A backend recording every query it receives and answering Sat (with an all-zero
/// model of the constraint arrays) or Unsat.
pub(crate) struct Recorder {
    pub(crate) log: Rc<RefCell<Vec<Vec<ExprId>>>>,
    pub(crate) sat: bool,
}

impl Recorder {
    /// A recorder answering `sat`, and the handle of its log.
    pub(crate) fn new(sat: bool) -> (Self, Rc<RefCell<Vec<Vec<ExprId>>>>) {
        let log = Rc::new(RefCell::new(Vec::new()));
        (
            Recorder {
                log: log.clone(),
                sat,
            },
            log,
        )
    }
}

impl Solver for Recorder {
    fn check(&mut self, pool: &ExprPool, cs: &[ExprId]) -> Result<SatResult, SolverError> {
        self.log.borrow_mut().push(cs.to_vec());
        Ok(if self.sat {
            SatResult::Sat(crate::solver::restrict(pool, &Assignment::default(), cs))
        } else {
            SatResult::Unsat
        })
    }
}

/// A fresh `size`-byte array named `name` and its `size * 8`-bit little-endian value.
pub(crate) fn var(p: &mut ExprPool, name: &str, size: u64) -> (ArrayId, ExprId) {
    let a = p.new_array(name, size);
    let arr = p.array_sym(a);
    let mut value = None;
    for i in 0..size {
        let idx = p.constant(u128::from(i), 64);
        let byte = p.select(arr, idx);
        value = Some(match value {
            None => byte,
            Some(low) => p.concat(byte, low),
        });
    }
    (a, value.expect("arrays have at least one byte"))
}

pub(crate) use augur_expr::Rng;
