//! Randomised differential test: every expression built through the simplifying builders
//! must evaluate like the same expression interned raw, under random assignments.

use crate::{
    ArrayId, Assignment, BinOp, CmpOp, ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp, Rng,
};

const WIDTHS: [u32; 13] = [1, 2, 3, 7, 8, 13, 16, 32, 63, 64, 65, 127, 128];
const BIN_OPS: [BinOp; 13] = BinOp::ALL;
const CMP_OPS: [CmpOp; 5] = CmpOp::ALL;
const ARRAY_SIZE: u64 = 4;

/// Builds random expression pairs `(raw, simplified)` with identical meaning.
struct Gen {
    p: ExprPool,
    rng: Rng,
    arrays: [ArrayId; 2],
}

impl Gen {
    fn new(seed: u64) -> Self {
        let mut p = ExprPool::new();
        let arrays = [p.new_array("a", ARRAY_SIZE), p.new_array("b", ARRAY_SIZE)];
        Gen {
            p,
            rng: Rng::new(seed),
            arrays,
        }
    }

    fn both(&mut self, e: ExprId) -> (ExprId, ExprId) {
        (e, e)
    }

    fn constant(&mut self, width: u32) -> (ExprId, ExprId) {
        let v = self.rng.edge_value(width);
        let c = self.p.constant(v, width);
        self.both(c)
    }

    fn index(&mut self, depth: u32) -> (ExprId, ExprId) {
        if depth == 0 || self.rng.below(2) == 0 {
            let c = self
                .p
                .constant(u128::from(self.rng.below(ARRAY_SIZE + 2)), 64);
            return self.both(c);
        }
        let (r, s) = self.expr(depth - 1, 3);
        let r = self.p.raw(ExprKind::ZExt { expr: r, width: 64 });
        (r, self.p.zext(s, 64))
    }

    fn array(&mut self, depth: u32) -> (ExprId, ExprId) {
        match self.rng.below(if depth == 0 { 2 } else { 4 }) {
            0 => {
                let a = self.rng.pick(&self.arrays);
                let e = self.p.array_sym(a);
                self.both(e)
            }
            1 => {
                let bytes: Vec<u8> = (0..self.rng.below(6))
                    .map(|_| self.rng.edge_value(8) as u8)
                    .collect();
                let e = self.p.array_const(&bytes);
                self.both(e)
            }
            _ => {
                let (ar, as_) = self.array(depth - 1);
                let (ir, is) = self.index(depth - 1);
                let (vr, vs) = self.expr(depth - 1, 8);
                let r = self.p.raw(ExprKind::Store {
                    array: ar,
                    index: ir,
                    value: vr,
                });
                (r, self.p.store(as_, is, vs))
            }
        }
    }

    /// A symbolic leaf: one array byte fitted to `width`.
    fn leaf(&mut self, width: u32) -> (ExprId, ExprId) {
        let a = self.rng.pick(&self.arrays);
        let arr = self.p.array_sym(a);
        let idx = self.p.constant(u128::from(self.rng.below(ARRAY_SIZE)), 64);
        let b = self.p.select(arr, idx);
        let r = match width {
            8 => b,
            w if w < 8 => self.p.raw(ExprKind::Extract {
                expr: b,
                lo: 0,
                width: w,
            }),
            w => self.p.raw(ExprKind::SExt { expr: b, width: w }),
        };
        (r, r)
    }

    /// An operand of a binary node: often a constant, so constant-operand rules fire.
    fn operand(&mut self, depth: u32, width: u32) -> (ExprId, ExprId) {
        match self.rng.below(3) {
            0 => self.constant(width),
            1 if depth > 0 => self.shaped(depth - 1, width),
            _ => self.expr(depth, width),
        }
    }

    /// One of the shapes the equality rules look for: an extension, an ite of
    /// constants or a sum with a constant.
    fn shaped(&mut self, depth: u32, width: u32) -> (ExprId, ExprId) {
        match self.rng.below(4) {
            0 | 1 if width > 1 => {
                let src = self.rng.pick(&WIDTHS).min(width - 1);
                let (xr, xs) = self.expr(depth, src);
                if self.rng.below(2) == 0 {
                    let r = self.p.raw(ExprKind::ZExt { expr: xr, width });
                    (r, self.p.zext(xs, width))
                } else {
                    let r = self.p.raw(ExprKind::SExt { expr: xr, width });
                    (r, self.p.sext(xs, width))
                }
            }
            2 => {
                let (cr, cs) = self.expr(depth, 1);
                let ((tr, _), (er, _)) = (self.constant(width), self.constant(width));
                let r = self.p.raw(ExprKind::Ite {
                    cond: cr,
                    then: tr,
                    els: er,
                });
                (r, self.p.ite(cs, tr, er))
            }
            _ => {
                let ((cr, _), (xr, xs)) = (self.constant(width), self.expr(depth, width));
                let r = self.p.raw(ExprKind::Bin {
                    op: BinOp::Add,
                    lhs: cr,
                    rhs: xr,
                });
                (r, self.p.bin(BinOp::Add, cr, xs))
            }
        }
    }

