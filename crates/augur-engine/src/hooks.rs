//! Observer hooks: how drivers (diff, explain, repro, inject) watch an execution without
//! forking the interpreter. Every method has an empty default. (To act on an execution,
//! a driver adds an [`crate::extension::Extension`].)

use crate::outcome::Outcome;
use crate::state::State;
use crate::value::Value;
use augur_expr::ExprId;
use augur_ir::FuncId;

/// A driver watching the executor.
pub trait Observer {
    /// An instruction of `func` at index `pc` is about to execute in `st`.
    fn on_instruction(&mut self, _st: &State, _func: FuncId, _pc: u32) {}
    /// A conditional branch on `cond` went the `taken` way.
    fn on_branch(&mut self, _st: &State, _cond: ExprId, _taken: bool) {}
    /// `func` is called with `args`.
    fn on_call(&mut self, _st: &State, _func: FuncId, _args: &[Value]) {}
    /// The top frame returns `ret`.
    fn on_return(&mut self, _st: &State, _ret: Option<&Value>) {}
    /// A load (`write == false`) or store of `size` bytes at `addr`.
    fn on_memory(&mut self, _st: &State, _addr: &Value, _size: u64, _write: bool) {}
    /// `st` forked off `child` (each already holds its own side's condition); called once
    /// per new state, at every fork site.
    fn on_fork(&mut self, _st: &State, _child: &State) {}
    /// A path ended.
    fn on_terminate(&mut self, _st: &State, _outcome: &Outcome) {}
}
