//! The interning arena: node storage, hash-consing, widths, symbolic arrays and the
//! per-node sets of arrays an expression depends on.

use crate::{ArrayId, ExprId, ExprKind, FpConvOp};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicU64, Ordering};

/// One interned node.
struct Node {
    kind: ExprKind,
    /// Bit width; 0 for array-sorted nodes.
    width: u32,
    /// Index into [`ArraySets::sets`].
    arrays: u32,
    /// Whether a floating-point node is among the node and its descendants.
    float: bool,
}

/// A symbolic input array.
struct ArrayInfo {
    name: String,
    size: u64,
}

/// Interned sorted sets of array ids; set 0 is the empty set.
struct ArraySets {
    sets: Vec<Box<[ArrayId]>>,
    ids: FxHashMap<Box<[ArrayId]>, u32>,
    scratch: Vec<ArrayId>,
}

impl ArraySets {
    fn new() -> Self {
        let mut sets = ArraySets {
            sets: Vec::new(),
            ids: FxHashMap::default(),
            scratch: Vec::new(),
        };
        sets.intern_scratch();
        sets
    }

    /// Interns the sorted set in `scratch`.
    fn intern_scratch(&mut self) -> u32 {
        if let Some(&id) = self.ids.get(self.scratch.as_slice()) {
            return id;
        }
        let id = self.sets.len() as u32;
        let set: Box<[ArrayId]> = self.scratch.as_slice().into();
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        id
    }

    fn singleton(&mut self, a: ArrayId) -> u32 {
        self.scratch.clear();
        self.scratch.push(a);
        self.intern_scratch()
    }

    fn union(&mut self, a: u32, b: u32) -> u32 {
        if a == b || b == 0 {
            return a;
        }
        if a == 0 {
            return b;
        }
        let (x, y) = (&self.sets[a as usize], &self.sets[b as usize]);
        self.scratch.clear();
        let (mut i, mut j) = (0, 0);
        while i < x.len() && j < y.len() {
            let next = x[i].min(y[j]);
            i += usize::from(x[i] == next);
            j += usize::from(y[j] == next);
            self.scratch.push(next);
        }
        self.scratch.extend_from_slice(&x[i..]);
        self.scratch.extend_from_slice(&y[j..]);
        self.intern_scratch()
    }
}

/// Source of [`ExprPool::uid`] values.
static NEXT_POOL_UID: AtomicU64 = AtomicU64::new(0);

/// An append-only arena of hash-consed expressions plus the symbolic arrays they read.
///
/// Ids are only meaningful for the pool that created them.
pub struct ExprPool {
    nodes: Vec<Node>,
    interned: FxHashMap<ExprKind, ExprId>,
    arrays: Vec<ArrayInfo>,
    array_names: FxHashSet<String>,
    sets: ArraySets,
    uid: u64,
}

impl Default for ExprPool {
    fn default() -> Self {
        Self::new()
    }
}

