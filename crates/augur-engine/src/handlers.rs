//! Special functions: one table maps a function name to the Rust handler that executes
//! calls of it (intrinsics, allocation, process control). The handlers themselves live in
//! augur-env, by family.

use crate::executor::{Exec, Executor};
use crate::state::State;
use crate::value::Value;
use augur_ir::TyId;
use rustc_hash::FxHashMap;

/// What a handler sees of the call.
pub struct Call<'a> {
    /// Argument values.
    pub args: &'a [Value],
    /// The callee's return type.
    pub ret_ty: TyId,
}

/// A special-function handler: returns the call's result (None for void), or ends the path.
pub type Handler = fn(&mut Executor, &mut State, &Call) -> Exec<Option<Value>>;

/// Name -> handler.
#[derive(Default, Clone)]
pub struct HandlerTable(FxHashMap<&'static str, Handler>);

impl HandlerTable {
    /// Register `h` for calls of `name`.
    pub fn add(&mut self, name: &'static str, h: Handler) {
        self.0.insert(name, h);
    }

    /// The handler for `name`.
    pub fn get(&self, name: &str) -> Option<Handler> {
        self.0.get(name).copied()
    }
}
