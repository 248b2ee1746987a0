//! Translation of pool expressions into Z3 terms, with a cache that persists across
//! queries. Width-1 comparisons and logic become Z3 booleans; they are converted to and
//! from 1-bit vectors only where an operator needs the other sort.

use augur_expr::{BinOp, CmpOp, ExprId, ExprKind, ExprPool};
use rustc_hash::FxHashMap;
use z3::ast::{Array, Bool, Dynamic, BV};
use z3::Sort;

/// The constant `value` as a `width`-bit Z3 bit-vector.
pub(crate) fn bv_const(value: u128, width: u32) -> BV {
    match u64::try_from(value) {
        Ok(v) => BV::from_u64(v, width),
        Err(_) => BV::from_str(width, &value.to_string()).expect("a decimal numeral"),
    }
}

/// The Z3 constant for a symbolic array named `name` (64-bit index, 8-bit value).
pub(crate) fn array_const(name: &str) -> Array {
    Array::new_const(name, &Sort::bitvector(64), &Sort::bitvector(8))
}

/// The 8-bit Z3 variable for byte `index` of the symbolic array named `name`. Input bytes
/// are plain bit-vector variables rather than array reads, so that queries stay in QF_BV,
/// which Z3 solves much faster than array problems.
pub(crate) fn byte_var(name: &str, index: u64) -> BV {
    BV::new_const(format!("{name}!{index}"), 8)
}

/// A read of the symbolic array `name` of `size` bytes at a symbolic index, as a choice
/// among its byte variables (out-of-range indices read 0, like the evaluator).
fn byte_choice(name: &str, size: u64, index: &BV) -> BV {
    (0..size).rev().fold(BV::from_u64(0, 8), |acc, i| {
        index.eq(BV::from_u64(i, 64)).ite(&byte_var(name, i), &acc)
    })
}

/// `d` as a Z3 boolean (1-bit vectors compare to 1).
fn to_bool(d: &Dynamic) -> Bool {
    match d.as_bool() {
        Some(b) => b,
        None => d.as_bv().expect("a bit-vector").eq(BV::from_u64(1, 1)),
    }
}

/// `d` as a Z3 bit-vector (booleans become 1-bit vectors).
fn to_bv(d: &Dynamic) -> BV {
    match d.as_bv() {
        Some(v) => v,
        None => to_bool(d).ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)),
    }
}

/// Translates expressions of one pool, caching every translated node.
///
/// A constant array becomes a fresh Z3 array whose bytes are pinned by equalities, as
/// KLEE's Z3 builder does, rather than a chain of stores over a constant array: Z3
/// solves chained symbolic-index reads and writes over the former far faster (a
/// 64-byte table read and written at input-dependent indices 4 times: 0.1 s against
/// more than 60 s for if-then-else chains). The equalities, and the zero bytes past the
/// stored ones that each read relies on, are facts that go with every constraint
/// using them.
#[derive(Default)]
pub(crate) struct Translator {
    cache: FxHashMap<ExprId, Dynamic>,
    /// What some nodes' terms mean only together with: the pinned bytes of a constant
    /// array, and for a read of a store chain over one, the zero byte at its index when
    /// that lies past the stored bytes.
    facts: FxHashMap<ExprId, Vec<Bool>>,
}

impl Translator {
    /// The width-1 expression `e` as a Z3 boolean, with the facts its terms rely on.
    pub(crate) fn boolean(&mut self, pool: &ExprPool, e: ExprId) -> Bool {
        let order = pool.post_order(&[e], |n| self.cache.contains_key(&n));
        for n in order {
            let term = self.node(pool, n);
            if let Some(facts) = self.facts_of(pool, n, &term) {
                self.facts.insert(n, facts);
            }
            self.cache.insert(n, term);
        }
        let term = to_bool(&self.cache[&e]);
        if self.facts.is_empty() {
            return term;
        }
        let mut all = vec![term];
        for n in pool.post_order(&[e], |_| false) {
            all.extend(self.facts.get(&n).into_iter().flatten().cloned());
        }
        Bool::and(&all)
    }

