//! Reads, writes and bounds checks at symbolic offsets inside one object.
//!
//! Four encodings, chosen by the offset and the object:
//! - an offset that is one of a few constants (an if-then-else tree of them, see
//!   [`ExprPool::const_leaves`]: a pointer read from a small table) reads the same choice
//!   among the reads at those constants; such an offset plus the rest of a sum (`p->on[c]`
//!   with `p` such a pointer) reads, leaf by leaf, at the leaf plus the rest;
//! - where every word the offset can reach is known, a read is a choice among those
//!   words: by runs of offsets when they are a few distinct values, else by the bits of
//!   the element's index (see [`known_word`]);
//! - an object of at most [`ITE_LIMIT`] bytes never written at a symbolic offset is read
//!   through one if-then-else chain over the offsets the access can start at (its words,
//!   not each byte over every offset);
//! - anything else is array `select`s and `store`s.
//!
//! A read of a small table at a symbolic index thus gives a tree of constants, the next
//! access through it a tree again: a walk through pointer tables (a regex matcher's
//! states) stays a choice among known values, and a bounds check over it folds without a
//! solver.

use crate::bytes::{byte_expr, bytes_to_scalar, expr_byte};
use crate::memory::{Byte, MemObject};
use augur_expr::{BinOp, ExprId, ExprKind, ExprPool, Stride};

/// Objects up to this size that were never written at a symbolic offset are read at
/// symbolic offsets through if-then-else chains over their bytes (a pure bit-vector read
/// of a table, which Z3 solves fastest). Every symbolic-offset write, and every
/// symbolic-offset read of a larger or symbolically written object, goes through array
/// stores: once reads and writes at symbolic offsets chain, the if-then-else form makes
/// Z3 decide every index of every access, the array theory only the indices a model
/// needs (a 64-byte table read and written at input-dependent indices 4 times: 0.1 s
/// against more than 60 s; `symhash_small` in `bench/run.sh`).
const ITE_LIMIT: u64 = 256;

/// The widest access (in bytes) read at a symbolic offset as one word (a register's
/// widest scalar); wider ones are read byte by byte.
const MAX_WORD: u64 = 16;

/// The most offsets a symbolic-offset read looks at for the known words there
/// ([`known_word`]): a 4 KiB table of bytes, 512 pointers.
const MOST_KNOWN_OFFSETS: u64 = 4096;

/// The most distinct known values a symbolic-offset read is a tree of ([`known_word`]).
const MOST_KNOWN_VALUES: usize = 16;

/// The most known words a symbolic-offset read chooses among by the bits of their index
/// ([`index_choice`]): a table of 1,024 words, as many if-then-else nodes.
const MOST_CHOSEN_WORDS: u64 = 1024;

/// How many terms of a sum are looked at for a tree of constants among them.
const MOST_TERMS: usize = 8;

/// Whether symbolic-offset reads of `obj` are if-then-else chains (else array selects).
fn ite_encoded(obj: &MemObject) -> bool {
    obj.size <= ITE_LIMIT && !obj.written_at_symbolic_offset
}

/// `off <= limit`: leaf by leaf when `off` is, or has as a term, a tree of constants, so
/// the bounds of each leaf's offset can decide it without a solver.
pub(super) fn at_most(pool: &mut ExprPool, off: ExprId, limit: u64) -> ExprId {
    let lim = pool.constant(u128::from(limit), 64);
    match tree_term(pool, off) {
        Some((tree, rest)) => pool.map_const_leaves(tree, &mut |p, o| {
            let leaf = p.constant(o, 64);
            let at = p.add(leaf, rest);
            p.ule(at, lim)
        }),
        None => pool.ule(off, lim),
    }
}

