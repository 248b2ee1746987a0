//! The names of the source variables predicates read: their grammar, the identifiers
//! they are read through, and their C text. A name is what the report shows and what
//! the injected C reads:
//! - `x`: a scalar variable;
//! - `g@OFF`: the integer at byte OFF of aggregate `g` (a struct's field, an array's
//!   element);
//! - `*p@OFF`: the integer at byte OFF from where pointer `p` points (`p[0]` is `*p@0`
//!   for a `char *p`);
//! - `a[i*S]@OFF`, `*p[i*S]@OFF`: the integer at byte OFF of element `i` (of S bytes,
//!   `i` an integer variable) of aggregate `a`, or from where `p` points (`buf[i]` is
//!   `buf[i*1]@0`); the index may be the variable plus or minus a constant,
//!   `a[(i+C)*S]`, `a[(i-C)*S]` (`buf[j - 1]` is `buf[(j-1)*1]@0`);
//! - `*p#K`: byte K of the string `p` points at, 0 past the string's end (`p[K]` while
//!   none of `p[0]` to `p[K - 1]` ends it);
//! - `*(a[i*S])#K`, `*(*p[i*S])#K`: byte K of the string the pointer element `i` holds
//!   (`argv[i][K]` is `*(*argv[i*8])#K`).

/// The address of an integer or of a pointer element: an identifier's own bytes or
/// those it points at, and possibly an element index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr<'a> {
    /// The aggregate's or the pointer's identifier.
    pub base: &'a str,
    /// Does `base` hold a pointer to the bytes (rather than being them)?
    pub pointer: bool,
    /// The element index, if any.
    pub index: Option<Indexing<'a>>,
}

/// An element index: an integer variable plus a constant, and the element's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indexing<'a> {
    /// The integer variable.
    pub var: &'a str,
    /// The constant added to it (in C: `var + delta`, in the variable's promoted type).
    pub delta: i64,
    /// The element's size in bytes.
    pub scale: u64,
}

impl Indexing<'_> {
    /// Its text in a name: `i*S`, `(i+C)*S`, `(i-C)*S`.
    pub fn name(&self) -> String {
        match self.delta {
            0 => format!("{}*{}", self.var, self.scale),
            d => format!("({}{d:+})*{}", self.var, self.scale),
        }
    }
}

/// `i`, `(i+C)` or `(i-C)` as a variable and a constant.
fn index_expr(s: &str) -> Option<(&str, i64)> {
    let Some(inner) = s.strip_prefix('(').and_then(|s| s.strip_suffix(')')) else {
        return Some((s, 0));
    };
    let at = inner.rfind(['+', '-'])?;
    Some((&inner[..at], inner[at..].parse().ok()?))
}

/// Where a string's pointer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringAt<'a> {
    /// In a pointer variable.
    Var(&'a str),
    /// In a pointer element at an index (`argv[i]`).
    Element(Addr<'a>),
}

/// A variable's name, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place<'a> {
    /// A scalar variable.
    Scalar(&'a str),
    /// The integer at a byte offset from an address.
    Int {
        /// Where the bytes are counted from.
        at: Addr<'a>,
        /// The byte offset.
        offset: u64,
    },
    /// Byte K of a string.
    StringByte {
        /// Where the string's pointer is.
        string: StringAt<'a>,
        /// Which byte.
        k: u64,
    },
}

/// `*p`, `g`, `a[i*S]` or `*p[i*S]` as an address.
fn addr(s: &str) -> Option<Addr<'_>> {
    let (pointer, rest) = match s.strip_prefix('*') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let Some((base, inside)) = rest.split_once('[') else {
        return Some(Addr {
            base: rest,
            pointer,
            index: None,
        });
    };
    let (index, scale) = inside.strip_suffix(']')?.rsplit_once('*')?;
    let (var, delta) = index_expr(index)?;
    Some(Addr {
        base,
        pointer,
        index: Some(Indexing {
            var,
            delta,
            scale: scale.parse().ok()?,
        }),
    })
}