    /// The facts the term of `n` relies on, if any.
    fn facts_of(&self, pool: &ExprPool, n: ExprId, term: &Dynamic) -> Option<Vec<Bool>> {
        match pool.kind(n) {
            ExprKind::ArrayConst(bytes) => {
                let arr = term.as_array().expect("an array term");
                // Kept a flat list, joined into each constraint's own conjunction: one
                // nested conjunction per array, made once, let Z3 work 2 to 4 minutes
                // past a 10 s --max-time on bzip2's 40,264-byte table (session 16).
                let pinned = bytes.iter().enumerate().map(|(i, &v)| {
                    arr.select(&BV::from_u64(i as u64, 64))
                        .as_bv()
                        .expect("a byte")
                        .eq(BV::from_u64(v.into(), 8))
                });
                Some(pinned.collect())
            }
            ExprKind::Select { array, index } => {
                let (base, len) = pool.const_array_base(*array)?;
                let idx = to_bv(&self.cache[index]);
                let byte = self.cache[&base]
                    .as_array()
                    .expect("an array term")
                    .select(&idx)
                    .as_bv()
                    .expect("a byte");
                let past = idx.bvuge(BV::from_u64(len as u64, 64));
                Some(vec![past.implies(byte.eq(BV::from_u64(0, 8)))])
            }
            _ => None,
        }
    }

    /// The term for `n`, whose children are all cached.
    fn node(&self, pool: &ExprPool, n: ExprId) -> Dynamic {
        let t = |e: ExprId| &self.cache[&e];
        let bv = |e: ExprId| to_bv(t(e));
        let b = |e: ExprId| to_bool(t(e));
        let arr = |e: ExprId| t(e).as_array().expect("an array term");
        let w = pool.width(n);
        match *pool.kind(n) {
            ExprKind::Const { width: 1, value } => Bool::from_bool(value == 1).into(),
            ExprKind::Const { width, value } => bv_const(value, width).into(),
            ExprKind::Select { array, index } => match (pool.kind(array), pool.as_const(index)) {
                (ExprKind::ArraySym(a), Some(i)) => {
                    byte_var(pool.array_name(*a), i.min(u64::MAX as u128) as u64).into()
                }
                (ExprKind::ArraySym(a), None) => {
                    byte_choice(pool.array_name(*a), pool.array_size(*a), &bv(index)).into()
                }
                _ => arr(array).select(&bv(index)),
            },
            ExprKind::ArraySym(a) => array_const(pool.array_name(a)).into(),
            // Pinned by the facts of `facts_of`.
            ExprKind::ArrayConst(_) => array_const(&format!("const!{}", n.0)).into(),
            ExprKind::Store {
                array,
                index,
                value,
            } => arr(array).store(&bv(index), &bv(value)).into(),
            ExprKind::Ite { cond, then, els } if w == 1 => b(cond).ite(&b(then), &b(els)).into(),
            ExprKind::Ite { cond, then, els } => b(cond).ite(&bv(then), &bv(els)).into(),
            ExprKind::Concat { hi, lo } => bv(hi).concat(bv(lo)).into(),
            ExprKind::Extract { expr, lo, width } => bv(expr).extract(lo + width - 1, lo).into(),
            ExprKind::ZExt { expr, width } => bv(expr).zero_ext(width - pool.width(expr)).into(),
            ExprKind::SExt { expr, width } => bv(expr).sign_ext(width - pool.width(expr)).into(),
            ExprKind::Not(x) if w == 1 => b(x).not().into(),
            ExprKind::Not(x) => bv(x).bvnot().into(),
            ExprKind::Bin {
                op: BinOp::And,
                lhs,
                rhs,
            } if w == 1 => Bool::and(&[b(lhs), b(rhs)]).into(),
            ExprKind::Bin {
                op: BinOp::Or,
                lhs,
                rhs,
            } if w == 1 => Bool::or(&[b(lhs), b(rhs)]).into(),
            ExprKind::Bin {
                op: BinOp::Xor,
                lhs,
                rhs,
            } if w == 1 => b(lhs).xor(b(rhs)).into(),
            ExprKind::Bin { ref op, lhs, rhs } => bin(op, &bv(lhs), &bv(rhs)).into(),
            ExprKind::Cmp {
                op: CmpOp::Eq,
                lhs,
                rhs,
            } if pool.width(lhs) == 1 => b(lhs).iff(b(rhs)).into(),
            ExprKind::Cmp { ref op, lhs, rhs } => cmp(op, &bv(lhs), &bv(rhs)).into(),
            ExprKind::FpBin { .. }
            | ExprKind::FpCmp { .. }
            | ExprKind::FpSqrt(_)
            | ExprKind::FpConv { .. } => crate::z3_float::term(pool, n, bv),
        }
    }
}

