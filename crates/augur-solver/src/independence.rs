//! Layer 2: constraint independence at the level of input bytes (as KLEE's independent
//! element sets): constraints over disjoint sets of input bytes are solved separately
//! (smaller queries, far better cache hit rates) and their models merged byte by byte; the
//! chain also uses [`relevant`] to drop constraints unrelated to a query expression.

use crate::{SatResult, Solver, SolverError};
use augur_expr::{ArrayId, Assignment, ExprId, ExprKind, ExprPool};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;

/// An input element: byte `index` of an array, or the whole array (index [`WHOLE`]) when it
/// is read at a symbolic index.
pub(crate) type Elem = (ArrayId, u64);
/// The index of an [`Elem`] that stands for a whole array.
pub(crate) const WHOLE: u64 = u64::MAX;

/// The input elements each expression reads, cached per node; shared by the chain and the
/// independence layer.
#[derive(Default)]
pub(crate) struct Elements {
    cache: FxHashMap<ExprId, Rc<[Elem]>>,
}

/// Shared handle to an element cache.
pub(crate) type SharedElements = Rc<RefCell<Elements>>;

impl Elements {
    /// The elements `e` reads (sorted, deduplicated).
    pub(crate) fn of(&mut self, pool: &ExprPool, e: ExprId) -> Rc<[Elem]> {
        if let Some(s) = self.cache.get(&e) {
            return s.clone();
        }
        for n in pool.post_order(&[e], |n| self.cache.contains_key(&n)) {
            let mut set: Vec<Elem> = match *pool.kind(n) {
                ExprKind::ArraySym(a) => vec![(a, WHOLE)],
                ExprKind::Select { array, index } => match (pool.kind(array), pool.as_const(index))
                {
                    (ExprKind::ArraySym(a), Some(i)) => vec![(*a, i as u64)],
                    (ExprKind::ArraySym(a), None) => {
                        let mut v = self.cache[&index].to_vec();
                        v.push((*a, WHOLE));
                        v
                    }
                    _ => [array, index]
                        .iter()
                        .flat_map(|c| self.cache[c].iter().copied())
                        .collect(),
                },
                ref k => k
                    .children()
                    .flat_map(|c| self.cache[&c].iter().copied())
                    .collect(),
            };
            set.sort_unstable();
            set.dedup();
            self.cache.insert(n, set.into());
        }
        self.cache[&e].clone()
    }
}

/// Union-find over the elements of a set of expressions: two elements are connected when
/// some expression reads both. A byte of an array that is also read whole is the whole array.
struct Partition {
    whole: FxHashSet<ArrayId>,
    index: FxHashMap<Elem, usize>,
    parent: Vec<usize>,
    sets: Vec<Rc<[Elem]>>,
}

impl Partition {
    /// The partition induced by `exprs`.
    fn new(pool: &ExprPool, elems: &mut Elements, exprs: &[ExprId]) -> Self {
        let sets: Vec<Rc<[Elem]>> = exprs.iter().map(|&e| elems.of(pool, e)).collect();
        let whole = sets
            .iter()
            .flat_map(|s| s.iter())
            .filter(|e| e.1 == WHOLE)
            .map(|e| e.0)
            .collect();
        let mut part = Partition {
            whole,
            index: FxHashMap::default(),
            parent: Vec::new(),
            sets: Vec::new(),
        };
        for set in &sets {
            let mut it = set.iter();
            if let Some(&first) = it.next() {
                let root = part.class(first);
                for &el in it {
                    let other = part.class(el);
                    part.parent[other] = root;
                }
            }
        }
        part.sets = sets;
        part
    }