impl<'a> Place<'a> {
    /// Parse a variable's name (a name outside the grammar is a scalar's).
    pub fn parse(name: &'a str) -> Place<'a> {
        let string = name.rsplit_once('#').and_then(|(s, k)| {
            let k = k.parse().ok()?;
            let string = match s.strip_prefix("*(").and_then(|s| s.strip_suffix(')')) {
                Some(element) => StringAt::Element(addr(element).filter(|a| a.index.is_some())?),
                None => StringAt::Var(s.strip_prefix('*')?),
            };
            Some(Place::StringByte { string, k })
        });
        let int = || {
            let (at, offset) = name.rsplit_once('@')?;
            Some(Place::Int {
                at: addr(at)?,
                offset: offset.parse().ok()?,
            })
        };
        string.or_else(int).unwrap_or(Place::Scalar(name))
    }

    /// The identifier whose bytes, or whose pointee's, it is (the aggregate's, the
    /// pointer's, the scalar itself).
    pub fn base(&self) -> &'a str {
        match self {
            Place::Scalar(n) => n,
            Place::Int { at, .. } => at.base,
            Place::StringByte { string, .. } => match string {
                StringAt::Var(p) => p,
                StringAt::Element(at) => at.base,
            },
        }
    }

    /// The integer variable it is indexed by, if any.
    pub fn index(&self) -> Option<&'a str> {
        match self {
            Place::Int { at, .. }
            | Place::StringByte {
                string: StringAt::Element(at),
                ..
            } => at.index.map(|i| i.var),
            _ => None,
        }
    }

    /// How many bytes of the string's start a string byte is made of (K + 1).
    pub fn string_bytes(&self) -> Option<u64> {
        match self {
            Place::StringByte { k, .. } => Some(k + 1),
            _ => None,
        }
    }

    /// The C expression reading it, `size` bytes: the name itself, or an element's
    /// bytes copied from its address (no aliasing rule broken, whatever its declared
    /// type), 0 when a pointer on the way is null, or a string byte, 0 past the
    /// string's end.
    pub fn c(&self, size: u8) -> String {
        match self {
            Place::Scalar(n) => n.to_string(),
            Place::Int { at, offset } => int_c(at, *offset, size),
            Place::StringByte { string, k } => {
                let pointer = match string {
                    StringAt::Var(p) => p.to_string(),
                    StringAt::Element(at) => {
                        guarded(at, format!("*(char **)({})", address_c(at)), "(char *)0")
                    }
                };
                string_byte_c(&pointer, *k)
            }
        }
    }
}

/// The C text of `at`'s address, a `char *`.
fn address_c(at: &Addr) -> String {
    let base = match at.pointer {
        true => format!("(char *)({})", at.base),
        false => format!("(char *)&{}", at.base),
    };
    let Some(Indexing { var, delta, scale }) = at.index else {
        return base;
    };
    let sum = match delta {
        0 => var.to_string(),
        d if d < 0 => format!("{var} - {}", d.unsigned_abs()),
        d => format!("{var} + {d}"),
    };
    format!("({base} + {scale} * (long long)({sum}))")
}

/// `read`, or `zero` when `at` is through a null pointer.
fn guarded(at: &Addr, read: String, zero: &str) -> String {
    match at.pointer {
        true => format!("(({}) ? {read} : {zero})", at.base),
        false => read,
    }
}

/// The C text of the integer of `size` bytes at `offset` from `at`.
fn int_c(at: &Addr, offset: u64, size: u8) -> String {
    let addr = address_c(at);
    let ty = match size {
        1 => "unsigned char",
        2 => "short",
        4 => "int",
        _ => "long long",
    };
    let read = if size == 1 {
        format!("((unsigned char *){addr})[{offset}]")
    } else {
        format!(
            "({{ {ty} augur_v; __builtin_memcpy(&augur_v, {addr} + {offset}, {size}); augur_v; }})"
        )
    };
    guarded(at, read, &format!("({ty})0"))
}