fn bin(op: &BinOp, l: &BV, r: &BV) -> BV {
    match op {
        BinOp::Add => l.bvadd(r),
        BinOp::Sub => l.bvsub(r),
        BinOp::Mul => l.bvmul(r),
        BinOp::UDiv => l.bvudiv(r),
        BinOp::SDiv => l.bvsdiv(r),
        BinOp::URem => l.bvurem(r),
        BinOp::SRem => l.bvsrem(r),
        BinOp::And => l.bvand(r),
        BinOp::Or => l.bvor(r),
        BinOp::Xor => l.bvxor(r),
        BinOp::Shl => l.bvshl(r),
        BinOp::LShr => l.bvlshr(r),
        BinOp::AShr => l.bvashr(r),
    }
}

fn cmp(op: &CmpOp, l: &BV, r: &BV) -> Bool {
    match op {
        CmpOp::Eq => l.eq(r),
        CmpOp::Ult => l.bvult(r),
        CmpOp::Ule => l.bvule(r),
        CmpOp::Slt => l.bvslt(r),
        CmpOp::Sle => l.bvsle(r),
    }
}

#[cfg(test)]
mod tests {
    use crate::stats::SharedStats;
    use crate::test_util::{var, Rng};
    use crate::z3_backend::Z3Backend;
    use crate::{SatResult, Solver};
    use augur_expr::bits::{fold_bin, fold_cmp};
    use augur_expr::{BinOp, CmpOp, ExprId, ExprKind, ExprPool};

    const WIDTHS: [u32; 10] = [1, 2, 7, 8, 13, 32, 63, 64, 65, 128];
    const BIN_OPS: [BinOp; 13] = BinOp::ALL;
    const CMP_OPS: [CmpOp; 5] = CmpOp::ALL;

    /// `raw == value`, interned without folding so Z3 computes `raw` itself.
    fn raw_eq(p: &mut ExprPool, raw: ExprId, value: u128) -> ExprId {
        let c = p.constant(value, p.width(raw));
        p.raw(ExprKind::Cmp {
            op: CmpOp::Eq,
            lhs: raw,
            rhs: c,
        })
    }

    /// Asserts that Z3 accepts every `(raw, folded value)` claim, naming a failing one.
    fn assert_z3_agrees(p: &ExprPool, claims: &[(ExprId, String)]) {
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        let all: Vec<ExprId> = claims.iter().map(|c| c.0).collect();
        if let Ok(SatResult::Sat(_)) = z3.check(p, &all) {
            return;
        }
        for (c, what) in claims {
            let answer = z3.check(p, &[*c]);
            assert!(
                matches!(answer, Ok(SatResult::Sat(_))),
                "Z3 disagrees: {what}"
            );
        }
        panic!("the claims are jointly but not individually unsatisfiable");
    }

    #[test]
    fn constant_folding_agrees_with_z3() {
        let mut p = ExprPool::new();
        let mut rng = Rng::new(0x1234_5678_9abc_def1);
        let mut claims = Vec::new();
        for _ in 0..12 {
            for w in WIDTHS {
                let (a, b) = (rng.edge_value(w), rng.edge_value(w));
                let (ca, cb) = (p.constant(a, w), p.constant(b, w));
                for op in BIN_OPS {
                    let raw = p.raw(ExprKind::Bin {
                        op,
                        lhs: ca,
                        rhs: cb,
                    });
                    let want = fold_bin(&op, a, b, w);
                    claims.push((
                        raw_eq(&mut p, raw, want),
                        format!("{a} {op:?} {b} = {want} ({w} bits)"),
                    ));
                }
                for op in CMP_OPS {
                    let raw = p.raw(ExprKind::Cmp {
                        op: op.clone(),
                        lhs: ca,
                        rhs: cb,
                    });
                    let want = u128::from(fold_cmp(&op, a, b, w));
                    claims.push((
                        raw_eq(&mut p, raw, want),
                        format!("{a} {op:?} {b} = {want} ({w} bits)"),
                    ));
                }
                let wide = p.raw(ExprKind::SExt {
                    expr: ca,
                    width: 128,
                });
                let want = p.sext(ca, 128);
                let want = p.as_const(want).unwrap();
                claims.push((raw_eq(&mut p, wide, want), format!("sext {a} ({w} bits)")));
            }
        }
        assert_z3_agrees(&p, &claims);
    }

