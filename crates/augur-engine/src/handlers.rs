//! Special functions: one table maps a function name to the Rust handler that executes
//! calls of it (intrinsics, allocation, process control), with the parameters it reads.
//! The handlers themselves live in augur-env, by family. As in KLEE's
//! SpecialFunctionHandler, a call whose arguments do not fit the handler's parameters (a
//! program declaring a modelled function differently) ends that path as `unsupported`; a
//! handler may index its parameters freely.

use crate::executor::{Exec, Executor};
use crate::state::State;
use crate::value::Value;
use augur_expr::ExprPool;
use augur_ir::{FuncId, Function, Program, Ty, TyId};
use rustc_hash::FxHashMap;

/// What a handler sees of the call.
pub struct Call<'a> {
    /// The called function.
    pub func: FuncId,
    /// Argument values (at least the handler's parameters).
    pub args: &'a [Value],
    /// The callee's return type.
    pub ret_ty: TyId,
}

/// A special-function handler: returns the call's result (None for void), or ends the path.
pub type Handler = fn(&mut Executor, &mut State, &Call) -> Exec<Option<Value>>;

/// The kind of a parameter a handler reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// An integer of at most 64 bits.
    Int,
    /// A pointer.
    Ptr,
}

impl Param {
    fn name(self) -> &'static str {
        match self {
            Param::Int => "an integer",
            Param::Ptr => "a pointer",
        }
    }

    /// Whether a declared parameter of type `ty` can hold this kind.
    fn declared_as(self, prog: &Program, ty: TyId) -> bool {
        match (self, &prog.ty(ty).ty) {
            (Param::Ptr, Ty::Ptr) => true,
            (Param::Int, Ty::Int(w)) => *w <= 64,
            _ => false,
        }
    }

    /// Whether an argument value can be this kind.
    fn fits(self, pool: &ExprPool, v: &Value) -> bool {
        match v {
            Value::Con { .. } | Value::Sym(_) => match self {
                Param::Int => v.width(pool) <= 64,
                Param::Ptr => v.width(pool) == 64,
            },
            Value::Agg(_) | Value::Wide { .. } => false,
        }
    }
}

/// The parameters a handler reads: these first, then any number more when `variadic`.
#[derive(Copy, Clone, Debug)]
pub struct Signature {
    /// The parameters, in order.
    pub params: &'static [Param],
    /// Whether further arguments may follow (and are ignored or read by the handler).
    pub variadic: bool,
}

impl Signature {
    /// Exactly these parameters.
    pub const fn of(params: &'static [Param]) -> Signature {
        Signature {
            params,
            variadic: false,
        }
    }

    /// These parameters, then any number more.
    pub const fn variadic(params: &'static [Param]) -> Signature {
        Signature {
            params,
            variadic: true,
        }
    }

    /// Why a declaration of `f` does not fit, if it does not: too few or too many declared
    /// parameters, or one of another kind. An unprototyped or variadic declaration is
    /// checked at each call instead.
    pub fn mismatch_with(&self, prog: &Program, f: &Function) -> Option<String> {
        let declared = f.params.len();
        let wanted = self.params.len();
        if declared < wanted && !f.is_var_arg {
            return Some(format!(
                "`{}` is declared with {declared} parameters; augur's model reads {wanted} ({})",
                f.name,
                self.describe()
            ));
        }
        if declared > wanted && !self.variadic {
            return Some(format!(
                "`{}` is declared with {declared} parameters; augur's model takes {wanted} ({})",
                f.name,
                self.describe()
            ));
        }
        let (i, p) = self
            .params
            .iter()
            .zip(&f.params)
            .enumerate()
            .find(|(_, (p, (_, ty)))| !p.declared_as(prog, *ty))
            .map(|(i, (p, _))| (i, *p))?;
        Some(format!(
            "`{}` declares parameter {} as another type than {} ({})",
            f.name,
            i + 1,
            p.name(),
            self.describe()
        ))
    }

    /// Why the arguments of a call of `name` do not fit, if they do not.
    pub fn mismatch_with_args(
        &self,
        pool: &ExprPool,
        name: &str,
        args: &[Value],
    ) -> Option<String> {
        let wanted = self.params.len();
        if args.len() < wanted || (args.len() > wanted && !self.variadic) {
            return Some(format!(
                "`{name}` called with {} arguments; augur's model takes {wanted} ({})",
                args.len(),
                self.describe()
            ));
        }
        let (i, p) = self
            .params
            .iter()
            .zip(args)
            .enumerate()
            .find(|(_, (p, v))| !p.fits(pool, v))
            .map(|(i, (p, _))| (i, *p))?;
        Some(format!(
            "`{name}` called with argument {} not {} ({})",
            i + 1,
            p.name(),
            self.describe()
        ))
    }

    /// The parameters, as `pointer, integer, ...`.
    fn describe(&self) -> String {
        let mut parts: Vec<&str> = self
            .params
            .iter()
            .map(|p| match p {
                Param::Int => "integer",
                Param::Ptr => "pointer",
            })
            .collect();
        if self.variadic {
            parts.push("...");
        }
        parts.join(", ")
    }
}

/// A handler with its signature.
#[derive(Copy, Clone)]
pub struct Special {
    /// What it reads.
    pub sig: Signature,
    /// What it does.
    pub handler: Handler,
}

/// Name -> handler.
#[derive(Default, Clone)]
pub struct HandlerTable(FxHashMap<&'static str, Special>);

impl HandlerTable {
    /// Register `handler` for calls of `name`, reading the parameters `sig`.
    pub fn add(&mut self, name: &'static str, sig: Signature, handler: Handler) {
        self.0.insert(name, Special { sig, handler });
    }

    /// The handler for `name`.
    pub fn get(&self, name: &str) -> Option<Special> {
        self.0.get(name).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::{Param, Signature};
    use crate::value::Value;
    use augur_expr::ExprPool;

    const SIG: Signature = Signature::of(&[Param::Ptr, Param::Int]);

    #[test]
    fn arguments_are_checked_by_count_and_kind() {
        let pool = ExprPool::new();
        let ptr = Value::con(0x1000, 64);
        let int = Value::con(4, 32);
        assert_eq!(
            SIG.mismatch_with_args(&pool, "f", &[ptr.clone(), int.clone()]),
            None
        );
        let few = SIG
            .mismatch_with_args(&pool, "f", std::slice::from_ref(&ptr))
            .unwrap();
        assert!(few.contains("called with 1 arguments"), "{few}");
        let many = SIG.mismatch_with_args(&pool, "f", &[ptr.clone(), int.clone(), int.clone()]);
        assert!(many.is_some());
        let kind = SIG
            .mismatch_with_args(&pool, "f", &[int.clone(), int.clone()])
            .unwrap();
        assert!(kind.contains("argument 1 not a pointer"), "{kind}");
        let variadic = Signature::variadic(&[Param::Ptr]);
        assert_eq!(
            variadic.mismatch_with_args(&pool, "g", &[ptr, int.clone(), int]),
            None
        );
    }
}
