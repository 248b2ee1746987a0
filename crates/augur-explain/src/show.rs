//! Readable constraints: comparisons written with the input on the left and printable
//! byte constants as characters (`arg00[1] == 'A'`), long texts shortened.

use augur_expr::{CmpOp, ExprId, ExprKind, ExprPool};

/// A constant as people read it: a printable character for bytes, else the number.
fn constant(pool: &ExprPool, e: ExprId) -> Option<String> {
    let v = pool.as_const(e)?;
    Some(match (pool.width(e), u8::try_from(v)) {
        (8, Ok(b)) if b.is_ascii_graphic() || b == b' ' => format!("'{}'", b as char),
        _ => v.to_string(),
    })
}

/// A little-endian word of consecutive input bytes by its name: the whole array (`x`)
/// or a range of it (`stdin[4..8]`).
fn input_word(pool: &ExprPool, e: ExprId) -> Option<String> {
    // Leaves of the concatenation, most significant first.
    let mut leaves = Vec::new();
    let mut stack = vec![e];
    while let Some(n) = stack.pop() {
        match pool.kind(n) {
            ExprKind::Concat { hi, lo } => stack.extend([*lo, *hi]),
            ExprKind::Select { array, index } => match pool.kind(*array) {
                ExprKind::ArraySym(a) => leaves.push((*a, pool.as_const(*index)?)),
                _ => return None,
            },
            _ => return None,
        }
    }
    let (a, low) = *leaves.last()?;
    let n = leaves.len() as u128;
    let consecutive = leaves
        .iter()
        .rev()
        .enumerate()
        .all(|(k, (b, i))| *b == a && *i == low + k as u128);
    if n < 2 || !consecutive {
        return None;
    }
    let name = pool.array_name(a);
    Some(if low == 0 && n == pool.array_size(a) as u128 {
        name.to_string()
    } else {
        format!("{name}[{low}..{}]", low + n)
    })
}

/// `e` as text: `lhs op rhs` with the constant side last, negated equalities as `!=`;
/// the expression is cut to about `max` characters.
pub fn constraint(pool: &ExprPool, e: ExprId, max: usize) -> String {
    let (negated, inner) = match pool.kind(e) {
        ExprKind::Not(x) => (true, *x),
        _ => (false, e),
    };
    let ExprKind::Cmp { op, lhs, rhs } = pool.kind(inner) else {
        return shorten(pool, e, max);
    };
    // Comparisons are built with constants on the left: swap them to the right.
    let (sym, con, swapped) = match (constant(pool, *lhs), constant(pool, *rhs)) {
        (Some(c), None) => (*rhs, c, true),
        (None, Some(c)) => (*lhs, c, false),
        _ => return shorten(pool, e, max),
    };
    let op = match (op, swapped, negated) {
        (CmpOp::Eq, _, false) => "==",
        (CmpOp::Eq, _, true) => "!=",
        (CmpOp::Ult, false, false) | (CmpOp::Ule, true, true) => "<u",
        (CmpOp::Ule, false, false) | (CmpOp::Ult, true, true) => "<=u",
        (CmpOp::Ult, true, false) | (CmpOp::Ule, false, true) => ">u",
        (CmpOp::Ule, true, false) | (CmpOp::Ult, false, true) => ">=u",
        (CmpOp::Slt, false, false) | (CmpOp::Sle, true, true) => "<s",
        (CmpOp::Sle, false, false) | (CmpOp::Slt, true, true) => "<=s",
        (CmpOp::Slt, true, false) | (CmpOp::Sle, false, true) => ">s",
        (CmpOp::Sle, true, false) | (CmpOp::Slt, false, true) => ">=s",
    };
    let lhs = input_word(pool, sym).unwrap_or_else(|| shorten(pool, sym, max));
    format!("{lhs} {op} {con}")
}

/// Characters rendered of an expression, at most: beyond, its length is not counted.
const RENDERED: usize = 100_000;

/// `e` as text cut to at most `max` characters, saying how much was left out.
fn shorten(pool: &ExprPool, e: ExprId, max: usize) -> String {
    shorten_text(&pool.display_at_most(e, RENDERED), max)
}

/// `text` cut to at most `max` characters, saying how much was left out (text of
/// [`RENDERED`] bytes or more was itself cut).
fn shorten_text(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((cut, _)) if text.len() >= RENDERED => {
            format!(
                "{}… (over {} more characters)",
                &text[..cut],
                RENDERED - cut
            )
        }
        Some((cut, _)) => format!(
            "{}… ({} more characters)",
            &text[..cut],
            text[cut..].chars().count()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_read_naturally() {
        let mut p = ExprPool::new();
        let a = p.new_array("arg00", 2);
        let s = p.array_sym(a);
        let i = p.constant(1, 64);
        let b = p.select(s, i);
        let k = p.constant(b'A' as u128, 8);
        let eq = p.eq(b, k);
        assert_eq!(constraint(&p, eq, 100), "arg00[1] == 'A'");
        let ne = p.not(eq);
        assert_eq!(constraint(&p, ne, 100), "arg00[1] != 'A'");
        let nine = p.constant(9, 8);
        let lt = p.ult(nine, b);
        assert_eq!(constraint(&p, lt, 100), "arg00[1] >u 9");
        let not_lt = p.not(lt);
        assert_eq!(constraint(&p, not_lt, 100), "arg00[1] <=u 9");
        assert_eq!(constraint(&p, eq, 3), "arg… (5 more characters) == 'A'");
    }

    #[test]
    fn words_of_input_bytes_are_named() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let s = p.array_sym(a);
        let bytes: Vec<ExprId> = (0..4)
            .map(|i| {
                let k = p.constant(i, 64);
                p.select(s, k)
            })
            .collect();
        let lo = p.concat(bytes[1], bytes[0]);
        let hi = p.concat(bytes[3], bytes[2]);
        let word = p.concat(hi, lo);
        let ten = p.constant(10, 32);
        let le = p.sle(word, ten);
        assert_eq!(constraint(&p, le, 100), "x <=s 10");
        let k = p.constant(0, 16);
        let eq = p.eq(hi, k);
        assert_eq!(constraint(&p, eq, 100), "x[2..4] == 0");
    }

    #[test]
    fn long_texts_are_shortened() {
        assert_eq!(shorten_text("abcdef", 10), "abcdef");
        assert_eq!(shorten_text("abcdef", 2), "ab… (4 more characters)");
        let long = "x".repeat(RENDERED);
        assert_eq!(
            shorten_text(&long, 2),
            format!("xx… (over {} more characters)", RENDERED - 2)
        );
    }
}
