//! The recording log (written by `runtime/record/record.c`, whose header comment is the
//! format's definition): reading, checking and printing it.

use std::path::Path;

/// The log's magic bytes.
pub const MAGIC: &[u8; 8] = b"AUGURLOG";
/// The format version this reader understands.
pub const VERSION: u16 = 1;
const END_MARK: u16 = 0xFFFF;

/// What a recorded function returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// An integer of the function's result size.
    Int,
    /// A `float`.
    Float,
    /// A `double`.
    Double,
    /// A C string (`char *`), or NULL.
    String,
    /// Nothing (only bytes written through pointer parameters).
    Void,
}

impl ResultKind {
    /// The kind's letter in the log.
    pub fn code(self) -> u8 {
        match self {
            ResultKind::Int => b'i',
            ResultKind::Float => b'f',
            ResultKind::Double => b'd',
            ResultKind::String => b's',
            ResultKind::Void => b'v',
        }
    }

    fn from_code(c: u8) -> Option<Self> {
        Some(match c {
            b'i' => ResultKind::Int,
            b'f' => ResultKind::Float,
            b'd' => ResultKind::Double,
            b's' => ResultKind::String,
            b'v' => ResultKind::Void,
            _ => return None,
        })
    }
}

/// A recorded function, as the log's table names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedFunction {
    /// Its name.
    pub name: String,
    /// What it returns.
    pub kind: ResultKind,
    /// Size of its result in bytes (0 for strings and void).
    pub size: u8,
}

/// One recorded result of a call: the return value (slot 0) or the bytes a call wrote
/// through parameter `slot - 1`; `None` is a NULL string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// 0: the return value; k >= 1: the pointee of parameter k-1.
    pub slot: u8,
    /// The bytes (`None`: a NULL pointer returned).
    pub bytes: Option<Vec<u8>>,
}

/// One logged call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedCall {
    /// Index in [`Log::functions`].
    pub func: u16,
    /// What it returned and wrote.
    pub parts: Vec<Part>,
}

impl LoggedCall {
    /// The part of `slot`, if logged.
    pub fn part(&self, slot: u8) -> Option<&Part> {
        self.parts.iter().find(|p| p.slot == slot)
    }
}

/// A whole log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log {
    /// Identifies the build that wrote it (see `build::build_id`).
    pub build_id: [u8; 32],
    /// The recorded functions.
    pub functions: Vec<LoggedFunction>,
    /// The outermost calls of hard functions, in order.
    pub calls: Vec<LoggedCall>,
    /// Calls left out because the log was full.
    pub dropped: u32,
    /// Size of the log file in bytes.
    pub bytes: usize,
}

/// A cursor over the log's bytes; every read failing means the log is truncated.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.data.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Log {
    /// Parse a log's bytes (`Err`: what is wrong with them).
    pub fn parse(data: &[u8]) -> Result<Log, String> {
        if data.len() < 10 || &data[..8] != MAGIC {
            return Err("not an augur log (no AUGURLOG header)".into());
        }
        let mut r = Reader { data, at: 8 };
        let truncated = || "truncated log (the program did not finish writing it)".to_string();
        let version = r.u16().ok_or_else(truncated)?;
        if version != VERSION {
            return Err(format!("log format version {version}, expected {VERSION}"));
        }
        let build_id: [u8; 32] = r.take(32).ok_or_else(truncated)?.try_into().unwrap();
        let n = r.u16().ok_or_else(truncated)?;
        let mut functions = Vec::new();
        for _ in 0..n {
            let len = r.u8().ok_or_else(truncated)? as usize;
            let name = String::from_utf8_lossy(r.take(len).ok_or_else(truncated)?).into_owned();
            let kind = r.u8().ok_or_else(truncated)?;
            let kind = ResultKind::from_code(kind)
                .ok_or_else(|| format!("unknown result kind `{}` of {name}", kind as char))?;
            let size = r.u8().ok_or_else(truncated)?;
            functions.push(LoggedFunction { name, kind, size });
        }
        let mut calls = Vec::new();
        loop {
            let func = r.u16().ok_or_else(truncated)?;
            if func == END_MARK {
                break;
            }
            if func >= n {
                return Err(format!("a call of function #{func}, the log names {n}"));
            }
            let mut parts = Vec::new();
            loop {
                let slot = r.u8().ok_or_else(truncated)?;
                if slot == 0xFF {
                    break;
                }
                let len = r.u16().ok_or_else(truncated)?;
                let bytes = if len == END_MARK {
                    None
                } else {
                    Some(r.take(len as usize).ok_or_else(truncated)?.to_vec())
                };
                parts.push(Part { slot, bytes });
            }
            calls.push(LoggedCall { func, parts });
        }
        let count = r.u32().ok_or_else(truncated)?;
        let dropped = r.u32().ok_or_else(truncated)?;
        if count as usize != calls.len() {
            return Err(format!(
                "the log counts {count} calls but holds {}",
                calls.len()
            ));
        }
        Ok(Log {
            build_id,
            functions,
            calls,
            dropped,
            bytes: data.len(),
        })
    }

    /// Read and parse the log at `path` (errors name the file).
    pub fn read(path: &Path) -> Result<Log, String> {
        let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Log::parse(&data).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The name of a call's function.
    pub fn name(&self, c: &LoggedCall) -> &str {
        &self.functions[c.func as usize].name
    }

    /// The log, readably: the build, then one line per call.
    pub fn show(&self) -> String {
        let mut out = format!(
            "build {}\n{} call(s) of {} function(s), {} bytes{}\n",
            hex(&self.build_id),
            self.calls.len(),
            self.functions.len(),
            self.bytes,
            if self.dropped > 0 {
                format!(", {} call(s) dropped (log full)", self.dropped)
            } else {
                String::new()
            }
        );
        for (i, c) in self.calls.iter().enumerate() {
            let f = &self.functions[c.func as usize];
            let parts: Vec<String> = c
                .parts
                .iter()
                .map(|p| match p.slot {
                    0 => format!("returned {}", value_text(f.kind, p.bytes.as_deref())),
                    k => format!(
                        "wrote {} through parameter {}",
                        value_text(ResultKind::Int, p.bytes.as_deref()),
                        k - 1
                    ),
                })
                .collect();
            out.push_str(&format!("#{:<4} {} {}\n", i + 1, f.name, parts.join(", ")));
        }
        out
    }
}

