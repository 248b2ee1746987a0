//! The query log (in front of Z3 when asked for): every query reaching Z3 is written as a
//! stand-alone SMT-LIB2 script, with the answer Z3 gave and the time the layers below
//! took to give it as comments, so it can be replayed in any SMT solver
//! (`z3 query-000001.smt2`) and set beside the run's own time.

use crate::{SatResult, Solver, SolverError};
use augur_expr::{ExprId, ExprPool};
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Writes `DIR/query-NNNNNN.smt2` for every query passed on to `inner`, numbered from 1
/// after the files already in `DIR` (several chains may share one directory).
pub(crate) struct QueryLog {
    inner: Box<dyn Solver>,
    dir: PathBuf,
    /// The number tried for the next file.
    next: u64,
    /// Whether a failed write was reported already (reported once, the run goes on).
    failed: bool,
}

impl QueryLog {
    /// The layer in front of `inner`, writing into the existing directory `dir`.
    pub(crate) fn new(inner: Box<dyn Solver>, dir: &Path) -> Self {
        QueryLog {
            inner,
            dir: dir.to_path_buf(),
            next: 1,
            failed: false,
        }
    }

    /// A new file with the first free number.
    fn create(&mut self) -> std::io::Result<File> {
        loop {
            let path = self.dir.join(format!("query-{:06}.smt2", self.next));
            self.next += 1;
            match OpenOptions::new().write(true).create_new(true).open(path) {
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                other => return other,
            }
        }
    }

    /// Write the script of `constraints`, `answer` and the time `took` to answer.
    fn write(&mut self, pool: &ExprPool, constraints: &[ExprId], answer: &str, took: Duration) {
        let script = pool.to_smtlib2(constraints);
        let seconds = took.as_secs_f64();
        let written = self
            .create()
            .and_then(|mut f| writeln!(f, "{script}; answer: {answer}\n; time: {seconds:.6} s"));
        if let Err(e) = written {
            if !self.failed {
                tracing::error!("cannot write a query to {}: {e}", self.dir.display());
                self.failed = true;
            }
        }
    }
}

/// The answer as written in the log: `sat`, `unsat`, `timeout` or `unknown (reason)`.
fn answer_text(answer: &Result<SatResult, SolverError>) -> String {
    match answer {
        Ok(SatResult::Sat(_)) => "sat".into(),
        Ok(SatResult::Unsat) => "unsat".into(),
        Err(SolverError::Timeout) => "timeout".into(),
        Err(SolverError::Unknown(reason)) => format!("unknown ({})", reason.replace('\n', " ")),
    }
}

impl Solver for QueryLog {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let answer = self.inner.check(pool, constraints);
        let took = start.elapsed();
        self.write(pool, constraints, &answer_text(&answer), took);
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::var;
    use crate::z3_backend::Z3Backend;

    /// The answer comment of a logged script.
    fn logged_answer(script: &str) -> &str {
        script
            .lines()
            .find_map(|l| l.strip_prefix("; answer: "))
            .expect("an answer comment")
    }

    #[test]
    fn logged_queries_parse_back_into_z3_with_the_same_answer() {
        let mut p = ExprPool::new();
        let (_, x) = var(&mut p, "x", 2);
        let (a, y) = var(&mut p, "in|put", 4);
        let arr = p.array_sym(a);
        let idx = p.zext(x, 64);
        let read = p.select(arr, idx);
        let (k3, k7) = (p.constant(3, 16), p.constant(7, 8));
        let small = p.ult(x, k3);
        let seven = p.eq(read, k7);
        let y_low = p.extract(y, 0, 8);
        let differs = p.eq(y_low, read);
        let not_seven = p.not(seven);
        let queries = [vec![small, seven], vec![small, seven, differs, not_seven]];
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("query-000001.smt2"), "kept").unwrap();
        let z3 = Z3Backend::new(None, Default::default());
        let mut log = QueryLog::new(Box::new(z3), dir.path());
        for q in &queries {
            log.check(&p, q).unwrap();
        }
        let read_log = |n: u32| {
            std::fs::read_to_string(dir.path().join(format!("query-{n:06}.smt2"))).unwrap()
        };
        assert_eq!(read_log(1), "kept", "existing files are not overwritten");
        for (q, n) in queries.iter().zip(2..) {
            let script = read_log(n);
            let solver = z3::Solver::new();
            solver.from_string(script.as_str());
            assert_eq!(solver.get_assertions().len(), q.len(), "{script}");
            let again = match solver.check() {
                z3::SatResult::Sat => "sat",
                z3::SatResult::Unsat => "unsat",
                z3::SatResult::Unknown => "unknown",
            };
            assert_eq!(again, logged_answer(&script), "{script}");
        }
        assert_eq!(logged_answer(&read_log(2)), "sat");
        let took = |script: &str| -> f64 {
            let line = script.lines().find_map(|l| l.strip_prefix("; time: "));
            line.and_then(|t| t.strip_suffix(" s")?.parse().ok())
                .expect("a time comment")
        };
        for n in [2, 3] {
            let seconds = took(&read_log(n));
            assert!(seconds > 0.0 && seconds < 10.0, "query {n}: {seconds} s");
        }
        assert_eq!(logged_answer(&read_log(3)), "unsat");
    }

    #[test]
    fn errors_are_logged_as_such() {
        assert_eq!(answer_text(&Err(SolverError::Timeout)), "timeout");
        assert_eq!(
            answer_text(&Err(SolverError::Unknown("a\nb".into()))),
            "unknown (a b)"
        );
    }
}
