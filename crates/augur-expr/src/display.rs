//! Human-readable rendering of expressions (for logs and debugging).

use crate::{BinOp, CmpOp, ExprId, ExprKind, ExprPool, FpBinOp, FpCmpOp, FpConvOp};
use std::fmt::Write;

/// A pending piece of output.
#[derive(Clone, Copy)]
enum Piece {
    /// An expression; `true` wraps infix forms in parentheses.
    Expr(ExprId, bool),
    /// Literal text.
    Text(&'static str),
    /// A number (extract / extension parameters).
    Num(u32),
}

fn bin_symbol(op: &BinOp) -> &'static str {
    match op {
        BinOp::Add => " + ",
        BinOp::Sub => " - ",
        BinOp::Mul => " * ",
        BinOp::UDiv => " /u ",
        BinOp::SDiv => " /s ",
        BinOp::URem => " %u ",
        BinOp::SRem => " %s ",
        BinOp::And => " & ",
        BinOp::Or => " | ",
        BinOp::Xor => " ^ ",
        BinOp::Shl => " << ",
        BinOp::LShr => " >>u ",
        BinOp::AShr => " >>s ",
    }
}

fn cmp_symbol(op: &CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => " == ",
        CmpOp::Ult => " <u ",
        CmpOp::Ule => " <=u ",
        CmpOp::Slt => " <s ",
        CmpOp::Sle => " <=s ",
    }
}

fn fp_bin_symbol(op: FpBinOp) -> &'static str {
    match op {
        FpBinOp::Add => " +. ",
        FpBinOp::Sub => " -. ",
        FpBinOp::Mul => " *. ",
        FpBinOp::Div => " /. ",
    }
}

fn fp_cmp_name(op: FpCmpOp) -> &'static str {
    match op {
        FpCmpOp::Eq => "feq(",
        FpCmpOp::Lt => "flt(",
        FpCmpOp::Le => "fle(",
        FpCmpOp::Uno => "funo(",
    }
}

fn fp_conv_name(op: FpConvOp) -> &'static str {
    match op {
        FpConvOp::FromSInt => "sitofp(",
        FpConvOp::FromUInt => "uitofp(",
        FpConvOp::ToSInt => "fptosi(",
        FpConvOp::ToUInt => "fptoui(",
        FpConvOp::Resize => "fpresize(",
    }
}

impl ExprPool {
    /// Readable infix text, e.g. `(x[0] + 3) <u 10`. Reads of a symbolic array print as
    /// `name[i]`, stores as `array{i := v}`, width-1 constants as `true` / `false`.
    pub fn display(&self, e: ExprId) -> String {
        self.display_at_most(e, usize::MAX)
    }

