//! Why a query could not be answered.

use std::fmt;

/// A query the solver could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The solver's time limit elapsed.
    Timeout,
    /// The solver gave up (or the query was ill-posed) for the given reason.
    Unknown(String),
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::Timeout => write!(f, "solver timeout"),
            SolverError::Unknown(reason) => write!(f, "solver returned unknown: {reason}"),
        }
    }
}

impl std::error::Error for SolverError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_reason() {
        assert_eq!(SolverError::Timeout.to_string(), "solver timeout");
        assert!(SolverError::Unknown("incomplete".into())
            .to_string()
            .contains("incomplete"));
    }
}