/// `size` bytes of `obj` at the symbolic offset `off` (in bounds on the path).
pub(super) fn read_at(pool: &mut ExprPool, obj: &MemObject, off: ExprId, size: u64) -> Vec<Byte> {
    if size <= MAX_WORD {
        let word = word_at(pool, obj, off, size);
        return (0..size as u32)
            .map(|k| {
                let b = pool.extract(word, 8 * k, 8);
                expr_byte(pool, b)
            })
            .collect();
    }
    (0..size)
        .map(|k| {
            let kc = pool.constant(u128::from(k), 64);
            let idx = pool.add(off, kc);
            let b = byte_at(pool, obj, idx);
            expr_byte(pool, b)
        })
        .collect()
}

/// The `size`-byte little-endian word of `obj` at the symbolic offset `off`.
fn word_at(pool: &mut ExprPool, obj: &MemObject, off: ExprId, size: u64) -> ExprId {
    if pool.const_leaves(off).is_some() {
        return pool.map_const_leaves(off, &mut |p, o| {
            let bytes = read_known_offset(p, obj, o, size);
            word_of(p, &bytes)
        });
    }
    if let Some(word) = known_word(pool, obj, off, size) {
        return word;
    }
    if !ite_encoded(obj) {
        let arr = obj.as_array(pool);
        let bytes: Vec<Byte> = (0..size)
            .map(|k| {
                let kc = pool.constant(u128::from(k), 64);
                let idx = pool.add(off, kc);
                let b = pool.select(arr, idx);
                expr_byte(pool, b)
            })
            .collect();
        return word_of(pool, &bytes);
    }
    let contents = obj.contents(pool);
    match tree_term(pool, off) {
        Some((tree, rest)) => pool.map_const_leaves(tree, &mut |p, o| {
            let leaf = p.constant(o, 64);
            let at = p.add(leaf, rest);
            choose_word(p, &contents, at, size)
        }),
        None => choose_word(pool, &contents, off, size),
    }
}

/// The `size`-byte word of `obj` at the symbolic offset `off`, when every word at the
/// offsets `off` can take ([`ExprPool::index_stride`], at most [`MOST_KNOWN_OFFSETS`])
/// is known:
/// - with at most [`MOST_KNOWN_VALUES`] distinct values, a tree of them by runs of
///   offsets ([`choice_by_runs`]). A table of pointers that is mostly null (a regex matcher's transitions, read at an
///   input byte) reads as a choice among a few known pointers, whatever its size, and
///   what is read through the result stays a choice too;
/// - else, over at most [`MOST_CHOSEN_WORDS`] offsets, a choice among the words by the
///   bits of the element's index ([`index_choice`]): a CRC's table of 256 distinct
///   words read at an input-dependent index is 255 if-then-else nodes over one index,
///   not an array of its bytes, each pinned for Z3 by an equality of its own.
fn known_word(pool: &mut ExprPool, obj: &MemObject, off: ExprId, size: u64) -> Option<ExprId> {
    let stride = pool.index_stride(off, obj.size.checked_sub(size)?);
    if stride.count() > MOST_KNOWN_OFFSETS {
        return None;
    }
    let words: Vec<u128> = stride
        .offsets()
        .map(|j| obj.read_known(j, size))
        .collect::<Option<_>>()?;
    let width = 8 * size as u32;
    match value_groups(&stride, &words) {
        Some(groups) => choice_by_runs(pool, off, stride.step, groups, width),
        None if words.len() as u64 <= MOST_CHOSEN_WORDS => {
            Some(index_choice(pool, off, &stride, &words, width))
        }
        None => None,
    }
}

/// The distinct values of `words` (the words at `stride`'s offsets, in order), each with
/// the offsets holding it; None past [`MOST_KNOWN_VALUES`] values.
fn value_groups(stride: &Stride, words: &[u128]) -> Option<Vec<(u128, Vec<u64>)>> {
    let mut groups: Vec<(u128, Vec<u64>)> = Vec::new();
    for (j, &v) in stride.offsets().zip(words) {
        match groups.iter().position(|(w, _)| *w == v) {
            Some(g) => groups[g].1.push(j),
            None if groups.len() < MOST_KNOWN_VALUES => groups.push((v, vec![j])),
            None => return None,
        }
    }
    Some(groups)
}