    /// [`ExprPool::display`] cut once it reaches `limit` bytes (a piece or so more): the
    /// text of an expression whose DAG shares much can be far larger than the DAG.
    pub fn display_at_most(&self, e: ExprId, limit: usize) -> String {
        let mut out = String::new();
        let mut stack = vec![Piece::Expr(e, false)];
        while let Some(piece) = stack.pop() {
            if out.len() >= limit {
                break;
            }
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Num(n) => {
                    let _ = write!(out, "{n}");
                }
                Piece::Expr(e, paren) => self.display_node(e, paren, &mut out, &mut stack),
            }
        }
        out
    }

    /// Writes the leaf `e` to `out`, or pushes the pieces of compound `e` (in reverse).
    fn display_node(&self, e: ExprId, paren: bool, out: &mut String, stack: &mut Vec<Piece>) {
        let mut push_rev = |pieces: &[Piece]| stack.extend(pieces.iter().rev().copied());
        let (open, close) = if paren { ("(", ")") } else { ("", "") };
        match *self.kind(e) {
            ExprKind::Const { width: 1, value } => out.push_str(["false", "true"][value as usize]),
            ExprKind::Const { value, .. } if value > 0xffff => {
                let _ = write!(out, "{value:#x}");
            }
            ExprKind::Const { value, .. } => {
                let _ = write!(out, "{value}");
            }
            ExprKind::ArraySym(a) => out.push_str(self.array_name(a)),
            ExprKind::ArrayConst(ref bytes) => {
                let _ = write!(out, "const{bytes:?}");
            }
            ExprKind::Select { array, index } => push_rev(&[
                Piece::Expr(array, true),
                Piece::Text("["),
                Piece::Expr(index, false),
                Piece::Text("]"),
            ]),
            ExprKind::Store {
                array,
                index,
                value,
            } => push_rev(&[
                Piece::Expr(array, true),
                Piece::Text("{"),
                Piece::Expr(index, false),
                Piece::Text(" := "),
                Piece::Expr(value, false),
                Piece::Text("}"),
            ]),
            ExprKind::Ite { cond, then, els } => push_rev(&[
                Piece::Text("("),
                Piece::Expr(cond, true),
                Piece::Text(" ? "),
                Piece::Expr(then, true),
                Piece::Text(" : "),
                Piece::Expr(els, true),
                Piece::Text(")"),
            ]),
            ExprKind::Concat { hi, lo } => push_rev(&[
                Piece::Text("concat("),
                Piece::Expr(hi, false),
                Piece::Text(", "),
                Piece::Expr(lo, false),
                Piece::Text(")"),
            ]),
            ExprKind::Extract { expr, lo, width } => push_rev(&[
                Piece::Text("extract("),
                Piece::Expr(expr, false),
                Piece::Text(", "),
                Piece::Num(lo),
                Piece::Text(", "),
                Piece::Num(width),
                Piece::Text(")"),
            ]),
            ExprKind::ZExt { expr, width } | ExprKind::SExt { expr, width } => {
                let name = match self.kind(e) {
                    ExprKind::ZExt { .. } => "zext(",
                    _ => "sext(",
                };
                push_rev(&[
                    Piece::Text(name),
                    Piece::Expr(expr, false),
                    Piece::Text(", "),
                    Piece::Num(width),
                    Piece::Text(")"),
                ])
            }
            ExprKind::Not(x) => {
                let sym = if self.width(x) == 1 { "!" } else { "~" };
                push_rev(&[Piece::Text(sym), Piece::Expr(x, true)])
            }
            ExprKind::Bin { ref op, lhs, rhs } => push_rev(&[
                Piece::Text(open),
                Piece::Expr(lhs, true),
                Piece::Text(bin_symbol(op)),
                Piece::Expr(rhs, true),
                Piece::Text(close),
            ]),
            ExprKind::Cmp { ref op, lhs, rhs } => push_rev(&[
                Piece::Text(open),
                Piece::Expr(lhs, true),
                Piece::Text(cmp_symbol(op)),
                Piece::Expr(rhs, true),
                Piece::Text(close),
            ]),
            ExprKind::FpBin { op, lhs, rhs } => push_rev(&[
                Piece::Text(open),
                Piece::Expr(lhs, true),
                Piece::Text(fp_bin_symbol(op)),
                Piece::Expr(rhs, true),
                Piece::Text(close),
            ]),
            ExprKind::FpCmp { op, lhs, rhs } => push_rev(&[
                Piece::Text(fp_cmp_name(op)),
                Piece::Expr(lhs, false),
                Piece::Text(", "),
                Piece::Expr(rhs, false),
                Piece::Text(")"),
            ]),
            ExprKind::FpSqrt(x) => push_rev(&[
                Piece::Text("fsqrt("),
                Piece::Expr(x, false),
                Piece::Text(")"),
            ]),
            ExprKind::FpConv { op, expr, width } => push_rev(&[
                Piece::Text(fp_conv_name(op)),
                Piece::Expr(expr, false),
                Piece::Text(", "),
                Piece::Num(width),
                Piece::Text(")"),
            ]),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ExprPool;

    #[test]
    fn renders_infix() {
        let mut p = ExprPool::new();
        let x = p.new_array("x", 4);
        let arr = p.array_sym(x);
        let i0 = p.constant(0, 64);
        let b = p.select(arr, i0);
        let c3 = p.constant(3, 8);
        let c10 = p.constant(10, 8);
        let s = p.add(b, c3);
        let lt = p.ult(s, c10);
        assert_eq!(p.display(lt), "(3 + x[0]) <u 10");
        let n = p.not(lt);
        assert_eq!(p.display(n), "!((3 + x[0]) <u 10)");
        let t = p.bool_const(true);
        assert_eq!(p.display(t), "true");
        let z = p.zext(b, 32);
        let big = p.constant(0x12345, 32);
        let sum = p.add(z, big);
        let ex = p.extract(sum, 4, 8);
        assert_eq!(p.display(ex), "extract(0x12345 + zext(x[0], 32), 4, 8)");
        let i1 = p.constant(1, 64);
        let b1 = p.select(arr, i1);
        let zi = p.zext(b, 64);
        let zi1 = p.zext(b1, 64);
        let st = p.store(arr, zi, c3);
        let sel = p.select(st, zi1);
        assert_eq!(p.display(sel), "x{zext(x[0], 64) := 3}[zext(x[1], 64)]");
        let ite = p.ite(lt, b, c3);
        assert_eq!(p.display(ite), "(((3 + x[0]) <u 10) ? x[0] : 3)");
    }
}