    #[test]
    fn signed_division_by_zero_and_overflow_agree_with_z3() {
        let mut p = ExprPool::new();
        let mut claims = Vec::new();
        for w in WIDTHS {
            let min = 1u128 << (w - 1);
            let m1 = augur_expr::bits::mask(w);
            for (a, b) in [
                (min, m1),
                (min, 0),
                (m1, 0),
                (1, 0),
                (0, 0),
                (m1.wrapping_sub(6) & m1, 2 & m1),
                (7 & m1, m1.wrapping_sub(1) & m1),
            ] {
                let (ca, cb) = (p.constant(a, w), p.constant(b, w));
                for op in [BinOp::SDiv, BinOp::SRem, BinOp::UDiv, BinOp::URem] {
                    let raw = p.raw(ExprKind::Bin {
                        op,
                        lhs: ca,
                        rhs: cb,
                    });
                    let want = fold_bin(&op, a, b, w);
                    claims.push((
                        raw_eq(&mut p, raw, want),
                        format!("{a} {op:?} {b} = {want} ({w} bits)"),
                    ));
                }
            }
        }
        assert_z3_agrees(&p, &claims);
    }

    #[test]
    fn symbolic_terms_of_every_kind_translate() {
        let mut p = ExprPool::new();
        let (x, v) = var(&mut p, "x", 2);
        let arr = p.array_sym(x);
        let cst = p.array_const(&[0, 5]);
        let lo = p.extract(v, 0, 8);
        let hi = p.extract(v, 8, 8);
        let idx = p.zext(lo, 64);
        let st = p.store(cst, idx, hi);
        let one = p.constant(1, 64);
        let read = p.select(st, one);
        let sym_read = p.select(arr, idx);
        let b = p.ult(lo, hi);
        let nb = p.not(b);
        let both = p.bool_and(b, nb);
        let either = p.bool_or(both, b);
        let flip = p.xor(either, nb);
        let pick = p.ite(flip, read, sym_read);
        let wide = p.sext(pick, 32);
        let cat = p.concat(wide, v);
        let sh = p.bin(BinOp::AShr, cat, cat);
        let c = p.constant(0, 48);
        let e1 = p.ule(c, sh);
        let e2 = p.eq(flip, b);
        let mut z3 = Z3Backend::new(None, SharedStats::default());
        let SatResult::Sat(m) = z3.check(&p, &[e1, e2, flip]).unwrap() else {
            panic!("expected sat")
        };
        for e in [e1, e2, flip] {
            assert_eq!(p.eval(e, &m), 1, "{}", p.display(e));
        }
    }

    /// Reads at symbolic indices of constant arrays and stores over them: each answer
    /// Z3 gives agrees with the evaluator (zero bytes past the stored ones included).
    #[test]
    fn constant_array_reads_are_exact() {
        let mut p = ExprPool::new();
        let (_, v) = var(&mut p, "x", 2);
        let lo = p.extract(v, 0, 8);
        let hi = p.extract(v, 8, 8);
        let (i, j) = (p.zext(lo, 64), p.zext(hi, 64));
        let table = p.array_const(&[7, 0, 0, 5]);
        let nine = p.constant(9, 8);
        let written = p.store(table, i, nine);
        let byte = |p: &mut ExprPool, v| p.constant(v, 8);
        let read = p.select(table, j);
        let read_written = p.select(written, j);
        let (c5, c3, c0, c9) = (
            byte(&mut p, 5),
            byte(&mut p, 3),
            byte(&mut p, 0),
            byte(&mut p, 9),
        );
        let forty = p.constant(40, 64);
        let far = p.eq(j, forty);
        let differ = p.ne(i, j);
        let cases = [
            (vec![p.eq(read, c5)], true),
            (vec![p.eq(read, c3)], false),
            (vec![far, p.eq(read, c0)], true),
            (vec![far, p.eq(read, c5)], false),
            (vec![p.eq(read_written, c9)], true),
            (vec![differ, p.eq(read_written, c9)], false),
            (vec![differ, far, p.eq(read_written, c0)], true),
        ];
        for (k, (query, sat)) in cases.into_iter().enumerate() {
            let mut z3 = Z3Backend::new(None, SharedStats::default());
            match z3.check(&p, &query).unwrap() {
                SatResult::Sat(m) => {
                    assert!(sat, "case {k}: sat, expected unsat");
                    for c in &query {
                        assert_eq!(p.eval(*c, &m), 1, "case {k}: {}", p.display(*c));
                    }
                }
                SatResult::Unsat => assert!(!sat, "case {k}: unsat, expected sat"),
            }
        }
    }
}
