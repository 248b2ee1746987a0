//! A finished path as a test case, and where finished paths go.

use crate::outcome::Outcome;

/// The concrete input of one path and what the engine predicts it does.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// (name, bytes) of each symbolic object, in creation order.
    pub objects: Vec<(String, Vec<u8>)>,
    /// Predicted standard output.
    pub stdout: Vec<u8>,
    /// Predicted standard error.
    pub stderr: Vec<u8>,
    /// The bytes written to standard output and standard error after those predicted
    /// (beyond [`crate::MAX_KEPT_OUTPUT`]): the prediction is then a prefix.
    pub dropped: (u64, u64),
    /// How the path ends.
    pub outcome: Outcome,
    /// Instructions executed on the path.
    pub instructions: u64,
    /// External functions whose results were havocked on the path (`--externals havoc`):
    /// the test depends on values no real library may return.
    pub havocked: Vec<String>,
    /// Set when the inputs follow only a prefix of the path (no inputs for the whole path
    /// were found, and the run would have ended without a test otherwise).
    pub prefix: Option<PrefixOnly>,
}

/// How much of its path condition a prefix-only test's inputs satisfy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefixOnly {
    /// The path constraints, from the first, that the inputs satisfy.
    pub satisfied: usize,
    /// The path constraints.
    pub constraints: usize,
}

/// Receives every finished path as soon as it is found.
pub trait TestSink {
    /// Record a test (the file sink queues it for its writer thread).
    fn write(&mut self, t: &TestCase);
}

/// A sink keeping tests in memory (for drivers and tests).
#[derive(Default)]
pub struct MemorySink(pub std::rc::Rc<std::cell::RefCell<Vec<TestCase>>>);

impl TestSink for MemorySink {
    fn write(&mut self, t: &TestCase) {
        self.0.borrow_mut().push(t.clone());
    }
}