/// The `width`-bit value of `groups` whose offsets (`step` apart) `off` is one of, as a
/// tree: "the first value where `off` is in one of its runs, else ...", the most common
/// value last, without a test of its own. None when there are no groups.
fn choice_by_runs(
    pool: &mut ExprPool,
    off: ExprId,
    step: u64,
    mut groups: Vec<(u128, Vec<u64>)>,
    width: u32,
) -> Option<ExprId> {
    let common = (0..groups.len()).max_by_key(|&g| groups[g].1.len())?;
    let (default, _) = groups.remove(common);
    let mut acc = pool.constant(default, width);
    for (v, at) in groups.into_iter().rev() {
        let mut hit = pool.bool_const(false);
        for (first, last) in runs(&at, step) {
            let here = within(pool, off, first, last);
            hit = pool.bool_or(hit, here);
        }
        let value = pool.constant(v, width);
        acc = pool.ite(hit, value, acc);
    }
    Some(acc)
}

/// The word among `words` (the known `width`-bit words at `stride`'s offsets, in order)
/// that the offset `off` (one of those offsets on the path) selects, chosen bit by bit of
/// the element's index `(off - first) / step`, highest bit first: a balanced tree of
/// one-bit tests, no comparison of the offset with each candidate.
fn index_choice(
    pool: &mut ExprPool,
    off: ExprId,
    stride: &Stride,
    words: &[u128],
    width: u32,
) -> ExprId {
    let first = pool.constant(u128::from(stride.first), 64);
    let from_first = pool.sub(off, first);
    let shift = pool.constant(u128::from(stride.step.trailing_zeros()), 64);
    let index = pool.bin(BinOp::LShr, from_first, shift);
    let bits = usize::BITS - (words.len().max(1) - 1).leading_zeros();
    choose_by_bits(pool, index, words, bits, 0, width)
}

/// The word of `words` from `lo` on that bits `0..level` of `index` pick (past the last
/// word: the last word; the path excludes those indices).
fn choose_by_bits(
    pool: &mut ExprPool,
    index: ExprId,
    words: &[u128],
    level: u32,
    lo: usize,
    width: u32,
) -> ExprId {
    if level == 0 {
        return pool.constant(words[lo.min(words.len() - 1)], width);
    }
    let half = 1usize << (level - 1);
    let low = choose_by_bits(pool, index, words, level - 1, lo, width);
    if lo + half >= words.len() {
        return low;
    }
    let high = choose_by_bits(pool, index, words, level - 1, lo + half, width);
    let bit = pool.extract(index, level - 1, 1);
    pool.ite(bit, high, low)
}

/// The runs of consecutive offsets (`step` apart) in the increasing `offsets`, as
/// (first, last) pairs: the characters of one class in a character table are a few runs.
fn runs(offsets: &[u64], step: u64) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &j in offsets {
        match out.last_mut() {
            Some((_, last)) if *last + step == j => *last = j,
            _ => out.push((j, j)),
        }
    }
    out
}

/// `first <= off <= last`, for an offset that takes only candidate offsets: every
/// candidate in the run is in it (`off - first`, wrapping below `first`, is past
/// `last - first` there).
fn within(pool: &mut ExprPool, off: ExprId, first: u64, last: u64) -> ExprId {
    let fc = pool.constant(u128::from(first), 64);
    if first == last {
        return pool.eq(off, fc);
    }
    let span = pool.constant(u128::from(last - first), 64);
    let from_first = pool.sub(off, fc);
    pool.ule(from_first, span)
}

/// The byte of `obj` at the symbolic offset `idx`.
fn byte_at(pool: &mut ExprPool, obj: &MemObject, idx: ExprId) -> ExprId {
    if pool.const_leaves(idx).is_some() {
        return pool.map_const_leaves(idx, &mut |p, o| {
            let b = read_known_offset(p, obj, o, 1)[0];
            byte_expr(p, b)
        });
    }
    if !ite_encoded(obj) {
        let arr = obj.as_array(pool);
        return pool.select(arr, idx);
    }
    let contents = obj.contents(pool);
    let mut acc = pool.constant(0, 8);
    for (j, b) in contents.iter().enumerate().rev() {
        let jc = pool.constant(j as u128, 64);
        let hit = pool.eq(idx, jc);
        let v = byte_expr(pool, *b);
        acc = pool.ite(hit, v, acc);
    }
    acc
}

