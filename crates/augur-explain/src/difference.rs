//! What kind of difference two outputs show: the same words and numbers laid out
//! differently (padding, line breaks, leading zeros: a different output *format*), or
//! different words or numbers (different *behaviour*), and where the first differing word
//! begins in each, so that a criterion is taken at what was computed differently rather
//! than at the padding before it.

/// How two runs' observable behaviour differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Standard output holds the same words and numbers, laid out differently; the
    /// exit status and whether anything was written to standard error agree.
    Format,
    /// Different words or numbers, exit status, or standard error's presence.
    Behaviour,
}

impl Difference {
    /// "format" or "behaviour".
    pub fn name(self) -> &'static str {
        match self {
            Difference::Format => "format",
            Difference::Behaviour => "behaviour",
        }
    }

    /// The kind, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Difference::Format => {
                "different output format (the same words and numbers, laid out differently)"
            }
            Difference::Behaviour => "different behaviour",
        }
    }
}

/// A word of an output: a maximal run of bytes other than white space, at a byte offset.
/// A run of digits stands for its number (`007` and `7` are the same word).
#[derive(Debug)]
struct Word<'a> {
    at: usize,
    text: &'a [u8],
}

impl Word<'_> {
    /// The text compared: a number without its leading zeros.
    fn key(&self) -> &[u8] {
        match self.text.iter().all(u8::is_ascii_digit) {
            true => {
                let zeros = self.text.iter().take_while(|b| **b == b'0').count();
                &self.text[zeros.min(self.text.len() - 1)..]
            }
            false => self.text,
        }
    }
}

fn words(out: &[u8]) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, b) in out.iter().chain(std::iter::once(&b' ')).enumerate() {
        match (!b.is_ascii_whitespace(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push(Word {
                    at: s,
                    text: &out[s..i],
                });
                start = None;
            }
            _ => {}
        }
    }
    words
}

/// Where two differing outputs (golden, buggy) differ: for a format difference, the
/// first differing byte of each; for different words, where the first differing word
/// begins in each (the output's length on a side that ran out of words). None when the
/// outputs hold the same bytes.
pub fn first_difference(golden: &[u8], buggy: &[u8]) -> Option<(Difference, usize, usize)> {
    let byte = golden
        .iter()
        .zip(buggy)
        .position(|(x, y)| x != y)
        .or_else(|| (golden.len() != buggy.len()).then(|| golden.len().min(buggy.len())))?;
    let (gw, bw) = (words(golden), words(buggy));
    let differing = (0..gw.len().max(bw.len()))
        .find(|k| gw.get(*k).map(Word::key) != bw.get(*k).map(Word::key));
    Some(match differing {
        None => (Difference::Format, byte, byte),
        Some(k) => {
            let at = |w: &[Word], out: &[u8]| w.get(k).map(|w| w.at).unwrap_or(out.len());
            let (g, b) = (at(&gw, golden), at(&bw, buggy));
            // Within the word, from its first differing byte.
            let same = golden[g..]
                .iter()
                .zip(&buggy[b..])
                .take_while(|(x, y)| x == y && !x.is_ascii_whitespace())
                .count();
            (Difference::Behaviour, g + same, b + same)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_and_separators_are_format() {
        assert_eq!(
            first_difference(b"      3      12\n", b"3 12\n"),
            Some((Difference::Format, 0, 0))
        );
        assert_eq!(
            first_difference(b"01\n02\n", b"1\n2\n"),
            Some((Difference::Format, 0, 0))
        );
        assert_eq!(first_difference(b"a b", b"a b"), None);
        // Another character in place of a tab is no layout.
        assert_eq!(
            first_difference(b"a_b", b"a\tb"),
            Some((Difference::Behaviour, 1, 1))
        );
    }

    #[test]
    fn the_first_differing_word_is_found_past_the_padding() {
        // golden "      3      12", buggy "3 11": the 2 of 12 against the 1 of 11.
        assert_eq!(
            first_difference(b"      3      12\n", b"3 11\n"),
            Some((Difference::Behaviour, 14, 3))
        );
        // A side with fewer words: its output's end.
        assert_eq!(
            first_difference(b"a b\n", b"a\n"),
            Some((Difference::Behaviour, 2, 2))
        );
    }
}
