//! How a path ends: normal exit, an error of a known kind, or a stop by a limit.

use serde::Serialize;

/// The error kinds augur reports (their names are part of the output format).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum ErrorKind {
    /// `assert`, `augur_assert`, `klee_assert`, `__assert_fail`.
    Assertion,
    /// `abort()`.
    Abort,
    /// SV-COMP's `reach_error()`.
    ReachError,
    /// Dereference of a null pointer.
    NullDereference,
    /// Access outside every object (heap, stack, global).
    OutOfBounds,
    /// Access to freed heap memory.
    UseAfterFree,
    /// `free` of an already freed object.
    DoubleFree,
    /// `free` of something that is not the start of a heap object.
    InvalidFree,
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// `unreachable` executed.
    Unreachable,
    /// Call through a pointer that is not a function.
    BadFunctionPointer,
    /// Call of an external function with no body and no model.
    UnmodeledExternal,
    /// An assumption that is false on its path.
    InvalidAssume,
    /// A misuse of augur's or KLEE's API: an invalid or symbolic pointer where a special
    /// function needs a string, for example.
    User,
    /// Something augur itself cannot execute (unsupported instruction, solver failure).
    Unsupported,
}

impl ErrorKind {
    /// The name used in output files and messages.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Assertion => "assertion",
            ErrorKind::Abort => "abort",
            ErrorKind::ReachError => "reach-error",
            ErrorKind::NullDereference => "null-dereference",
            ErrorKind::OutOfBounds => "out-of-bounds",
            ErrorKind::UseAfterFree => "use-after-free",
            ErrorKind::DoubleFree => "double-free",
            ErrorKind::InvalidFree => "invalid-free",
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::BadFunctionPointer => "bad-function-pointer",
            ErrorKind::UnmodeledExternal => "unmodeled-external",
            ErrorKind::InvalidAssume => "invalid-assume",
            ErrorKind::User => "user",
            ErrorKind::Unsupported => "unsupported",
        }
    }
}

/// One frame of a reported stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StackFrame {
    /// Function name.
    pub function: String,
    /// Source file ("" when unknown).
    pub file: String,
    /// Source line (0 when unknown).
    pub line: u32,
}

/// An error found on a path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathError {
    /// Kind.
    pub kind: ErrorKind,
    /// Human-readable message.
    pub message: String,
    /// Source file of the error.
    pub file: String,
    /// Source line of the error.
    pub line: u32,
    /// Call stack, innermost first.
    pub stack: Vec<StackFrame>,
}

/// How a path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The program exited (return from the entry function or `exit`).
    Exit(i64),
    /// The process was ended by signal number `.0`, whose action was the default one
    /// (`raise(SIGTERM)` with no handler): not an error of the program.
    Signal(i32),
    /// An error.
    Error(Box<PathError>),
    /// A limit stopped the path before its end (reason given).
    Partial(String),
    /// The path was infeasible or dropped silently (e.g. a false `assume` in seeded mode).
    Dropped,
}
