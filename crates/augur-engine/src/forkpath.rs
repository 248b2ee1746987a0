//! A path's fork decisions: at each fork with more than one feasible case, the index of
//! the case the path took (the index in the `cases` given to [`crate::Executor::fork`], so
//! stable from one run to the next). Kept as a shared chain, so a fork costs one small
//! allocation per state and cloning a state copies a pointer.

use std::rc::Rc;

/// The fork decisions of a path, oldest first.
#[derive(Clone, Debug, Default)]
pub struct ForkPath(Option<Rc<Link>>);

#[derive(Debug)]
struct Link {
    case: u32,
    len: u32,
    parent: Option<Rc<Link>>,
}

impl ForkPath {
    /// This path followed by one more decision.
    pub fn then(&self, case: usize) -> ForkPath {
        ForkPath(Some(Rc::new(Link {
            case: case as u32,
            len: self.len() as u32 + 1,
            parent: self.0.clone(),
        })))
    }

    /// Number of decisions.
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |l| l.len as usize)
    }

    /// Whether the path made no decision yet.
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The decisions, oldest first.
    pub fn decisions(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.len());
        let mut at = self.0.as_deref();
        while let Some(l) = at {
            out.push(l.case);
            at = l.parent.as_deref();
        }
        out.reverse();
        out
    }
}

impl Drop for ForkPath {
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
    fn decisions_are_shared_and_ordered() {
        let root = ForkPath::default();
        let a = root.then(0).then(2);
        let b = a.then(1);
        let c = a.then(0);
        assert_eq!(b.decisions(), vec![0, 2, 1]);
        assert_eq!(c.decisions(), vec![0, 2, 0]);
        assert_eq!((root.len(), a.len(), b.len()), (0, 2, 3));
        assert!(root.is_empty() && !a.is_empty());
    }

    #[test]
    fn a_long_path_drops_without_recursion() {
        let mut p = ForkPath::default();
        for i in 0..1_000_000 {
            p = p.then(i % 2);
        }
        assert_eq!(p.len(), 1_000_000);
        drop(p);
    }
}