    fn expr(&mut self, depth: u32, width: u32) -> (ExprId, ExprId) {
        if depth == 0 || self.rng.below(4) == 0 {
            return if self.rng.below(2) == 0 {
                self.constant(width)
            } else {
                self.leaf(width)
            };
        }
        let d = depth - 1;
        if self.rng.below(8) == 0 {
            return self.float(d, width);
        }
        // Extra weight on operators: comparisons for width 1, binary operators otherwise.
        let choice = match self.rng.below(10) {
            9 => u64::from(width == 1),
            c => c,
        };
        match choice {
            0 => {
                let op = self.rng.pick(&BIN_OPS);
                let ((lr, ls), (rr, rs)) = (self.operand(d, width), self.operand(d, width));
                let r = self.p.raw(ExprKind::Bin {
                    op,
                    lhs: lr,
                    rhs: rr,
                });
                (r, self.p.bin(op, ls, rs))
            }
            1 if width == 1 => {
                let op = self.rng.pick(&CMP_OPS);
                let w = self.rng.pick(&WIDTHS);
                let ((lr, ls), (rr, rs)) = (self.operand(d, w), self.operand(d, w));
                let r = self.p.raw(ExprKind::Cmp {
                    op: op.clone(),
                    lhs: lr,
                    rhs: rr,
                });
                (r, self.p.cmp(op, ls, rs))
            }
            2 => {
                let (xr, xs) = self.expr(d, width);
                (self.p.raw(ExprKind::Not(xr)), self.p.not(xs))
            }
            3 => {
                let (cr, cs) = self.expr(d, 1);
                let ((tr, ts), (er, es)) = (self.expr(d, width), self.expr(d, width));
                let r = self.p.raw(ExprKind::Ite {
                    cond: cr,
                    then: tr,
                    els: er,
                });
                (r, self.p.ite(cs, ts, es))
            }
            4 if width >= 2 => {
                let lo_w = 1 + self.rng.below(u64::from(width) - 1) as u32;
                let ((hr, hs), (lr, ls)) = (self.expr(d, width - lo_w), self.expr(d, lo_w));
                let r = self.p.raw(ExprKind::Concat { hi: hr, lo: lr });
                (r, self.p.concat(hs, ls))
            }
            5 | 6 => {
                let src = self.rng.pick(&WIDTHS).max(width);
                let lo = self.rng.below(u64::from(src - width) + 1) as u32;
                let (xr, xs) = self.expr(d, src);
                let r = self.p.raw(ExprKind::Extract {
                    expr: xr,
                    lo,
                    width,
                });
                (r, self.p.extract(xs, lo, width))
            }
            7 => {
                let src = self.rng.pick(&WIDTHS).min(width);
                let (xr, xs) = self.expr(d, src);
                if self.rng.below(2) == 0 {
                    let r = self.p.raw(ExprKind::ZExt { expr: xr, width });
                    (r, self.p.zext(xs, width))
                } else {
                    let r = self.p.raw(ExprKind::SExt { expr: xr, width });
                    (r, self.p.sext(xs, width))
                }
            }
            8 if width == 8 => {
                let ((ar, as_), (ir, is)) = (self.array(d), self.index(d));
                let r = self.p.raw(ExprKind::Select {
                    array: ar,
                    index: ir,
                });
                (r, self.p.select(as_, is))
            }
            _ => self.leaf(width),
        }
    }