/// `n` bytes of `obj` at the constant offset `o`; zeros where that is past the object (a
/// leaf of a tree that the path's bounds check excludes).
fn read_known_offset(pool: &mut ExprPool, obj: &MemObject, o: u128, n: u64) -> Vec<Byte> {
    match u64::try_from(o)
        .ok()
        .and_then(|o| o.checked_add(n).map(|end| (o, end)))
    {
        Some((o, end)) if end <= obj.size => obj.read(o, n, pool),
        _ => vec![Byte::C(0); n as usize],
    }
}

/// The expression of little-endian `bytes` (at most [`MAX_WORD`]).
fn word_of(pool: &mut ExprPool, bytes: &[Byte]) -> ExprId {
    bytes_to_scalar(pool, bytes, 8 * bytes.len() as u32).expr(pool)
}

/// The `size`-byte word of `bytes` at the offset `off` (known to be in range on the path)
/// as one if-then-else chain over the offsets `off` can take
/// ([`ExprPool::index_stride`]); zeros where it can take none (a leaf the path excludes).
fn choose_word(pool: &mut ExprPool, bytes: &[Byte], off: ExprId, size: u64) -> ExprId {
    if let Some(o) = pool.as_const(off) {
        let known = u64::try_from(o)
            .ok()
            .filter(|o| o.saturating_add(size) <= bytes.len() as u64);
        return match known {
            Some(o) => word_of(pool, &bytes[o as usize..(o + size) as usize]),
            None => pool.constant(0, 8 * size as u32),
        };
    }
    let Some(room) = (bytes.len() as u64).checked_sub(size) else {
        return pool.constant(0, 8 * size as u32);
    };
    let offsets: Vec<u64> = pool.index_stride(off, room).offsets().collect();
    let word = |p: &mut ExprPool, j: u64| word_of(p, &bytes[j as usize..(j + size) as usize]);
    let Some((&last, rest)) = offsets.split_last() else {
        return word(pool, 0);
    };
    let mut acc = word(pool, last);
    for &j in rest.iter().rev() {
        let jc = pool.constant(u128::from(j), 64);
        let hit = pool.eq(off, jc);
        let v = word(pool, j);
        acc = pool.ite(hit, v, acc);
    }
    acc
}

/// A term of the sum `off` that is a tree of constants, with the sum of the other terms:
/// `(tree, rest)` with `off == tree + rest`.
fn tree_term(pool: &mut ExprPool, off: ExprId) -> Option<(ExprId, ExprId)> {
    let mut terms = Vec::new();
    let mut todo = vec![off];
    while let Some(t) = todo.pop() {
        match *pool.kind(t) {
            ExprKind::Bin {
                op: BinOp::Add,
                lhs,
                rhs,
            } if terms.len() + todo.len() < MOST_TERMS => {
                todo.push(rhs);
                todo.push(lhs);
            }
            _ => terms.push(t),
        }
    }
    let at = terms.iter().position(|&t| pool.const_leaves(t).is_some())?;
    let tree = terms.remove(at);
    let mut rest = pool.constant(0, 64);
    for t in terms {
        rest = pool.add(rest, t);
    }
    Some((tree, rest))
}

