//! KLEE's `.ktest` binary test format (version 3): magic `KTEST`, version, program
//! arguments, sym-argv counts, then named objects; all integers big-endian u32.

use std::io::{self, Read};

/// The contents of a `.ktest` file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KTest {
    /// Program arguments recorded with the test.
    pub args: Vec<String>,
    /// KLEE's `--sym-argvs` count.
    pub sym_argvs: u32,
    /// KLEE's `--sym-argv` length.
    pub sym_argv_len: u32,
    /// (name, bytes) objects.
    pub objects: Vec<(String, Vec<u8>)>,
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    out.extend_from_slice(bytes);
}

impl KTest {
    /// Serialise in format version 3.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = b"KTEST".to_vec();
        out.extend_from_slice(&3u32.to_be_bytes());
        out.extend_from_slice(&(self.args.len() as u32).to_be_bytes());
        for a in &self.args {
            put(&mut out, a.as_bytes());
        }
        out.extend_from_slice(&self.sym_argvs.to_be_bytes());
        out.extend_from_slice(&self.sym_argv_len.to_be_bytes());
        out.extend_from_slice(&(self.objects.len() as u32).to_be_bytes());
        for (name, bytes) in &self.objects {
            put(&mut out, name.as_bytes());
            put(&mut out, bytes);
        }
        out
    }

    /// Parse versions 1 to 3 (as KLEE writes them).
    pub fn from_bytes(data: &[u8]) -> io::Result<KTest> {
        let mut r = data;
        let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, m.to_string());
        let mut magic = [0u8; 5];
        r.read_exact(&mut magic)?;
        if &magic != b"KTEST" && &magic != b"BOUT\n" {
            return Err(bad("not a .ktest file (bad magic)"));
        }
        let u32_ = |r: &mut &[u8]| -> io::Result<u32> {
            let mut b = [0u8; 4];
            r.read_exact(&mut b)?;
            Ok(u32::from_be_bytes(b))
        };
        let version = u32_(&mut r)?;
        if !(1..=3).contains(&version) {
            return Err(bad("unsupported .ktest version"));
        }
        let blob = |r: &mut &[u8]| -> io::Result<Vec<u8>> {
            let mut b = [0u8; 4];
            r.read_exact(&mut b)?;
            let n = u32::from_be_bytes(b) as usize;
            if n > r.len() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "truncated .ktest file",
                ));
            }
            let (head, tail) = r.split_at(n);
            *r = tail;
            Ok(head.to_vec())
        };
        let mut t = KTest::default();
        let nargs = u32_(&mut r)?;
        for _ in 0..nargs {
            t.args
                .push(String::from_utf8_lossy(&blob(&mut r)?).into_owned());
        }
        if version >= 2 {
            t.sym_argvs = u32_(&mut r)?;
            t.sym_argv_len = u32_(&mut r)?;
        }
        let nobj = u32_(&mut r)?;
        for _ in 0..nobj {
            let name = String::from_utf8_lossy(&blob(&mut r)?).into_owned();
            let bytes = blob(&mut r)?;
            t.objects.push((name, bytes));
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_exact_layout() {
        let t = KTest {
            args: vec!["prog".into()],
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: vec![("x".into(), vec![1, 2, 3, 4])],
        };
        let b = t.to_bytes();
        assert_eq!(&b[..9], b"KTEST\0\0\0\x03");
        // args: count 1, len 4, "prog"
        assert_eq!(&b[9..21], b"\0\0\0\x01\0\0\0\x04prog");
        assert_eq!(KTest::from_bytes(&b).unwrap(), t);
        assert!(KTest::from_bytes(b"NOPE").is_err());
        assert!(KTest::from_bytes(&b[..b.len() - 1]).is_err());
    }
}