impl ExprPool {
    /// An empty pool.
    pub fn new() -> Self {
        ExprPool {
            nodes: Vec::new(),
            interned: FxHashMap::default(),
            arrays: Vec::new(),
            array_names: FxHashSet::default(),
            sets: ArraySets::new(),
            uid: NEXT_POOL_UID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// A process-wide unique identity of this pool, so caches keyed by [`ExprId`] can
    /// notice when they are handed a different pool.
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// The node `e`.
    #[inline]
    pub fn kind(&self, e: ExprId) -> &ExprKind {
        &self.nodes[e.0 as usize].kind
    }

    /// Bit width of `e`; 0 for array-sorted expressions.
    #[inline]
    pub fn width(&self, e: ExprId) -> u32 {
        self.nodes[e.0 as usize].width
    }

    /// Whether `e` is array-sorted.
    #[inline]
    pub fn is_array(&self, e: ExprId) -> bool {
        self.width(e) == 0
    }

    /// The value of `e` if it is a constant.
    #[inline]
    pub fn as_const(&self, e: ExprId) -> Option<u128> {
        match self.kind(e) {
            ExprKind::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// Whether `e` holds a floating-point operation (arithmetic, comparison, square
    /// root, conversion), which only the solver's floating-point theory reasons about.
    #[inline]
    pub fn has_float(&self, e: ExprId) -> bool {
        self.nodes[e.0 as usize].float
    }

    /// Number of interned nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Declares a symbolic array of `size` bytes. Repeated names get a suffix
    /// (`x`, `x_1`, `x_2`, ...) so every array name is unique.
    pub fn new_array(&mut self, name: &str, size: u64) -> ArrayId {
        let mut unique = name.to_string();
        let mut n = 0u64;
        while self.array_names.contains(&unique) {
            n += 1;
            unique = format!("{name}_{n}");
        }
        self.array_names.insert(unique.clone());
        self.arrays.push(ArrayInfo { name: unique, size });
        ArrayId(self.arrays.len() as u32 - 1)
    }

    /// Grow array `a` to at least `size` bytes (bytes past the old size are new inputs).
    pub fn grow_array(&mut self, a: ArrayId, size: u64) {
        let info = &mut self.arrays[a.0 as usize];
        info.size = info.size.max(size);
    }

    /// The (unique) name of array `a`.
    pub fn array_name(&self, a: ArrayId) -> &str {
        &self.arrays[a.0 as usize].name
    }

    /// The size in bytes of array `a`.
    pub fn array_size(&self, a: ArrayId) -> u64 {
        self.arrays[a.0 as usize].size
    }

    /// Number of declared symbolic arrays.
    pub fn num_arrays(&self) -> usize {
        self.arrays.len()
    }

    /// The sorted set of symbolic arrays `e` depends on.
    #[inline]
    pub fn arrays_of(&self, e: ExprId) -> &[ArrayId] {
        &self.sets.sets[self.nodes[e.0 as usize].arrays as usize]
    }

    /// The sorted, deduplicated symbolic arrays any of `exprs` depends on.
    pub fn arrays_of_all(&self, exprs: &[ExprId]) -> Vec<ArrayId> {
        let mut arrays: Vec<ArrayId> = exprs
            .iter()
            .flat_map(|&e| self.arrays_of(e))
            .copied()
            .collect();
        arrays.sort_unstable();
        arrays.dedup();
        arrays
    }

    /// Interns `kind` exactly as given, without any simplification.
    ///
    /// # Panics
    /// If the operand widths or sorts are inconsistent (an engine bug).
    pub fn raw(&mut self, kind: ExprKind) -> ExprId {
        let width = self.width_of(&kind);
        match self.interned.entry(kind) {
            Entry::Occupied(o) => *o.get(),
            Entry::Vacant(v) => {
                let arrays = match v.key() {
                    ExprKind::ArraySym(a) => self.sets.singleton(*a),
                    k => k.children().fold(0, |acc, c| {
                        self.sets.union(acc, self.nodes[c.0 as usize].arrays)
                    }),
                };
                let float = matches!(
                    v.key(),
                    ExprKind::FpBin { .. }
                        | ExprKind::FpCmp { .. }
                        | ExprKind::FpSqrt(_)
                        | ExprKind::FpConv { .. }
                ) || v.key().children().any(|c| self.nodes[c.0 as usize].float);
                let id = ExprId(self.nodes.len() as u32);
                self.nodes.push(Node {
                    kind: v.key().clone(),
                    width,
                    arrays,
                    float,
                });
                v.insert(id);
                id
            }
        }
    }

    /// Asserts that `a` and `b` are bit-vectors of one width and returns it.
    pub(crate) fn same_width(&self, a: ExprId, b: ExprId) -> u32 {
        let (wa, wb) = (self.width(a), self.width(b));
        assert!(wa == wb && wa != 0, "operand widths differ: {wa} vs {wb}");
        wa
    }

    fn assert_width(&self, e: ExprId, width: u32, what: &str) {
        let w = self.width(e);
        assert_eq!(w, width, "{what} must have width {width}, has {w}");
    }

    /// Asserts that `width` is a floating-point width (32 or 64) and returns it.
    fn float_width(&self, width: u32) -> u32 {
        assert!(
            crate::float::is_float_width(width),
            "not a float width: {width}"
        );
        width
    }

    fn assert_array(&self, e: ExprId) {
        assert!(self.is_array(e), "expected an array-sorted expression");
    }

    /// The width of a node of `kind`, checking its operands.
    fn width_of(&self, kind: &ExprKind) -> u32 {
        match *kind {
            ExprKind::Const { width, value } => {
                assert!((1..=128).contains(&width), "bad constant width {width}");
                assert!(value <= crate::bits::mask(width), "unmasked constant");
                width
            }
            ExprKind::Select { array, index } => {
                self.assert_array(array);
                self.assert_width(index, 64, "an array index");
                8
            }
            ExprKind::ArraySym(a) => {
                assert!((a.0 as usize) < self.arrays.len(), "unknown array");
                0
            }
            ExprKind::ArrayConst(_) => 0,
            ExprKind::Store {
                array,
                index,
                value,
            } => {
                self.assert_array(array);
                self.assert_width(index, 64, "an array index");
                self.assert_width(value, 8, "a stored value");
                0
            }
            ExprKind::Ite { cond, then, els } => {
                self.assert_width(cond, 1, "an ite condition");
                self.same_width(then, els)
            }
            ExprKind::Concat { hi, lo } => {
                let w = self.width(hi) + self.width(lo);
                assert!(
                    !self.is_array(hi) && !self.is_array(lo) && w <= 128,
                    "bad concat"
                );
                w
            }
            ExprKind::Extract { expr, lo, width } => {
                assert!(
                    width >= 1 && lo + width <= self.width(expr),
                    "extract out of range"
                );
                width
            }
            ExprKind::ZExt { expr, width } | ExprKind::SExt { expr, width } => {
                let w = self.width(expr);
                assert!(w != 0 && w <= width && width <= 128, "bad extension");
                width
            }
            ExprKind::Not(e) => {
                assert!(!self.is_array(e), "not of an array");
                self.width(e)
            }
            ExprKind::Bin { lhs, rhs, .. } => self.same_width(lhs, rhs),
            ExprKind::Cmp { lhs, rhs, .. } => {
                self.same_width(lhs, rhs);
                1
            }
            ExprKind::FpBin { lhs, rhs, .. } => self.float_width(self.same_width(lhs, rhs)),
            ExprKind::FpCmp { lhs, rhs, .. } => {
                self.float_width(self.same_width(lhs, rhs));
                1
            }
            ExprKind::FpSqrt(e) => self.float_width(self.width(e)),
            ExprKind::FpConv { op, expr, width } => {
                let from = self.width(expr);
                let int = |w: u32| (1..=128).contains(&w);
                let float = crate::float::is_float_width;
                let ok = match op {
                    FpConvOp::FromSInt | FpConvOp::FromUInt => int(from) && float(width),
                    FpConvOp::ToSInt | FpConvOp::ToUInt => float(from) && int(width),
                    FpConvOp::Resize => float(from) && float(width) && from != width,
                };
                assert!(ok, "bad conversion {op:?} from {from} to {width} bits");
                width
            }
        }
    }

    /// All distinct nodes reachable from `roots`, children before parents, skipping (and
    /// not descending into) nodes for which `done` returns true.
    pub fn post_order(
        &self,
        roots: &[ExprId],
        mut done: impl FnMut(ExprId) -> bool,
    ) -> Vec<ExprId> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        let mut stack: Vec<(ExprId, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
        while let Some((e, expanded)) = stack.pop() {
            if expanded {
                out.push(e);
                continue;
            }
            if done(e) || !seen.insert(e) {
                continue;
            }
            stack.push((e, true));
            stack.extend(
                self.kind(e)
                    .children()
                    .rev()
                    .filter(|c| !seen.contains(c))
                    .map(|c| (c, false)),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_structural() {
        let mut p = ExprPool::new();
        let a = p.raw(ExprKind::Const { width: 8, value: 3 });
        let b = p.raw(ExprKind::Const { width: 8, value: 3 });
        let c = p.raw(ExprKind::Const { width: 9, value: 3 });
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(p.len(), 2);
        assert_eq!(p.width(c), 9);
    }

    #[test]
    fn array_names_are_unique() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 4);
        let x1 = p.new_array("x", 2);
        let x_1 = p.new_array("x_1", 1);
        assert_eq!(p.array_name(x), "x");
        assert_eq!(p.array_name(x1), "x_1");
        assert_eq!(p.array_name(x_1), "x_1_1");
        assert_eq!(p.array_size(x1), 2);
        assert_eq!(p.num_arrays(), 3);
    }

    #[test]
    fn arrays_of_is_a_sorted_union() {
        let mut p = ExprPool::new();
        let (x, y, z) = (
            p.new_array("x", 1),
            p.new_array("y", 1),
            p.new_array("z", 1),
        );
        let zero = p.raw(ExprKind::Const {
            width: 64,
            value: 0,
        });
        let sel = |p: &mut ExprPool, a| {
            let s = p.raw(ExprKind::ArraySym(a));
            p.raw(ExprKind::Select {
                array: s,
                index: zero,
            })
        };
        let (bx, by, bz) = (sel(&mut p, x), sel(&mut p, y), sel(&mut p, z));
        let zy = p.raw(ExprKind::Concat { hi: bz, lo: by });
        let xz = p.raw(ExprKind::Concat { hi: bx, lo: bz });
        let all = p.raw(ExprKind::Concat { hi: zy, lo: xz });
        assert_eq!(p.arrays_of(zy), [y, z]);
        assert_eq!(p.arrays_of(all), [x, y, z]);
        assert!(p.arrays_of(zero).is_empty());
        assert!(!p.is_array(bx));
        let sym = p.raw(ExprKind::ArraySym(x));
        assert!(p.is_array(sym));
    }

    #[test]
    #[should_panic(expected = "operand widths differ")]
    fn width_mismatch_panics() {
        let mut p = ExprPool::new();
        let a = p.raw(ExprKind::Const { width: 8, value: 3 });
        let b = p.raw(ExprKind::Const {
            width: 16,
            value: 3,
        });
        p.raw(ExprKind::Bin {
            op: crate::BinOp::Add,
            lhs: a,
            rhs: b,
        });
    }

    #[test]
    fn post_order_puts_children_first_and_skips_done() {
        let mut p = ExprPool::new();
        let a = p.raw(ExprKind::Const { width: 8, value: 1 });
        let b = p.raw(ExprKind::Not(a));
        let c = p.raw(ExprKind::Concat { hi: b, lo: a });
        assert_eq!(p.post_order(&[c], |_| false), [a, b, c]);
        assert_eq!(p.post_order(&[c, b], |e| e == b), [a, c]);
    }

    #[test]
    fn uids_differ() {
        assert_ne!(ExprPool::new().uid(), ExprPool::new().uid());
    }
}
