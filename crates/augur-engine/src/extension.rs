//! Drivers' own data and hooks. A driver (diff, explain, repro, inject) keeps per-path data
//! in a state's [`Extensions`] (a typed map, cloned on fork, copy-on-write per entry) and
//! joins the executor through an [`Extension`]: it may intercept calls (supplying their
//! result) and choose the array behind a new symbolic input. The engine names no driver.

use crate::executor::{Exec, Executor};
use crate::handlers::Call;
use crate::state::State;
use crate::value::Value;
use augur_expr::{ArrayId, ExprPool};
use augur_ir::Function;
use std::any::{Any, TypeId};
use std::rc::Rc;

/// Per-path data of drivers, one value per type. Cloning (forking) shares every value; the
/// first write through [`Extensions::get_mut`] on either side copies that value only.
#[derive(Clone, Default)]
pub struct Extensions(Vec<(TypeId, Rc<dyn Any>)>);

impl Extensions {
    /// The value of type `T`, if the path has one.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0
            .iter()
            .find(|(t, _)| *t == TypeId::of::<T>())
            .and_then(|(_, v)| v.downcast_ref())
    }

    /// The value of type `T` for writing (copied first if another path shares it).
    pub fn get_mut<T: Any + Clone>(&mut self) -> Option<&mut T> {
        let slot = self.0.iter_mut().find(|(t, _)| *t == TypeId::of::<T>())?;
        if Rc::get_mut(&mut slot.1).is_none() {
            let copy: T = slot.1.downcast_ref::<T>()?.clone();
            slot.1 = Rc::new(copy);
        }
        Rc::get_mut(&mut slot.1)?.downcast_mut()
    }

    /// The value of type `T`, inserted as `T::default()` when the path has none.
    pub fn get_or_default<T: Any + Clone + Default>(&mut self) -> &mut T {
        if self.get::<T>().is_none() {
            self.insert(T::default());
        }
        self.get_mut().expect("just inserted")
    }

    /// Set the path's value of type `T`, replacing any earlier one.
    pub fn insert<T: Any>(&mut self, value: T) {
        let v: Rc<dyn Any> = Rc::new(value);
        match self.0.iter_mut().find(|(t, _)| *t == TypeId::of::<T>()) {
            Some(slot) => slot.1 = v,
            None => self.0.push((TypeId::of::<T>(), v)),
        }
    }
}

/// What an intercepting extension did with a call.
pub enum Intercepted {
    /// The call's result (None for a void call): the call itself does not run.
    Result(Option<Value>),
    /// Run the call as usual (handler, body or external).
    Proceed,
}

/// A driver's hooks into the executor, beyond watching it ([`crate::Observer`]). Every
/// method has a default that changes nothing.
pub trait Extension: Any {
    /// Whether calls of `func` go to [`Extension::call`]; asked once per function when the
    /// extension is added, so other calls cost nothing.
    fn intercepts(&self, _func: &Function) -> bool {
        false
    }

    /// A call of an intercepted function, before it runs. The arguments are the call's own
    /// (their number is the call's, not the declaration's).
    fn call(&mut self, _ex: &mut Executor, _st: &mut State, _call: &Call) -> Exec<Intercepted> {
        Ok(Intercepted::Proceed)
    }

    /// The array behind the `index`-th symbolic input a path creates, named `name`, of
    /// `size` bytes; None: a fresh array (the default).
    fn input_array(
        &mut self,
        _pool: &mut ExprPool,
        _index: usize,
        _name: &str,
        _size: u64,
    ) -> Option<ArrayId> {
        None
    }

    /// The extension as `Any`, so a driver can get its own type back
    /// ([`Executor::extension`]).
    fn as_any(&self) -> &dyn Any;
}

#[cfg(test)]
mod tests {
    use super::Extensions;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Revision(u32);

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Log(Vec<u8>);

    #[test]
    fn values_are_kept_per_type() {
        let mut e = Extensions::default();
        assert_eq!(e.get::<Revision>(), None);
        e.insert(Revision(3));
        e.get_or_default::<Log>().0.push(7);
        assert_eq!(e.get::<Revision>(), Some(&Revision(3)));
        assert_eq!(e.get::<Log>(), Some(&Log(vec![7])));
        e.insert(Revision(4));
        assert_eq!(e.get::<Revision>(), Some(&Revision(4)));
    }

    #[test]
    fn a_fork_copies_on_write() {
        let mut parent = Extensions::default();
        parent.insert(Log(vec![1]));
        let mut child = parent.clone();
        child.get_mut::<Log>().unwrap().0.push(2);
        parent.get_mut::<Log>().unwrap().0.push(3);
        assert_eq!(parent.get::<Log>(), Some(&Log(vec![1, 3])));
        assert_eq!(child.get::<Log>(), Some(&Log(vec![1, 2])));
    }
}
