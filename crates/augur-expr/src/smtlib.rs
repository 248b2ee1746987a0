//! SMT-LIB2 script printing (QF_ABV, QF_ABVFP with floating point), for debugging queries and replaying them in a
//! stand-alone solver.

use crate::{ArrayId, BinOp, CmpOp, ExprId, ExprKind, ExprPool};
use std::fmt::Write;

const ARRAY_SORT: &str = "(Array (_ BitVec 64) (_ BitVec 8))";

fn bin_name(op: &BinOp) -> &'static str {
    match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        BinOp::Mul => "bvmul",
        BinOp::UDiv => "bvudiv",
        BinOp::SDiv => "bvsdiv",
        BinOp::URem => "bvurem",
        BinOp::SRem => "bvsrem",
        BinOp::And => "bvand",
        BinOp::Or => "bvor",
        BinOp::Xor => "bvxor",
        BinOp::Shl => "bvshl",
        BinOp::LShr => "bvlshr",
        BinOp::AShr => "bvashr",
    }
}

fn cmp_name(op: &CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ult => "bvult",
        CmpOp::Ule => "bvule",
        CmpOp::Slt => "bvslt",
        CmpOp::Sle => "bvsle",
    }
}

impl ExprPool {
    /// A complete SMT-LIB2 script asserting every (width-1) expression of `assertions`:
    /// array declarations, one `define-fun` per compound subterm (so sharing is kept),
    /// `(assert (= e #b1))` lines and `(check-sat)`. Width-1 values stay bit-vectors.
    /// Constant arrays are declared and their bytes pinned by assertions, as the Z3
    /// translation gives them (with, for each read of one, the zero byte past them).
    pub fn to_smtlib2(&self, assertions: &[ExprId]) -> String {
        let has_float = assertions.iter().any(|&e| self.has_float(e));
        let logic = if has_float { "QF_ABVFP" } else { "QF_ABV" };
        let mut out = format!("(set-logic {logic})\n");
        for a in self.arrays_of_all(assertions) {
            let _ = writeln!(out, "(declare-fun {} () {ARRAY_SORT})", self.smt_array(a));
        }
        let mut facts = Vec::new();
        for e in self.post_order(assertions, |_| false) {
            match *self.kind(e) {
                ExprKind::Const { .. } | ExprKind::ArraySym(_) => {}
                ExprKind::ArrayConst(ref bytes) => {
                    let _ = writeln!(out, "(declare-fun e!{} () {ARRAY_SORT})", e.0);
                    facts.extend(
                        bytes.iter().enumerate().map(|(i, b)| {
                            format!("(= (select e!{} (_ bv{i} 64)) (_ bv{b} 8))", e.0)
                        }),
                    );
                }
                _ => {
                    let sort = match self.width(e) {
                        0 => ARRAY_SORT.to_string(),
                        w => format!("(_ BitVec {w})"),
                    };
                    let body = self.smt_body(e);
                    let _ = writeln!(out, "(define-fun e!{} () {sort} {body})", e.0);
                    facts.extend(self.zero_past_constant_bytes(e));
                }
            }
        }
        for fact in facts {
            let _ = writeln!(out, "(assert {fact})");
        }
        for &e in assertions {
            let _ = writeln!(out, "(assert (= {} #b1))", self.smt_term(e));
        }
        out.push_str("(check-sat)\n");
        out
    }

    /// The symbol of array `a`: its quoted name, made unique with `#id` if the name
    /// needed sanitising.
    fn smt_array(&self, a: ArrayId) -> String {
        let name = self.array_name(a);
        let clean: String = name
            .chars()
            .map(|c| {
                if matches!(c, '|' | '\\' | '#') {
                    '_'
                } else {
                    c
                }
            })
            .collect();
        if clean == name {
            format!("|{name}|")
        } else {
            format!("|{clean}#{}|", a.0)
        }
    }

    /// How a subterm is referenced: constants and arrays inline, others by name.
    fn smt_term(&self, e: ExprId) -> String {
        match *self.kind(e) {
            ExprKind::Const { width, value } => format!("(_ bv{value} {width})"),
            ExprKind::ArraySym(a) => self.smt_array(a),
            _ => format!("e!{}", e.0),
        }
    }

    /// For a read of a store chain over a constant array, the fact that the constant
    /// array reads 0 at the read's index when that lies past its stored bytes.
    fn zero_past_constant_bytes(&self, e: ExprId) -> Option<String> {
        let ExprKind::Select { array, index } = *self.kind(e) else {
            return None;
        };
        let (base, len) = self.const_array_base(array)?;
        let i = self.smt_term(index);
        Some(format!(
            "(=> (bvuge {i} (_ bv{len} 64)) (= (select e!{} {i}) (_ bv0 8)))",
            base.0
        ))
    }

    /// A read of `array` at `index`. Input arrays read 0 beyond their size, as in the
    /// evaluator and the Z3 translation (an SMT-LIB array would leave those bytes free).
    fn smt_select(&self, array: ExprId, index: ExprId) -> String {
        let read = format!("(select {} {})", self.smt_term(array), self.smt_term(index));
        let ExprKind::ArraySym(a) = *self.kind(array) else {
            return read;
        };
        let size = self.array_size(a);
        match self.as_const(index) {
            Some(i) if i < u128::from(size) => read,
            Some(_) => "(_ bv0 8)".into(),
            None => format!(
                "(ite (bvult {} (_ bv{size} 64)) {read} (_ bv0 8))",
                self.smt_term(index)
            ),
        }
    }

