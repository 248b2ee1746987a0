//! Transition predicates `v1 op v2` and `v op c` over source variables: their meaning as
//! an expression of the input and their C text, which agree exactly because the C text
//! casts each side to an integer type of its own width and the chosen signedness.

use crate::seeded::VarValue;
use augur_expr::{CmpOp, ExprId, ExprPool};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Op {
    /// Every operator (the orderings first).
    pub const ALL: [Op; 6] = [Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne];

    /// Its C spelling.
    pub fn c(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }

    /// Does it hold between two (signed) values?
    pub fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }
}

/// One side of a predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// A source variable (its name and size in bytes); 1-byte ones compare unsigned,
    /// wider ones signed.
    Var(String, u8),
    /// An integer constant.
    Const(i64),
}

impl Side {
    /// A variable side.
    pub fn var(v: &VarValue) -> Side {
        Side::Var(v.var.name.clone(), v.var.size)
    }

    /// The C text, as a `long long`.
    fn c(&self) -> String {
        match self {
            Side::Var(name, size) => {
                let ty = match size {
                    1 => "unsigned char",
                    2 => "short",
                    4 => "int",
                    _ => "long long",
                };
                format!(
                    "(long long)({ty})({})",
                    crate::names::Place::parse(name).c(*size)
                )
            }
            Side::Const(c) => format!("{c}LL"),
        }
    }
}

/// A transition predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pred {
    /// Left side (always a variable depending on the input).
    pub lhs: Side,
    /// The operator.
    pub op: Op,
    /// Right side.
    pub rhs: Side,
    /// Its meaning over the input (width 1).
    pub expr: ExprId,
}

impl Pred {
    /// The C expression (an int, 0 or 1, computed without branches).
    pub fn c(&self) -> String {
        format!("({} {} {})", self.lhs.c(), self.op.c(), self.rhs.c())
    }

    /// How it reads to a human: `x > y`, `n <= 3`.
    pub fn text(&self) -> String {
        let side = |s: &Side| match s {
            Side::Var(n, _) => n.clone(),
            Side::Const(c) => c.to_string(),
        };
        format!("{} {} {}", side(&self.lhs), self.op.c(), side(&self.rhs))
    }
}

/// A variable's value as a 64-bit signed expression (1-byte ones zero-extended).
fn widen(pool: &mut ExprPool, v: &VarValue) -> ExprId {
    if v.var.size == 1 {
        pool.zext(v.expr, 64)
    } else {
        pool.sext(v.expr, 64)
    }
}

/// A variable's seed value as the C cast reads it.
fn seed_value(v: &VarValue) -> i128 {
    let bits = u32::from(v.var.size) * 8;
    let raw = v.seed & ((1u128 << bits) - 1);
    if v.var.size == 1 || raw >> (bits - 1) == 0 {
        raw as i128
    } else {
        raw as i128 - (1i128 << bits)
    }
}

/// `a op b` at 64 bits, signed.
fn compare(pool: &mut ExprPool, op: Op, a: ExprId, b: ExprId) -> ExprId {
    match op {
        Op::Lt => pool.cmp(CmpOp::Slt, a, b),
        Op::Le => pool.cmp(CmpOp::Sle, a, b),
        Op::Gt => pool.cmp(CmpOp::Slt, b, a),
        Op::Ge => pool.cmp(CmpOp::Sle, b, a),
        Op::Eq => pool.cmp(CmpOp::Eq, a, b),
        Op::Ne => {
            let eq = pool.cmp(CmpOp::Eq, a, b);
            pool.not(eq)
        }
    }
}

/// Largest constant in a predicate: small ones only, so that no predicate is a magic
/// value that only a solver could guess (LAVA's weakness).
const SMALL: i128 = 255;

/// Constants tried against a variable whose seed value is `s`: small ones near it.
fn constants(s: i128) -> Vec<i64> {
    let mut cs = vec![0, 1];
    if s.abs() < SMALL {
        let s = s as i64;
        cs.extend([s - 1, s, s + 1]);
    }
    cs.sort_unstable();
    cs.dedup();
    cs
}

/// Every candidate predicate over `vals` that holds on the seed and has a side
/// depending on the input: `u op v` for an input-dependent `u` and any other `v`, and
/// `u op c` for small constants `c`.
pub fn candidates(pool: &mut ExprPool, vals: &[VarValue]) -> Vec<Pred> {
    let mut out = Vec::new();
    for (i, u) in vals.iter().enumerate() {
        if !u.is_symbolic(pool) {
            continue;
        }
        let eu = widen(pool, u);
        let su = seed_value(u);
        for (j, v) in vals.iter().enumerate() {
            if i == j || (v.is_symbolic(pool) && j < i) || v.var.name == u.var.name {
                continue;
            }
            let ev = widen(pool, v);
            let sv = seed_value(v);
            for op in Op::ALL {
                if op.holds(su, sv) {
                    let expr = compare(pool, op, eu, ev);
                    if pool.as_const(expr).is_none() {
                        out.push(Pred {
                            lhs: Side::var(u),
                            op,
                            rhs: Side::var(v),
                            expr,
                        });
                    }
                }
            }
        }
        for c in constants(su) {
            let ec = pool.constant(c as u64 as u128, 64);
            // Equality with a constant pins a wide variable to one value in 2^16 or more.
            let ops = if u.var.size == 1 {
                &Op::ALL[..]
            } else {
                &Op::ALL[..4]
            };
            for &op in ops {
                if op.holds(su, i128::from(c)) {
                    let expr = compare(pool, op, eu, ec);
                    if pool.as_const(expr).is_none() {
                        out.push(Pred {
                            lhs: Side::var(u),
                            op,
                            rhs: Side::Const(c),
                            expr,
                        });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::Var;

    #[test]
    fn candidates_hold_on_the_seed_and_read_as_c() {
        let mut pool = ExprPool::new();
        let a = pool.new_array("x", 4);
        let arr = pool.array_sym(a);
        let i0 = pool.constant(0, 64);
        let x = pool.select(arr, i0);
        let vals = vec![
            VarValue {
                var: Var {
                    name: "c".into(),
                    size: 1,
                },
                expr: x,
                seed: 200,
            },
            VarValue {
                var: Var {
                    name: "n".into(),
                    size: 4,
                },
                expr: pool.constant(0xffff_fffe, 32),
                seed: 0xffff_fffe,
            },
        ];
        let cs = candidates(&mut pool, &vals);
        let texts: Vec<String> = cs.iter().map(Pred::text).collect();
        assert!(texts.contains(&"c > n".to_string()), "{texts:?}");
        assert!(texts.contains(&"c == 200".to_string()));
        assert!(!texts.contains(&"c < n".to_string()));
        let gt = cs.iter().find(|p| p.text() == "c > n").unwrap();
        assert_eq!(
            gt.c(),
            "((long long)(unsigned char)(c) > (long long)(int)(n))"
        );
        let mut seed = augur_expr::Assignment::default();
        seed.set(a, vec![200, 0, 0, 0]);
        assert!(cs.iter().all(|p| pool.eval(p.expr, &seed) == 1));
    }
}