/// Lower-case hex of some bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A value as `--show` prints it.
fn value_text(kind: ResultKind, bytes: Option<&[u8]>) -> String {
    let Some(b) = bytes else {
        return "NULL".into();
    };
    let mut le = [0u8; 16];
    let n = b.len().min(16);
    le[..n].copy_from_slice(&b[..n]);
    let raw = u128::from_le_bytes(le);
    match kind {
        ResultKind::String => format!("{:?}", String::from_utf8_lossy(b)),
        ResultKind::Double if b.len() == 8 => format!("{}", f64::from_bits(raw as u64)),
        ResultKind::Float if b.len() == 4 => format!("{}", f32::from_bits(raw as u32)),
        _ if (1..=8).contains(&b.len()) => {
            let shift = 128 - 8 * b.len() as u32;
            let signed = ((raw << shift) as i128) >> shift;
            if signed < 0 {
                format!("{signed} (0x{raw:x})")
            } else {
                format!("{raw}")
            }
        }
        _ => format!("0x{}", hex(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut d = MAGIC.to_vec();
        d.extend(1u16.to_le_bytes());
        d.extend([7u8; 32]);
        d.extend(2u16.to_le_bytes());
        d.extend([4, b'h', b'a', b's', b'h', b'i', 4]);
        d.extend([6, b'g', b'e', b't', b'e', b'n', b'v', b's', 0]);
        // hash returned -2; getenv returned NULL.
        d.extend(0u16.to_le_bytes());
        d.extend([0, 4, 0, 0xfe, 0xff, 0xff, 0xff, 0xff]);
        d.extend(1u16.to_le_bytes());
        d.extend([0, 0xff, 0xff, 0xff]);
        d.extend(0xffffu16.to_le_bytes());
        d.extend(2u32.to_le_bytes());
        d.extend(0u32.to_le_bytes());
        d
    }

    #[test]
    fn parses_and_shows() {
        let log = Log::parse(&sample()).unwrap();
        assert_eq!(log.calls.len(), 2);
        assert_eq!(log.name(&log.calls[1]), "getenv");
        let text = log.show();
        assert!(
            text.contains("#1    hash returned -2 (0xfffffffe)"),
            "{text}"
        );
        assert!(text.contains("#2    getenv returned NULL"), "{text}");
    }

    #[test]
    fn truncated_and_foreign_logs_are_errors() {
        let d = sample();
        for cut in [12, 50, d.len() - 3] {
            let e = Log::parse(&d[..cut]).unwrap_err();
            assert!(e.starts_with("truncated log"), "{cut}: {e}");
        }
        assert!(Log::parse(b"hello world")
            .unwrap_err()
            .starts_with("not an augur log"));
    }
}
