//! One-line convenience builders on top of [`ExprPool::bin`] and [`ExprPool::cmp`].

use crate::{BinOp, CmpOp, ExprId, ExprPool};

impl ExprPool {
    /// `a + b`.
    pub fn add(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Add, a, b)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Sub, a, b)
    }

    /// `a * b`.
    pub fn mul(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Mul, a, b)
    }

    /// Bitwise `a & b`.
    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::And, a, b)
    }

    /// Bitwise `a | b`.
    pub fn or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Or, a, b)
    }

    /// Bitwise `a ^ b`.
    pub fn xor(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::Xor, a, b)
    }

    /// Two's-complement negation `0 - a`.
    pub fn neg(&mut self, a: ExprId) -> ExprId {
        let zero = self.constant(0, self.width(a));
        self.sub(zero, a)
    }

    /// `a == b`.
    pub fn eq(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Eq, a, b)
    }

    /// `a != b`.
    pub fn ne(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let e = self.eq(a, b);
        self.not(e)
    }

    /// Unsigned `a < b`.
    pub fn ult(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ult, a, b)
    }

    /// Unsigned `a <= b`.
    pub fn ule(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Ule, a, b)
    }

    /// Unsigned `a > b`.
    pub fn ugt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.ult(b, a)
    }

    /// Unsigned `a >= b`.
    pub fn uge(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.ule(b, a)
    }

    /// Signed `a < b`.
    pub fn slt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Slt, a, b)
    }

    /// Signed `a <= b`.
    pub fn sle(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.cmp(CmpOp::Sle, a, b)
    }

    /// Signed `a > b`.
    pub fn sgt(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.slt(b, a)
    }

    /// Signed `a >= b`.
    pub fn sge(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.sle(b, a)
    }

    /// Logical and of two width-1 expressions.
    pub fn bool_and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        assert_eq!(self.width(a), 1, "bool_and needs width-1 operands");
        self.and(a, b)
    }

    /// Logical or of two width-1 expressions.
    pub fn bool_or(&mut self, a: ExprId, b: ExprId) -> ExprId {
        assert_eq!(self.width(a), 1, "bool_or needs width-1 operands");
        self.or(a, b)
    }

    /// Logical implication `a -> b` of two width-1 expressions.
    pub fn implies(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let na = self.not(a);
        self.bool_or(na, b)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Assignment, ExprPool};

    #[test]
    fn wrappers_compute_what_they_say() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 1);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let v = p.select(arr, i0);
        let c = p.constant(0x80, 8);
        let mut a = Assignment::default();
        a.set(x, vec![0x7f]);
        let check = |p: &mut ExprPool, f: fn(&mut ExprPool, _, _) -> _, want: u128| {
            let e = f(p, v, c);
            assert_eq!(p.eval(e, &a), want);
        };
        check(&mut p, ExprPool::add, 0xff);
        check(&mut p, ExprPool::sub, 0xff);
        check(&mut p, ExprPool::mul, 0x80);
        check(&mut p, ExprPool::and, 0);
        check(&mut p, ExprPool::or, 0xff);
        check(&mut p, ExprPool::xor, 0xff);
        check(&mut p, ExprPool::eq, 0);
        check(&mut p, ExprPool::ne, 1);
        check(&mut p, ExprPool::ult, 1);
        check(&mut p, ExprPool::ule, 1);
        check(&mut p, ExprPool::ugt, 0);
        check(&mut p, ExprPool::uge, 0);
        check(&mut p, ExprPool::slt, 0);
        check(&mut p, ExprPool::sle, 0);
        check(&mut p, ExprPool::sgt, 1);
        check(&mut p, ExprPool::sge, 1);
        let n = p.neg(v);
        assert_eq!(p.eval(n, &a), 0x81);
    }

    #[test]
    fn boolean_wrappers() {
        let mut p = ExprPool::new();
        let (t, f) = (p.bool_const(true), p.bool_const(false));
        assert_eq!(p.bool_and(t, f), f);
        assert_eq!(p.bool_or(t, f), t);
        assert_eq!(p.implies(f, f), t);
        assert_eq!(p.implies(t, f), f);
    }
}
