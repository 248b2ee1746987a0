//! What a path chose, for replaying it: its fork decisions (at each fork with more than
//! one feasible case, the index of the case it took, in the `cases` given to
//! [`crate::Executor::fork`], so stable from one run to the next) and the example values
//! the solver gave it (pointer resolution, symbolic function pointers and exit codes,
//! concretizations), which later forks depend on. Each is a shared chain, so recording
//! costs one small allocation and cloning a state copies a pointer.

use std::rc::Rc;

/// A path's choices of one kind, oldest first.
#[derive(Debug)]
pub struct Trail<T>(Option<Rc<Link<T>>>);

/// A path's fork decisions (its depth is their number).
pub type ForkPath = Trail<u32>;

#[derive(Debug)]
struct Link<T> {
    item: T,
    len: u32,
    parent: Option<Rc<Link<T>>>,
}

impl<T> Default for Trail<T> {
    fn default() -> Self {
        Trail(None)
    }
}

impl<T> Clone for Trail<T> {
    fn clone(&self) -> Self {
        Trail(self.0.clone())
    }
}

impl<T: Copy> Trail<T> {
    /// This trail followed by one more choice.
    pub fn then(&self, item: T) -> Trail<T> {
        Trail(Some(Rc::new(Link {
            item,
            len: self.len() as u32 + 1,
            parent: self.0.clone(),
        })))
    }

    /// Number of choices.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |l| l.len as usize)
    }

    /// The latest choice.
    pub fn last(&self) -> Option<T> {
        self.0.as_ref().map(|l| l.item)
    }

    /// Whether no choice was made yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The choices, oldest first.
    pub fn to_vec(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len());
        let mut at = self.0.as_deref();
        while let Some(l) = at {
            out.push(l.item);
            at = l.parent.as_deref();
        }
        out.reverse();
        out
    }
}

impl<T> Drop for Trail<T> {
    /// Drop a long chain link by link (a recursive drop could overflow the stack).
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(link) = next {
            next = match Rc::try_unwrap(link) {
                Ok(mut l) => l.parent.take(),
                Err(_) => None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_shared_and_ordered() {
        let root = ForkPath::default();
        let a = root.then(0).then(2);
        let b = a.then(1);
        let c = a.then(0);
        assert_eq!(b.to_vec(), vec![0, 2, 1]);
        assert_eq!((b.last(), root.last()), (Some(1), None));
        assert_eq!(c.to_vec(), vec![0, 2, 0]);
        assert_eq!((root.len(), a.len(), b.len()), (0, 2, 3));
        assert!(root.is_empty() && !a.is_empty());
    }

    #[test]
    fn a_long_trail_drops_without_recursion() {
        let mut p = ForkPath::default();
        for i in 0..1_000_000 {
            p = p.then(i % 2);
        }
        assert_eq!(p.len(), 1_000_000);
        drop(p);
    }
}
