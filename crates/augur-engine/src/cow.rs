//! Copy-on-write access to shared parts of a state (frames, memory objects, chunks of
//! their bytes).

use std::rc::Rc;

/// `rc`'s value, mutably: copied first if another state shares it. As `Rc::make_mut`,
/// but the check runs inline and the copy out of line: writes to a part the state
/// already owns are the common case, on every register write and store.
#[inline(always)]
pub fn own<T: Clone>(rc: &mut Rc<T>) -> &mut T {
    if Rc::get_mut(rc).is_none() {
        copy_shared(rc);
    }
    Rc::get_mut(rc).expect("the value is this state's own")
}

/// Make `rc` the only reference to its (copied) value.
#[cold]
#[inline(never)]
fn copy_shared<T: Clone>(rc: &mut Rc<T>) {
    Rc::make_mut(rc);
}

#[cfg(test)]
mod tests {
    use super::own;
    use std::rc::Rc;

    #[test]
    fn a_shared_value_is_copied_and_an_owned_one_written_in_place() {
        let mut a = Rc::new(vec![1]);
        let b = a.clone();
        own(&mut a).push(2);
        assert_eq!(*a, [1, 2], "a copy written");
        assert_eq!(*b, [1], "the other side unchanged");
        let before = Rc::as_ptr(&a);
        own(&mut a).push(3);
        assert_eq!(Rc::as_ptr(&a), before, "written in place");
        assert_eq!(*a, [1, 2, 3]);
    }
}