    /// The current class of `el`, creating a singleton for an unseen element.
    fn class(&mut self, el: Elem) -> usize {
        let key = if self.whole.contains(&el.0) {
            (el.0, WHOLE)
        } else {
            el
        };
        let next = self.parent.len();
        let i = *self.index.entry(key).or_insert(next);
        if i == next {
            self.parent.push(next);
        }
        self.find(i)
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// The class of the k-th expression given to [`Partition::new`] (None: reads no input).
    fn class_of(&mut self, k: usize) -> Option<usize> {
        let first = self.sets[k].first().copied();
        first.map(|el| self.class(el))
    }
}

/// The constraints transitively sharing input elements with `exprs`, in their original order.
pub(crate) fn relevant(
    pool: &ExprPool,
    elems: &mut Elements,
    constraints: &[ExprId],
    exprs: &[ExprId],
) -> Vec<ExprId> {
    let all: Vec<ExprId> = constraints.iter().chain(exprs).copied().collect();
    let mut part = Partition::new(pool, elems, &all);
    let mut wanted: Vec<usize> = (constraints.len()..all.len())
        .filter_map(|k| part.class_of(k))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    (0..constraints.len())
        .filter(|&k| {
            part.class_of(k)
                .is_some_and(|c| wanted.binary_search(&c).is_ok())
        })
        .map(|k| constraints[k])
        .collect()
}

/// `constraints` split into groups over pairwise disjoint input elements, in order of first
/// appearance (constraints reading no input form one group), each with its elements.
fn groups(
    pool: &ExprPool,
    elems: &mut Elements,
    constraints: &[ExprId],
) -> Vec<(Vec<ExprId>, Vec<Elem>)> {
    let mut part = Partition::new(pool, elems, constraints);
    let mut slot: FxHashMap<Option<usize>, usize> = FxHashMap::default();
    let mut out: Vec<(Vec<ExprId>, Vec<Elem>)> = Vec::new();
    for (k, &c) in constraints.iter().enumerate() {
        let class = part.class_of(k);
        let next = out.len();
        let i = *slot.entry(class).or_insert(next);
        if i == next {
            out.push((Vec::new(), Vec::new()));
        }
        out[i].0.push(c);
        out[i].1.extend(part.sets[k].iter().map(|&(a, ix)| {
            if part.whole.contains(&a) {
                (a, WHOLE)
            } else {
                (a, ix)
            }
        }));
    }
    out
}

/// Solves each independent group of a query through `inner` and merges the models.
pub(crate) struct Independence {
    inner: Box<dyn Solver>,
    elems: SharedElements,
}

impl Independence {
    /// The layer in front of `inner`, sharing the element cache `elems`.
    pub(crate) fn new(inner: Box<dyn Solver>, elems: SharedElements) -> Self {
        Independence { inner, elems }
    }
}

impl Solver for Independence {
    fn check(&mut self, pool: &ExprPool, constraints: &[ExprId]) -> Result<SatResult, SolverError> {
        let groups = groups(pool, &mut self.elems.borrow_mut(), constraints);
        if groups.len() <= 1 {
            return self.inner.check(pool, constraints);
        }
        let mut model = Assignment::default();
        for (group, elements) in groups {
            let SatResult::Sat(m) = self.inner.check(pool, &group)? else {
                return Ok(SatResult::Unsat);
            };
            // Take from each group's model only the bytes that group decides.
            for (a, ix) in elements {
                let Some(src) = m.get(a) else { continue };
                let dst = model
                    .arrays
                    .entry(a)
                    .or_insert_with(|| vec![0; pool.array_size(a) as usize]);
                if ix == WHOLE {
                    dst.copy_from_slice(src);
                } else if let (Some(d), Some(s)) = (dst.get_mut(ix as usize), src.get(ix as usize))
                {
                    *d = *s;
                }
            }
        }
        Ok(SatResult::Sat(model))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{var, Recorder};

    /// Constraints `x < 5`, `y < 5`, `x == z`, `w < 5` over four one-byte inputs.
    fn setup() -> (ExprPool, [ArrayId; 4], [ExprId; 4], [ExprId; 4]) {
        let mut p = ExprPool::new();
        let (ax, x) = var(&mut p, "x", 1);
        let (ay, y) = var(&mut p, "y", 1);
        let (az, z) = var(&mut p, "z", 1);
        let (aw, w) = var(&mut p, "w", 1);
        let five = p.constant(5, 8);
        let cs = [p.ult(x, five), p.ult(y, five), p.eq(x, z), p.ult(w, five)];
        (p, [ax, ay, az, aw], [x, y, z, w], cs)
    }

    #[test]
    fn relevant_follows_shared_arrays_transitively() {
        let (mut p, _, vals, cs) = setup();
        // a query on z reaches x == z and through x also x < 5
        let three = p.constant(3, 8);
        let q = p.eq(vals[2], three);
        assert_eq!(
            relevant(&p, &mut Elements::default(), &cs, &[q]),
            [cs[0], cs[2]]
        );
        let t = p.bool_const(true);
        assert!(relevant(&p, &mut Elements::default(), &cs, &[t]).is_empty());
        assert_eq!(
            relevant(&p, &mut Elements::default(), &cs, &[cs[1], cs[3]]),
            [cs[1], cs[3]]
        );
    }

    #[test]
    fn groups_partition_by_arrays() {
        let (p, _, _, cs) = setup();
        assert_eq!(
            groups(&p, &mut Elements::default(), &cs)
                .into_iter()
                .map(|g| g.0)
                .collect::<Vec<_>>(),
            [vec![cs[0], cs[2]], vec![cs[1]], vec![cs[3]]]
        );
    }

    #[test]
    fn solves_groups_separately_and_merges_models() {
        let (p, arrays, _, cs) = setup();
        let (rec, log) = Recorder::new(true);
        let mut ind = Independence::new(Box::new(rec), Default::default());
        let SatResult::Sat(m) = ind.check(&p, &cs).unwrap() else {
            panic!("expected sat")
        };
        assert_eq!(log.borrow().len(), 3);
        for a in arrays {
            assert_eq!(m.get(a), Some(&[0u8][..]));
        }
        let (rec, log) = Recorder::new(false);
        let mut ind = Independence::new(Box::new(rec), Default::default());
        assert_eq!(ind.check(&p, &cs), Ok(SatResult::Unsat));
        assert_eq!(log.borrow().len(), 1, "stops at the first unsat group");
        let (rec, log) = Recorder::new(true);
        let mut ind = Independence::new(Box::new(rec), Default::default());
        ind.check(&p, &[cs[0], cs[2]]).unwrap();
        assert_eq!(*log.borrow(), [vec![cs[0], cs[2]]]);
    }

    #[test]
    fn bytes_of_one_array_are_independent_unless_read_at_a_symbolic_index() {
        let mut p = ExprPool::new();
        let a = p.new_array("in", 2);
        let arr = p.array_sym(a);
        let (i0, i1) = (p.constant(0, 64), p.constant(1, 64));
        let (b0, b1) = (p.select(arr, i0), p.select(arr, i1));
        let (k7, k9) = (p.constant(7, 8), p.constant(9, 8));
        let cs = [p.eq(b0, k7), p.eq(b1, k9)];
        let mut el = Elements::default();
        assert_eq!(groups(&p, &mut el, &cs).len(), 2);
        assert_eq!(relevant(&p, &mut el, &cs, &[cs[1]]), [cs[1]]);
        // Solving the groups separately still yields one model with both bytes right.
        let mut chain = crate::SolverChain::new(crate::SolverConfig::default());
        let SatResult::Sat(m) = chain.check(&p, &cs).unwrap() else {
            panic!("sat")
        };
        assert_eq!(m.get(a), Some(&[7u8, 9][..]));
        // A read at a symbolic index ties every byte of the array together.
        let sym = p.zext(b0, 64);
        let via = p.select(arr, sym);
        let k1 = p.constant(1, 8);
        let tied = p.eq(via, k1);
        assert_eq!(groups(&p, &mut el, &[cs[0], cs[1], tied]).len(), 1);
    }
}