    /// The defining term of compound node `e`.
    fn smt_body(&self, e: ExprId) -> String {
        let t = |x: ExprId| self.smt_term(x);
        match *self.kind(e) {
            ExprKind::Const { .. } | ExprKind::ArraySym(_) => t(e),
            ExprKind::ArrayConst(_) => unreachable!("constant arrays are declared"),
            ExprKind::Select { array, index } => self.smt_select(array, index),
            ExprKind::Store {
                array,
                index,
                value,
            } => format!("(store {} {} {})", t(array), t(index), t(value)),
            ExprKind::Ite { cond, then, els } => {
                format!("(ite (= {} #b1) {} {})", t(cond), t(then), t(els))
            }
            ExprKind::Concat { hi, lo } => format!("(concat {} {})", t(hi), t(lo)),
            ExprKind::Extract { expr, lo, width } => {
                format!("((_ extract {} {lo}) {})", lo + width - 1, t(expr))
            }
            ExprKind::ZExt { expr, width } => {
                format!("((_ zero_extend {}) {})", width - self.width(expr), t(expr))
            }
            ExprKind::SExt { expr, width } => {
                format!("((_ sign_extend {}) {})", width - self.width(expr), t(expr))
            }
            ExprKind::Not(x) => format!("(bvnot {})", t(x)),
            ExprKind::Bin { ref op, lhs, rhs } => {
                format!("({} {} {})", bin_name(op), t(lhs), t(rhs))
            }
            ExprKind::Cmp { ref op, lhs, rhs } => {
                format!("(ite ({} {} {}) #b1 #b0)", cmp_name(op), t(lhs), t(rhs))
            }
            ExprKind::FpBin { .. }
            | ExprKind::FpCmp { .. }
            | ExprKind::FpSqrt(_)
            | ExprKind::FpConv { .. } => self.smt_float_body(e, t),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ExprPool;

    #[test]
    fn prints_a_complete_script() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 4);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let c3 = p.constant(3, 8);
        let lt = p.ult(b, c3);
        let script = p.to_smtlib2(&[lt]);
        let want = format!(
            "(set-logic QF_ABV)\n\
             (declare-fun |x| () (Array (_ BitVec 64) (_ BitVec 8)))\n\
             (define-fun e!{b} () (_ BitVec 8) (select |x| (_ bv0 64)))\n\
             (define-fun e!{lt} () (_ BitVec 1) (ite (bvult e!{b} (_ bv3 8)) #b1 #b0))\n\
             (assert (= e!{lt} #b1))\n\
             (check-sat)\n",
            b = b.0,
            lt = lt.0
        );
        assert_eq!(script, want);
    }

    #[test]
    fn sanitises_array_names_and_prints_constant_arrays() {
        let mut p = ExprPool::new();
        let x = p.new_array("a|b", 1);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let zi = p.zext(b, 64);
        let ca = p.array_const(&[0, 7]);
        let sel = p.select(ca, zi);
        let e = p.eq(sel, b);
        let script = p.to_smtlib2(&[e]);
        assert!(script.contains(&format!("|a_b#{}|", x.0)));
        let c = ca.0;
        assert!(script.contains(&format!(
            "(declare-fun e!{c} () (Array (_ BitVec 64) (_ BitVec 8)))"
        )));
        assert!(script.contains(&format!("(assert (= (select e!{c} (_ bv1 64)) (_ bv7 8)))")));
        assert!(script.contains(&format!(
            "(assert (=> (bvuge e!{} (_ bv2 64)) (= (select e!{c} e!{}) (_ bv0 8))))",
            zi.0, zi.0
        )));
        assert!(script.contains("((_ zero_extend 56)"));
    }

    #[test]
    fn input_arrays_read_zero_beyond_their_size() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 2);
        let arr = p.array_sym(x);
        let (i1, i5) = (p.constant(1, 64), p.constant(5, 64));
        let (inside, beyond) = (p.select(arr, i1), p.select(arr, i5));
        let index = p.zext(inside, 64);
        let anywhere = p.select(arr, index);
        let same = p.eq(beyond, anywhere);
        let script = p.to_smtlib2(&[same]);
        let define = |e: crate::ExprId| {
            script
                .lines()
                .find(|l| l.starts_with(&format!("(define-fun e!{} ", e.0)))
                .unwrap_or_else(|| panic!("no definition of {e:?} in {script}"))
                .to_string()
        };
        assert!(define(inside).ends_with("(select |x| (_ bv1 64)))"));
        assert!(define(beyond).ends_with(" (_ bv0 8))"));
        assert!(define(anywhere).ends_with(&format!(
            "(ite (bvult e!{} (_ bv2 64)) (select |x| e!{}) (_ bv0 8)))",
            index.0, index.0
        )));
    }

    #[test]
    fn floating_point_uses_the_floating_point_theory() {
        let (mut p, _, _, w) = crate::build::tests::setup();
        let one = p.constant(u128::from(1.0f32.to_bits()), 32);
        let sum = p.fp_bin(crate::FpBinOp::Add, w, one);
        let lt = p.fp_cmp(crate::FpCmpOp::Lt, sum, one);
        let script = p.to_smtlib2(&[lt]);
        assert!(script.starts_with("(set-logic QF_ABVFP)\n"), "{script}");
        assert!(
            script.contains(&format!(
                "(fp.add RNE ((_ to_fp 8 24) e!{}) ((_ to_fp 8 24) (_ bv{} 32)))",
                w.0,
                1.0f32.to_bits()
            )),
            "{script}"
        );
        assert!(
            script.contains("(_ bv4290772992 32)"),
            "the default NaN: {script}"
        );
        assert!(
            script.contains(&format!("(ite (fp.lt ((_ to_fp 8 24) e!{}) ", sum.0)),
            "{script}"
        );
    }
}