    /// A floating-point node of `width` bits: arithmetic or a square root for a float
    /// width, a comparison for width 1, else a conversion to the integer.
    fn float(&mut self, d: u32, width: u32) -> (ExprId, ExprId) {
        let fw = self.rng.pick(&[32, 64]);
        let (op, (xr, xs)) = match width {
            1 => {
                let op = self.rng.pick(&FpCmpOp::ALL);
                let ((lr, ls), (rr, rs)) = (self.operand(d, fw), self.operand(d, fw));
                let r = self.p.raw(ExprKind::FpCmp {
                    op,
                    lhs: lr,
                    rhs: rr,
                });
                return (r, self.p.fp_cmp(op, ls, rs));
            }
            32 | 64 => match self.rng.below(4) {
                0 => {
                    let op = self.rng.pick(&FpBinOp::ALL);
                    let ((lr, ls), (rr, rs)) = (self.operand(d, width), self.operand(d, width));
                    let r = self.p.raw(ExprKind::FpBin {
                        op,
                        lhs: lr,
                        rhs: rr,
                    });
                    return (r, self.p.fp_bin(op, ls, rs));
                }
                1 => {
                    let (xr, xs) = self.operand(d, width);
                    return (self.p.raw(ExprKind::FpSqrt(xr)), self.p.fp_sqrt(xs));
                }
                2 => (FpConvOp::Resize, self.operand(d, 96 - width)),
                _ => {
                    let op = self.rng.pick(&[FpConvOp::FromSInt, FpConvOp::FromUInt]);
                    let src = self.rng.pick(&WIDTHS);
                    (op, self.operand(d, src))
                }
            },
            _ => {
                let op = self.rng.pick(&[FpConvOp::ToSInt, FpConvOp::ToUInt]);
                (op, self.operand(d, fw))
            }
        };
        let r = self.p.raw(ExprKind::FpConv {
            op,
            expr: xr,
            width,
        });
        (r, self.p.fp_conv(op, xs, width))
    }

    fn assignment(&mut self) -> Assignment {
        let mut a = Assignment::default();
        for arr in self.arrays {
            if self.rng.below(5) != 0 {
                let bytes = (0..ARRAY_SIZE)
                    .map(|_| self.rng.edge_value(8) as u8)
                    .collect();
                a.set(arr, bytes);
            }
        }
        a
    }
}

#[test]
fn simplified_and_raw_expressions_evaluate_alike() {
    let mut g = Gen::new(0x9e37_79b9_7f4a_7c15);
    let mut simplified = 0;
    for _ in 0..20_000 {
        let width = g.rng.pick(&WIDTHS);
        let (raw, simp) = g.expr(5, width);
        assert_eq!(g.p.width(raw), g.p.width(simp));
        simplified += usize::from(raw != simp);
        for _ in 0..6 {
            let a = g.assignment();
            assert_eq!(
                g.p.eval(raw, &a),
                g.p.eval(simp, &a),
                "raw {} vs simplified {} under {a:?}",
                g.p.display(raw),
                g.p.display(simp)
            );
        }
    }
    assert!(
        simplified > 5000,
        "only {simplified} expressions simplified"
    );
}

#[test]
fn compiled_queries_decide_like_the_evaluator() {
    let mut g = Gen::new(0x2545_f491_4f6c_dd1d);
    let (mut held, mut failed) = (0, 0);
    for _ in 0..5_000 {
        let constraints: Vec<ExprId> = (0..1 + g.rng.below(3))
            .map(|_| {
                let (raw, simp) = g.expr(5, 1);
                if g.rng.below(2) == 0 {
                    raw
                } else {
                    simp
                }
            })
            .collect();
        // Store buffers for every array, or for none (reads walk the chain of stores).
        let buffered = if g.rng.below(2) == 0 { 0 } else { 64 };
        let Some(query) = crate::CompiledQuery::compile_buffering(&g.p, &constraints, buffered)
        else {
            let wide = g.p.post_order(&constraints, |_| false);
            assert!(
                wide.iter().any(|&n| g.p.width(n) > 64),
                "only wide values stop it"
            );
            continue;
        };
        let mut regs = query.scratch();
        for _ in 0..6 {
            let a = g.assignment();
            let expected = constraints.iter().all(|&c| g.p.eval(c, &a) == 1);
            let input = query.input_of(&a);
            assert_eq!(
                query.holds(&input, &mut regs),
                expected,
                "{:?} under {a:?}",
                constraints
                    .iter()
                    .map(|&c| g.p.display(c).to_string())
                    .collect::<Vec<_>>()
            );
            let mut each = Vec::new();
            query.holds_each(&input, &mut regs, &mut each);
            let each_expected: Vec<bool> =
                constraints.iter().map(|&c| g.p.eval(c, &a) == 1).collect();
            assert_eq!(each, each_expected);
            let rebuilt = query.assignment(&input);
            assert!(constraints
                .iter()
                .all(|&c| g.p.eval(c, &rebuilt) == g.p.eval(c, &a)));
            if expected {
                held += 1;
            } else {
                failed += 1;
            }
        }
    }
    assert!(
        held > 2_000 && failed > 2_000,
        "held {held}, failed {failed}"
    );
}
