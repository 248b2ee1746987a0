//! Hash-consed bit-vector and byte-array expressions for the augur symbolic executor.
//!
//! Every expression lives in an [`ExprPool`], an append-only interning arena: building the
//! same expression twice yields the same [`ExprId`], so structural equality is id equality.
//! Expressions are bit-vectors of width 1..=128 (width 1 doubles as the boolean sort) or
//! byte arrays indexed by 64-bit bit-vectors. Floating point is bit-vectors too: the IEEE
//! bit patterns of binary32 and binary64 values, with operations of their own ([`float`]). The builders on [`ExprPool`] simplify on
//! construction (constant folding, canonical operand order, identities); [`ExprPool::raw`]
//! interns a node exactly as given.

mod assignment;
pub mod bits;
mod build;
mod compiled;
mod display;
mod eval;
pub mod float;
mod float_build;
mod kind;
mod leaves;
mod pool;
mod range;
mod rng;
mod smtlib;
mod smtlib_float;
mod stride;
mod sugar;

#[cfg(test)]
mod random_tests;

pub use assignment::Assignment;
pub use compiled::{CompiledQuery, Scratch};
pub use eval::Evaluator;
pub use kind::{ArrayId, BinOp, CmpOp, ExprId, ExprKind, FpBinOp, FpCmpOp, FpConvOp};
pub use leaves::LEAF_LIMIT;
pub use pool::ExprPool;
pub use rng::Rng;
pub use stride::Stride;