/// A write at an offset that is one of a few constants (a tree of them): each byte at
/// each such offset becomes "the new byte if `off` is this offset, else the old one", and
/// the object stays readable at constant offsets. Leaves past the object are excluded by
/// the path's bounds check and written nowhere. Returns false (nothing written) when
/// `off` is not such a tree.
pub(super) fn write_at_leaves(
    pool: &mut ExprPool,
    obj: &mut MemObject,
    off: ExprId,
    bytes: &[Byte],
) -> bool {
    let Some(leaves) = pool.const_leaves(off) else {
        return false;
    };
    let n = bytes.len() as u64;
    let mut done = Vec::with_capacity(leaves.len());
    for o in leaves {
        let Ok(o) = u64::try_from(o) else { continue };
        if done.contains(&o) || o.checked_add(n).is_none_or(|end| end > obj.size) {
            continue;
        }
        done.push(o);
        let oc = pool.constant(u128::from(o), 64);
        let hit = pool.eq(off, oc);
        let old = obj.read(o, n, pool);
        let merged: Vec<Byte> = bytes
            .iter()
            .zip(old)
            .map(|(&new, old)| {
                let (new, old) = (byte_expr(pool, new), byte_expr(pool, old));
                let b = pool.ite(hit, new, old);
                expr_byte(pool, b)
            })
            .collect();
        obj.write(o, &merged);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::ObjKind;
    use augur_expr::{Assignment, CmpOp};
    use augur_ir::LocId;

    /// A 64-byte object of distinct known bytes, and one symbolic input byte `x` over
    /// its array.
    fn setup() -> (ExprPool, MemObject, ExprId, augur_expr::ArrayId) {
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 1);
        let arr = pool.array_sym(a);
        let zero = pool.constant(0, 64);
        let x = pool.select(arr, zero);
        let mut obj = MemObject::new(0x1000, 64, ObjKind::Heap, LocId(0), "t".into());
        let bytes: Vec<Byte> = (0..64u8)
            .map(|i| Byte::C(i.wrapping_mul(7) ^ 0x5a))
            .collect();
        obj.write(0, &bytes);
        (pool, obj, x, a)
    }

    /// The offset forms each encoding handles: a tree of constants, a tree plus a
    /// symbolic rest, a constant plus a multiple of 8, and masked indices.
    fn offsets(pool: &mut ExprPool, x: ExprId) -> Vec<ExprId> {
        let (three, five) = (pool.constant(3, 8), pool.constant(5, 8));
        let (k8, k16, k40) = (
            pool.constant(8, 64),
            pool.constant(16, 64),
            pool.constant(40, 64),
        );
        let small = pool.cmp(CmpOp::Ult, x, three);
        let middle = pool.cmp(CmpOp::Ult, x, five);
        let inner = pool.ite(middle, k16, k40);
        let tree = pool.ite(small, k8, inner);
        let wide = pool.zext(x, 64);
        let m3 = pool.constant(3, 64);
        let low = pool.bin(BinOp::And, wide, m3);
        let tree_plus = pool.add(tree, low);
        let m7 = pool.constant(7, 64);
        let idx = pool.bin(BinOp::And, wide, m7);
        let eight = pool.constant(8, 64);
        let scaled = pool.bin(BinOp::Mul, idx, eight);
        let four = pool.constant(4, 64);
        let strided = pool.add(four, scaled);
        let m56 = pool.constant(0x38, 64);
        let masked = pool.bin(BinOp::And, wide, m56);
        let m63 = pool.constant(63, 64);
        let any = pool.bin(BinOp::And, wide, m63);
        vec![tree, tree_plus, strided, masked, any]
    }

    fn with_x(a: augur_expr::ArrayId, v: u8) -> Assignment {
        let mut m = Assignment::default();
        m.arrays.insert(a, vec![v]);
        m
    }

    fn value(pool: &mut ExprPool, b: Byte, m: &Assignment) -> u8 {
        let e = byte_expr(pool, b);
        pool.eval(e, m) as u8
    }

    #[test]
    fn reads_at_symbolic_offsets_are_the_reads_at_each_offset_they_take() {
        let (mut pool, known, x, a) = setup();
        // Every encoding: known words (a tree of their values), symbolic ones (a chain
        // over the candidate offsets), a mostly zero table (a tree of few values), and
        // an object written at a symbolic offset (array selects).
        let mut symbolic = known.clone();
        for k in (0..64).step_by(3) {
            let kc = pool.constant(k as u128, 8);
            let b = pool.add(x, kc);
            symbolic.write(k, &[Byte::S(b)]);
        }
        let mut sparse = MemObject::new(0x2000, 64, ObjKind::Heap, LocId(0), "p".into());
        sparse.write(8, &[Byte::C(0x11); 8]);
        sparse.write(44, &[Byte::C(0x22); 4]);
        let mut arrays = known.clone();
        arrays.written_at_symbolic_offset = true;
        let offsets = offsets(&mut pool, x);
        // A table of 1,000 distinct bytes (past the chains' size): its words are chosen
        // by the bits of their index, at strides of 1 and 4 and at an odd start, and at
        // an index whose bound leaves part of the last step out of the table.
        let mut large = MemObject::new(0x3000, 1000, ObjKind::Heap, LocId(0), "l".into());
        let distinct: Vec<Byte> = (0..1000u32)
            .map(|i| Byte::C((i.wrapping_mul(131) ^ (i >> 3)) as u8))
            .collect();
        large.write(0, &distinct);
        let wide = pool.zext(x, 64);
        let (k3, k4, k9) = (
            pool.constant(3, 64),
            pool.constant(4, 64),
            pool.constant(9, 64),
        );
        let by_four = pool.bin(BinOp::Mul, wide, k4);
        let odd_start = pool.add(k3, by_four);
        let by_nine = pool.bin(BinOp::Mul, wide, k9);
        let large_offsets = [wide, by_four, odd_start, by_nine];
        let cases = [&known, &symbolic, &sparse, &arrays]
            .into_iter()
            .flat_map(|o| offsets.iter().map(move |&off| (o, off)))
            .chain(large_offsets.iter().map(|&off| (&large, off)));
        for (obj, off) in cases {
            for size in [1, 2, 4, 8, 24] {
                let read = read_at(&mut pool, obj, off, size);
                for v in 0..=255u8 {
                    let m = with_x(a, v);
                    let o = pool.eval(off, &m) as u64;
                    if o + size > obj.size {
                        continue;
                    }
                    let want = obj.read(o, size, &mut pool);
                    for (got, want) in read.iter().zip(want) {
                        assert_eq!(
                            value(&mut pool, *got, &m),
                            value(&mut pool, want, &m),
                            "x = {v}, offset {o}, size {size}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bounds_checks_over_trees_hold_exactly_where_the_offset_is_in_range() {
        let (mut pool, _, x, a) = setup();
        for off in offsets(&mut pool, x) {
            for limit in [0, 8, 16, 20, 40, 60] {
                let check = at_most(&mut pool, off, limit);
                for v in 0..=255u8 {
                    let m = with_x(a, v);
                    let o = pool.eval(off, &m) as u64;
                    assert_eq!(
                        pool.eval(check, &m) == 1,
                        o <= limit,
                        "x = {v}, {o} <= {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn writes_at_a_tree_of_offsets_change_only_the_bytes_at_the_offset_taken() {
        let (mut pool, obj, x, a) = setup();
        let tree = offsets(&mut pool, x)[0];
        let mut written = obj.clone();
        let new = [Byte::C(0xaa), Byte::S(x), Byte::C(0xbb), Byte::C(0xcc)];
        assert!(write_at_leaves(&mut pool, &mut written, tree, &new));
        for v in 0..=255u8 {
            let m = with_x(a, v);
            let o = pool.eval(tree, &m) as u64;
            let (before, after) = (obj.contents(&mut pool), written.contents(&mut pool));
            for (k, (old, now)) in before.into_iter().zip(after).enumerate() {
                let k = k as u64;
                let want = if (o..o + 4).contains(&k) {
                    value(&mut pool, new[(k - o) as usize], &m)
                } else {
                    value(&mut pool, old, &m)
                };
                assert_eq!(value(&mut pool, now, &m), want, "x = {v}, byte {k}");
            }
        }
        let not_a_tree = pool.zext(x, 64);
        assert!(!write_at_leaves(&mut pool, &mut written, not_a_tree, &new));
    }
}
