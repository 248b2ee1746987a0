//! The inputs a test of an ended path is written from, so that no run that explored paths
//! ends without a test: the path's example inputs (`State::example_inputs`) when the
//! evaluator finds they satisfy the whole path condition, else a model from the solver
//! (for a partial path, within [`PARTIAL_BUDGET`]: its path condition is often what a
//! solver timeout ended it on). Failing both, the inputs satisfying the longest prefix of
//! the path condition make a prefix-only test, written only if the run would otherwise end
//! with none.

use super::Executor;
use crate::outcome::Outcome;
use crate::state::State;
use crate::testcase::{PrefixOnly, TestCase};
use augur_expr::{ArrayId, Assignment, Evaluator, ExprId, ExprPool};
use std::time::{Duration, Instant};

/// The most time the solver gets to find a partial path's inputs.
const PARTIAL_BUDGET: Duration = Duration::from_secs(1);

/// The inputs found for a test.
pub(super) enum TestInputs {
    /// Inputs following the whole path.
    Whole(Assignment),
    /// Inputs following only a prefix of the path condition.
    Prefix(Assignment, PrefixOnly),
}

/// A prefix-only test kept in case the run ends without any test.
pub(super) struct KeptPrefixTest {
    test: TestCase,
    /// Its path ended as partial (so it counts in `partial_without_test` until written).
    partial: bool,
}

impl Executor {
    /// The inputs a test of `st` (not seeded) is written from.
    pub(super) fn test_inputs(
        &mut self,
        st: &State,
        partial: bool,
        arrays: &[ArrayId],
    ) -> TestInputs {
        let examples = st.example_assignment();
        let followed = satisfied_prefix(&self.pool, &st.constraints, &examples);
        let whole = followed == st.constraints.len();
        if partial && whole {
            return TestInputs::Whole(examples);
        }
        let saved = self.solver.deadline();
        if partial {
            let budget = Instant::now() + PARTIAL_BUDGET;
            self.solver
                .set_deadline(Some(saved.map_or(budget, |d| d.min(budget))));
        }
        let constraints = st.constraints.clone();
        let model = self.solver.model(&mut self.pool, &constraints, arrays);
        self.solver.set_deadline(saved);
        match model {
            Ok(m) => TestInputs::Whole(m),
            Err(_) if whole => TestInputs::Whole(examples),
            Err(e) => {
                tracing::warn!("no test for a path: solver: {e}");
                // No inputs at all follow the empty prefix too.
                let none = Assignment::default();
                let zeros = satisfied_prefix(&self.pool, &st.constraints, &none);
                let (inputs, satisfied) = if zeros > followed {
                    (none, zeros)
                } else {
                    (examples, followed)
                };
                let prefix = PrefixOnly {
                    satisfied,
                    constraints: st.constraints.len(),
                };
                TestInputs::Prefix(inputs, prefix)
            }
        }
    }

    /// Keep prefix-only test `test` (of a path ended as partial if `partial`) if it follows
    /// more of its path than the one kept so far.
    pub(super) fn keep_prefix_test(&mut self, test: TestCase, partial: bool) {
        let satisfied = |t: &TestCase| t.prefix.as_ref().map_or(0, |p| p.satisfied);
        if self
            .prefix_test
            .as_ref()
            .is_none_or(|k| satisfied(&k.test) < satisfied(&test))
        {
            self.prefix_test = Some(KeptPrefixTest { test, partial });
        }
    }

    /// At the end of a run with no test: write the prefix-only test kept, if any.
    pub(super) fn write_prefix_test(&mut self) {
        if self.stats.tests > 0 {
            return;
        }
        let Some(kept) = self.prefix_test.take() else {
            return;
        };
        if kept.partial {
            self.stats.partial_without_test -= 1;
        }
        self.stats.tests += 1;
        self.sink.write(&kept.test);
    }
}

/// The outcome a prefix-only test states: partial, since its inputs leave the path.
pub(super) fn prefix_outcome(outcome: &Outcome, prefix: &PrefixOnly) -> Outcome {
    let ended = match outcome {
        Outcome::Partial(reason) => reason.clone(),
        Outcome::Exit(code) => format!("the path exited with {code}"),
        Outcome::Signal(sig) => format!("the path was ended by signal {sig}"),
        Outcome::Error(e) => format!("the path ended in {}: {}", e.kind.name(), e.message),
        Outcome::Dropped => "the path was dropped".into(),
    };
    Outcome::Partial(format!(
        "{ended}; inputs found for only the first {} of its {} path constraints",
        prefix.satisfied, prefix.constraints
    ))
}

/// How many of `constraints`, from the first, `inputs` satisfies.
fn satisfied_prefix(pool: &ExprPool, constraints: &[ExprId], inputs: &Assignment) -> usize {
    let mut eval = Evaluator::new(pool, inputs);
    constraints
        .iter()
        .take_while(|c| eval.eval(**c) == 1)
        .count()
}