/// The C expression reading string byte `k` of what pointer `p` points at: 0 when `p` is
/// null or one of the bytes before it ends the string.
fn string_byte_c(p: &str, k: u64) -> String {
    let byte = |i: u64| format!("((unsigned char *)(char *)({p}))[{i}]");
    let guard: Vec<String> = std::iter::once(format!("({p})"))
        .chain((0..k).map(byte))
        .collect();
    format!(
        "(({}) ? {} : (unsigned char)0)",
        guard.join(" && "),
        byte(k)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_name_parses_to_its_identifiers() {
        let cases: [(&str, &str, Option<&str>, Option<u64>); 10] = [
            ("x", "x", None, None),
            ("buf[(j-1)*1]@0", "buf", Some("j"), None),
            ("*(*argv[(i+1)*8])#2", "argv", Some("i"), Some(3)),
            ("g@4", "g", None, None),
            ("*p@2", "p", None, None),
            ("*s#2", "s", None, Some(3)),
            ("buf[i*1]@0", "buf", Some("i"), None),
            ("*p[k*12]@4", "p", Some("k"), None),
            ("*(*argv[i*8])#1", "argv", Some("i"), Some(2)),
            ("*(words[n*8])#0", "words", Some("n"), Some(1)),
        ];
        for (name, base, index, bytes) in cases {
            let p = Place::parse(name);
            assert_eq!(
                (p.base(), p.index(), p.string_bytes()),
                (base, index, bytes),
                "{name}"
            );
        }
        // A name written from an index parses back to it.
        for delta in [0, 1, -97] {
            let i = Indexing {
                var: "j",
                delta,
                scale: 8,
            };
            let name = format!("buf[{}]@0", i.name());
            assert_eq!(
                addr(name.split('@').next().unwrap()).unwrap().index,
                Some(i)
            );
        }
        assert_eq!(
            Place::parse("*p[k*12]@4"),
            Place::Int {
                at: Addr {
                    base: "p",
                    pointer: true,
                    index: Some(Indexing {
                        var: "k",
                        delta: 0,
                        scale: 12
                    })
                },
                offset: 4
            }
        );
    }

    #[test]
    fn a_string_byte_reads_as_zero_past_the_string_s_end() {
        assert_eq!(
            Place::parse("*s#2").c(1),
            "(((s) && ((unsigned char *)(char *)(s))[0] && ((unsigned char *)(char *)(s))[1]) \
             ? ((unsigned char *)(char *)(s))[2] : (unsigned char)0)"
        );
    }

    /// Compile and run `main` of `src` natively with the arguments; its exit status.
    fn run_native(src: &str, args: &[&str]) -> i32 {
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("t.c");
        std::fs::write(&c, src).unwrap();
        let exe = dir.path().join("t");
        let cc = augur_ir::llvm::clang_command()
            .arg("-w")
            .arg(&c)
            .arg("-o")
            .arg(&exe)
            .status()
            .unwrap();
        assert!(cc.success());
        let out = std::process::Command::new(&exe)
            .args(args)
            .status()
            .unwrap();
        out.code().unwrap()
    }

    #[test]
    fn indexed_elements_read_in_c_as_the_program_indexes_them() {
        // Each check compares the C text of a name with the C it stands for, natively.
        let checks = [
            ("*(*argv[i*8])#1", 1, "argv[i][1]"),
            (
                "*(*argv[i*8])#3",
                1,
                "(argv[i][0] && argv[i][1] && argv[i][2] ? argv[i][3] : 0)",
            ),
            ("buf[i*1]@0", 1, "(unsigned char)buf[i]"),
            ("*q[i*8]@4", 4, "q[i].b"),
            ("*(words[i*8])#0", 1, "words[i][0]"),
            ("*(*argv[(i-1)*8])#0", 1, "argv[i - 1][0]"),
            ("buf[(u+1)*1]@0", 1, "buf[u + 1]"),
            ("*q[(c-97)*8]@0", 4, "q[c - 'a'].a"),
        ];
        let body: String = checks
            .iter()
            .enumerate()
            .map(|(n, (name, size, want))| {
                let got = Place::parse(name).c(*size);
                format!(
                    "  if ((long long)({got}) != (long long)({want})) return {};\n",
                    n + 1
                )
            })
            .collect();
        let src = format!(
            "struct s {{ int a; int b; }};
int main(int argc, char **argv) {{
  unsigned char buf[4] = {{1, 200, 3, 4}};
  struct s arr[3] = {{{{1, 2}}, {{3, 4}}, {{5, 6}}}};
  struct s *q = arr;
  char *words[3] = {{\"ab\", \"\", \"xyz\"}};
  unsigned u = 2;
  for (int i = 1; i < argc; i++) {{
    unsigned char c = (unsigned char)('a' + i);
{body}  }}
  return 0;
}}
"
        );
        assert_eq!(run_native(&src, &["-A", "b"]), 0);
    }
}
