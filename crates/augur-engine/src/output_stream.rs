//! What a path wrote to standard output or standard error: the first
//! [`MAX_KEPT_OUTPUT`] bytes, kept for the test's prediction, and how many followed.
//! A program that prints for ever (`yes`) would otherwise fill memory with bytes no test
//! can hold; its tests predict the kept prefix and the total length.

use crate::memory::Byte;

/// The most bytes a path keeps of each output stream.
pub const MAX_KEPT_OUTPUT: usize = 1 << 18;

/// One output stream of a path.
#[derive(Clone, Debug, Default)]
pub struct OutputStream {
    kept: Vec<Byte>,
    dropped: u64,
}

impl OutputStream {
    /// Append `bytes`: kept while fewer than [`MAX_KEPT_OUTPUT`] are, counted after.
    pub fn append(&mut self, bytes: impl IntoIterator<Item = Byte>) {
        let mut bytes = bytes.into_iter();
        let room = MAX_KEPT_OUTPUT - self.kept.len();
        self.kept.extend(bytes.by_ref().take(room));
        self.dropped += bytes.count() as u64;
    }

    /// The kept bytes, the stream's first.
    pub fn kept(&self) -> &[Byte] {
        &self.kept
    }

    /// The bytes written after the kept ones.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// All the bytes written, kept or not.
    pub fn len(&self) -> u64 {
        self.kept.len() as u64 + self.dropped
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_past_the_limit_are_counted_not_kept() {
        let mut s = OutputStream::default();
        s.append([Byte::C(b'y'), Byte::C(b'\n')]);
        assert_eq!((s.kept().len(), s.dropped()), (2, 0));
        s.append(std::iter::repeat_n(Byte::C(b'y'), MAX_KEPT_OUTPUT));
        assert_eq!(s.kept().len(), MAX_KEPT_OUTPUT);
        assert_eq!(s.dropped(), 2);
        assert_eq!(s.len(), MAX_KEPT_OUTPUT as u64 + 2);
        assert_eq!(s.kept()[..2], [Byte::C(b'y'), Byte::C(b'\n')]);
    }
}
