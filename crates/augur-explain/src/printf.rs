//! The printf family as augur's libc models implement it: which functions write formatted
//! output, where their format is, and which variadic argument each conversion of a
//! format consumes.

/// The index of the format parameter of a printf-family function that writes to a
/// stream or descriptor and takes its arguments variadically (`printf`, `fprintf`,
/// `dprintf` and their `_FORTIFY_SOURCE` variants); None for any other function.
pub fn format_param(name: &str) -> Option<usize> {
    match name {
        "printf" => Some(0),
        "fprintf" | "dprintf" | "__printf_chk" => Some(1),
        "__fprintf_chk" => Some(2),
        _ => None,
    }
}

/// An integer conversion of a format (`%d`, `%5lu`, `%x`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntConversion {
    /// The conversion specification as written (`%ld`).
    pub text: String,
    /// The width of the value it prints, in bits (the length modifier: `hh` 8, `h` 16,
    /// none 32, `l`/`ll`/`z`/`j`/`t` 64).
    pub bits: u32,
    /// Is the value printed as signed (`%d`, `%i`)?
    pub signed: bool,
}

/// What a format makes of each variadic argument, in order: the integer conversion
/// printing it, or None for any other use (`*` width or precision, `%s`, `%c`, `%p`,
/// floating point, `%n`).
pub fn arguments(format: &[u8]) -> Vec<Option<IntConversion>> {
    let mut out = Vec::new();
    let mut p = 0;
    let at = |i: usize| format.get(i).copied().unwrap_or(0);
    while at(p) != 0 {
        if at(p) != b'%' {
            p += 1;
            continue;
        }
        let start = p;
        p += 1;
        while matches!(at(p), b'-' | b'+' | b' ' | b'#' | b'0' | b'\'' | b'I') {
            p += 1;
        }
        // Width, then precision: `*` takes an int argument.
        for first in [true, false] {
            if !first {
                if at(p) != b'.' {
                    break;
                }
                p += 1;
            }
            if at(p) == b'*' {
                out.push(None);
                p += 1;
            } else {
                while at(p).is_ascii_digit() {
                    p += 1;
                }
            }
        }
        let mut bits = 32;
        while let c @ (b'h' | b'l' | b'q' | b'L' | b'z' | b'Z' | b'j' | b't') = at(p) {
            bits = match (c, bits) {
                (b'h', 16) => 8,
                (b'h', _) => 16,
                _ => 64,
            };
            p += 1;
        }
        let conv = at(p);
        if conv == 0 {
            break;
        }
        p += 1;
        let text = String::from_utf8_lossy(&format[start..p]).into_owned();
        match conv {
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => out.push(Some(IntConversion {
                text,
                bits,
                signed: matches!(conv, b'd' | b'i'),
            })),
            b'p' | b'c' | b's' | b'n' | b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                out.push(None)
            }
            _ => {} // `%%` and unknown conversions take no argument
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str, bits: u32, signed: bool) -> Option<IntConversion> {
        Some(IntConversion {
            text: text.into(),
            bits,
            signed,
        })
    }

    #[test]
    fn conversions_take_arguments_in_order() {
        assert_eq!(
            arguments(b"%s: %*d%% %-8.3lu %c %hhx %5.*lld %f\n"),
            vec![
                None,
                None,
                int("%*d", 32, true),
                int("%-8.3lu", 64, false),
                None,
                int("%hhx", 8, false),
                None,
                int("%5.*lld", 64, true),
                None,
            ]
        );
        assert_eq!(arguments(b"no conversion %"), vec![]);
        assert_eq!(arguments(b"%hi"), vec![int("%hi", 16, true)]);
    }
}
