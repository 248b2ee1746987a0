//! Parsers of numeric options: a number out of its option's range is a usage error
//! (clap prints it with the option's name and exits with 2), never a panic later.

/// The longest time an option may give, in seconds (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// The most bytes one symbolic input (argument, stdin, file) may have: 64 KiB (setting
/// up one takes about 10 µs a byte, and no exploration is meant for more).
pub const MAX_SYMBOLIC_BYTES: u64 = 1 << 16;

/// A number of seconds: finite, above 0, at most [`MAX_SECONDS`].
pub fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if v.is_finite() && v > 0.0 && v <= MAX_SECONDS {
        Ok(v)
    } else {
        Err(format!(
            "{s} is out of range: a number of seconds above 0 and at most {MAX_SECONDS:e}"
        ))
    }
}

/// A whole number in `min..=max`.
fn whole(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let v: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number from {min} to {max}"))?;
    if (min..=max).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is out of range: from {min} to {max}"))
    }
}

/// A whole number of at least 1 (limits, counts).
pub fn at_least_one(s: &str) -> Result<u64, String> {
    whole(s, 1, u64::MAX)
}

/// A whole number of at least 1 that fits 32 bits.
pub fn at_least_one_u32(s: &str) -> Result<u32, String> {
    whole(s, 1, u32::MAX.into()).map(|v| v as u32)
}

/// A count of at least 1 (of bugs, points, samples, tests).
pub fn count(s: &str) -> Result<usize, String> {
    whole(s, 1, u32::MAX.into()).map(|v| v as usize)
}

/// A size of a symbolic input in bytes: 1 to [`MAX_SYMBOLIC_BYTES`].
pub fn symbolic_bytes(s: &str) -> Result<u64, String> {
    whole(s, 1, MAX_SYMBOLIC_BYTES)
}

/// A whole number from 0 (where 0 means something: a seed, no failures, no argument).
pub fn from_zero(s: &str) -> Result<u64, String> {
    whole(s, 0, u64::MAX)
}

/// A fraction: a number from 0 to 1.
pub fn fraction(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number from 0 to 1"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{s} is out of range: a number from 0 to 1"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_from_zero_to_one() {
        assert_eq!(fraction("0.001"), Ok(0.001));
        assert_eq!(fraction("1"), Ok(1.0));
        assert!(fraction("1.5").is_err());
        assert!(fraction("-0.1").is_err());
        assert!(fraction("NaN").is_err());
        assert!(fraction("x").is_err());
    }

    #[test]
    fn seconds_are_positive_finite_and_bounded() {
        assert_eq!(seconds("2.5"), Ok(2.5));
        for bad in ["0", "-1", "1e20", "99999999999999999999", "inf", "NaN", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn whole_numbers_keep_to_their_range() {
        assert_eq!(at_least_one("7"), Ok(7));
        assert_eq!(from_zero("0"), Ok(0));
        assert_eq!(symbolic_bytes("65536"), Ok(1 << 16));
        for bad in ["0", "-3", "100000000000000000000", "1.5", ""] {
            assert!(at_least_one(bad).is_err(), "{bad}");
        }
        assert!(symbolic_bytes("65537").is_err());
        assert!(from_zero("-1").is_err());
        assert!(at_least_one_u32("4294967296").is_err());
    }
}
