//! What a call of inline assembly does, read from its printed form (`llvm-ir` shows
//! neither the assembly string nor the constraints; LLVM 14's C API has no getter for
//! them): the assembly as statements, the constraints as outputs, inputs and clobbers.

/// An inline-assembly call as LLVM prints it: `... asm [sideeffect] "ASM", "CONSTRAINTS"(...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct AsmCall {
    /// The assembly string, decoded (LLVM's `\XX` escapes undone), in LLVM's operand
    /// syntax (`$0`, `${1:q}`, `$$`).
    pub asm: String,
    /// The constraint string (`=r,0,~{memory}`).
    pub constraints: String,
}

/// What the assembly does, as the rewrite replaces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum AsmKind {
    /// `cpuid` (with register moves around it): every output reads 0.
    Cpuid,
    /// Nothing but barriers, fences, `pause`, `nop` and comments: each direct output is
    /// the argument it is tied to (`Identity(ties)`: for direct output `i`, its argument).
    Identity(Vec<usize>),
    /// `bswap` of its one output, tied to argument `.0`.
    Bswap(usize),
    /// `bsf` (`forward`) or `bsr` of argument `.input` into the one output: the index of
    /// its lowest or highest set bit (GMP's `count_trailing_zeros` and
    /// `count_leading_zeros` in longlong.h, which never give it 0; `rep; bsf` is
    /// `tzcnt`, the same for any other operand).
    BitScan {
        /// `bsf` (else `bsr`).
        forward: bool,
        /// The argument scanned.
        input: usize,
    },
    /// `rdtsc` (`rdtscp` when `aux`): each direct output is part of the cycle counter.
    Cycles(Vec<CounterPart>),
    /// Anything else: why it cannot run.
    Unsupported(String),
}

/// A register `rdtsc`/`rdtscp` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CounterPart {
    /// `eax`: the low 32 bits.
    Low,
    /// `edx`: the high 32 bits.
    High,
    /// `ecx` (`rdtscp` only): the processor's `TSC_AUX`, read as 0.
    Aux,
}

/// Instructions that change no register or memory the program can see (barriers,
/// fences, spin-loop hints).
const NO_OPS: [&str; 5] = ["pause", "nop", "lfence", "mfence", "sfence"];

impl AsmCall {
    /// The assembly string and constraints of a printed call, if it calls inline assembly.
    pub fn parse(call: &str) -> Option<AsmCall> {
        let start = call.find(" asm ")? + " asm ".len();
        let mut rest = &call[start..];
        for keyword in ["sideeffect ", "alignstack ", "inteldialect ", "unwind "] {
            rest = rest.strip_prefix(keyword).unwrap_or(rest);
        }
        let rest = rest.strip_prefix('"')?;
        let (asm, rest) = rest.split_at(rest.find('"')?);
        let rest = rest.strip_prefix("\", \"")?;
        Some(AsmCall {
            asm: unescape(asm),
            constraints: rest[..rest.find('"')?].to_string(),
        })
    }

    /// The assembly as written in C (`%0`, `%q1`, `%%eax`), for messages.
    pub fn c_form(&self) -> String {
        let mut out = String::new();
        let mut chars = self.asm.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '%' => out.push_str("%%"),
                '$' => match chars.peek() {
                    Some('$') => {
                        chars.next();
                        out.push('$');
                    }
                    Some('{') => {
                        chars.next();
                        let inner: String = chars.by_ref().take_while(|c| *c != '}').collect();
                        let (n, modifier) = inner.split_once(':').unwrap_or((&inner, ""));
                        out.push_str(&format!("%{modifier}{n}"));
                    }
                    _ => out.push('%'),
                },
                c => out.push(c),
            }
        }
        out.trim().to_string()
    }

    /// What the call does.
    pub fn kind(&self) -> AsmKind {
        let c = Constraints::parse(&self.constraints);
        let statements = statements(&self.asm);
        if runs_cpuid(&statements, &self.constraints) {
            return AsmKind::Cpuid;
        }
        let mut ops: Vec<&str> = statements
            .iter()
            .map(String::as_str)
            .filter(|s| !NO_OPS.contains(s))
            .collect();
        // `rep; bsf` (`tzcnt` where the processor has it): the prefix changes no answer
        // for an operand that is not 0.
        if let ["rep", op] = ops[..] {
            if bit_scan(op).is_some() {
                ops = vec![op];
            }
        }
        let unsupported = || {
            AsmKind::Unsupported(format!(
                "inline assembly `{}` is not supported",
                self.c_form()
            ))
        };
        match ops.as_slice() {
            [] => match c.tied_outputs() {
                Some(ties) => AsmKind::Identity(ties),
                None => AsmKind::Unsupported(format!(
                    "inline assembly `{}` with an output not tied to an input is not supported",
                    self.c_form()
                )),
            },
            [op] if is_bswap_of_output_0(op) => match c.tied_outputs().as_deref() {
                Some(&[arg]) if c.outputs[0] == Output::Direct => AsmKind::Bswap(arg),
                _ => unsupported(),
            },
            [op] if bit_scan(op).is_some() => match c.outputs[..] {
                [Output::Direct] if c.inputs == 1 => AsmKind::BitScan {
                    forward: bit_scan(op) == Some(true),
                    input: 0,
                },
                _ => unsupported(),
            },
            [op @ ("rdtsc" | "rdtscp")] => c
                .counter_parts(*op == "rdtscp")
                .map_or_else(unsupported, AsmKind::Cycles),
            _ => unsupported(),
        }
    }
}

/// LLVM's printed string with its `\XX` (hex) escapes undone.
fn unescape(printed: &str) -> String {
    let bytes = printed.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'\\', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The assembly's statements (split at newlines and `;`, `#` comments removed, blanks
/// dropped), each trimmed with its whitespace runs made single spaces and lowercased;
/// `rep; nop` is `pause`.
fn statements(asm: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in asm.lines() {
        let code = line.split('#').next().unwrap_or("");
        for s in code.split(';') {
            let s = s
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            if s.is_empty() {
                continue;
            }
            if s == "nop" && out.last().is_some_and(|p| p == "rep") || s == "rep nop" {
                out.pop_if(|p| p == "rep");
                out.push("pause".into());
            } else {
                out.push(s);
            }
        }
    }
    out
}

/// Does the assembly run `cpuid`, with registers only (no memory operand or clobber)?
fn runs_cpuid(statements: &[String], constraints: &str) -> bool {
    statements.iter().any(|s| {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == "cpuid")
    }) && !constraints.contains('*')
        && !constraints.contains("~{memory}")
}

/// Is the statement `bswap` (`bswapl`, `bswapq`) of operand 0?
fn is_bswap_of_output_0(s: &str) -> bool {
    let Some((op, operand)) = s.split_once(' ') else {
        return false;
    };
    matches!(op, "bswap" | "bswapl" | "bswapq")
        && (operand == "$0" || operand.starts_with("${0:") && operand.ends_with('}'))
}

/// Is the statement a bit scan of operand 1 into operand 0 (`bsf $1, $0`, `bsrq $1,${0:q}`),
/// and forward (`bsf`) or not (`bsr`)?
fn bit_scan(s: &str) -> Option<bool> {
    let (op, operands) = s.split_once(' ')?;
    let forward = match op {
        "bsf" | "bsfl" | "bsfq" => true,
        "bsr" | "bsrl" | "bsrq" => false,
        _ => return None,
    };
    let operand = |o: &str, n: char| {
        let o = o.trim();
        o == format!("${n}") || o.starts_with(&format!("${{{n}:")) && o.ends_with('}')
    };
    let (from, to) = operands.split_once(',')?;
    (operand(from, '1') && operand(to, '0')).then_some(forward)
}

/// An output constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    /// A value the call returns (`=r`, `={ax}`).
    Direct,
    /// Memory the call writes through a pointer argument (`=*m`).
    Indirect,
}

/// A constraint string, read as LLVM lays out the call: the direct outputs are the call's
/// result (a struct if several), the indirect outputs and then the inputs its arguments.
#[derive(Debug, Default)]
struct Constraints<'a> {
    /// The outputs, in order (a tied input names one by its index here).
    outputs: Vec<Output>,
    /// The register each output names (`{ax}`), or "" for any other constraint.
    registers: Vec<&'a str>,
    /// For each output, the argument tied to it.
    tied: Vec<Option<usize>>,
    /// The number of inputs.
    inputs: usize,
}

impl<'a> Constraints<'a> {
    fn parse(text: &'a str) -> Self {
        let mut c = Constraints::default();
        let mut args = 0;
        for part in text.split(',') {
            if let Some(out) = part.strip_prefix('=') {
                let out = out.trim_start_matches('&');
                let indirect = out.starts_with('*');
                c.outputs.push(if indirect {
                    Output::Indirect
                } else {
                    Output::Direct
                });
                c.registers.push(out);
                c.tied.push(None);
                args += indirect as usize;
            } else if !part.starts_with('~') {
                if let Some(slot) = part.parse::<usize>().ok().and_then(|n| c.tied.get_mut(n)) {
                    *slot = Some(args);
                }
                args += 1;
                c.inputs += 1;
            }
        }
        c
    }

    /// For each direct output, the argument tied to it; None if one is not tied.
    fn tied_outputs(&self) -> Option<Vec<usize>> {
        self.outputs
            .iter()
            .zip(&self.tied)
            .filter(|(o, _)| **o == Output::Direct)
            .map(|(_, t)| *t)
            .collect()
    }

    /// The counter part each direct output reads, if every output is a register
    /// `rdtsc` (`rdtscp` when `aux`) writes.
    fn counter_parts(&self, aux: bool) -> Option<Vec<CounterPart>> {
        self.outputs
            .iter()
            .zip(&self.registers)
            .map(|(o, r)| match (o, *r) {
                (Output::Direct, "{ax}") => Some(CounterPart::Low),
                (Output::Direct, "{dx}") => Some(CounterPart::High),
                (Output::Direct, "{cx}") if aux => Some(CounterPart::Aux),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(asm: &str, constraints: &str) -> AsmKind {
        AsmCall {
            asm: asm.into(),
            constraints: constraints.into(),
        }
        .kind()
    }

    #[test]
    fn reads_printed_calls() {
        let gcc = r#"  %9 = call { i32, i32, i32, i32 } asm "  xchgq  %rbx,${1:q}\0A  cpuid\0A  xchgq  %rbx,${1:q}", "={ax},=r,={cx},={dx},0,~{dirflag}"(i32 %8) #19"#;
        let call = AsmCall::parse(gcc).unwrap();
        assert_eq!(
            call.asm,
            "  xchgq  %rbx,${1:q}\n  cpuid\n  xchgq  %rbx,${1:q}"
        );
        assert_eq!(call.constraints, "={ax},=r,={cx},={dx},0,~{dirflag}");
        assert_eq!(
            call.c_form(),
            "xchgq  %%rbx,%q1\n  cpuid\n  xchgq  %%rbx,%q1"
        );
        assert_eq!(call.kind(), AsmKind::Cpuid);
        let other = r#"  call void asm sideeffect "rdtsc", "~{dirflag}"()"#;
        let call = AsmCall::parse(other).unwrap();
        assert_eq!(
            (call.asm.as_str(), call.constraints.as_str()),
            ("rdtsc", "~{dirflag}")
        );
        let xchg = r#"%18 = call { i32, i32 } asm "xchg $0, $1", "=r,=r,0,1"(i32 %16, i32 %17)"#;
        assert_eq!(AsmCall::parse(xchg).unwrap().c_form(), "xchg %0, %1");
        assert_eq!(AsmCall::parse("  %1 = add i32 %0, 1"), None);
    }

    #[test]
    fn cpuid_with_registers_only() {
        assert_eq!(kind("cpuid", "={ax},={bx},={cx},={dx},0"), AsmKind::Cpuid);
        assert_eq!(
            kind("cpuid; movl %eax, $0", "=*m"),
            AsmKind::Unsupported("inline assembly `cpuid; movl %%eax, %0` is not supported".into())
        );
        assert!(matches!(
            kind("cpuid", "~{memory}"),
            AsmKind::Unsupported(_)
        ));
        assert!(matches!(kind("cpuidx", ""), AsmKind::Unsupported(_)));
    }

    #[test]
    fn identity_moves_and_barriers() {
        // BusyBox's `asm volatile("" : "=r"(pp) : "0"(p))`.
        assert_eq!(
            kind("", "=r,0,~{dirflag},~{fpsr},~{flags}"),
            AsmKind::Identity(vec![0])
        );
        // Two outputs tied crosswise, after an indirect output (its pointer is argument 0).
        assert_eq!(kind("", "=*m,=r,=r,2,1"), AsmKind::Identity(vec![2, 1]));
        assert_eq!(kind("", "~{memory},~{dirflag}"), AsmKind::Identity(vec![]));
        assert_eq!(kind("# nothing\n\t", "=*m,*m"), AsmKind::Identity(vec![]));
        for barrier in [
            "pause",
            "nop",
            "lfence",
            "MFENCE",
            "sfence",
            "rep; nop",
            "rep nop",
            "lfence\n\tnop # wait",
        ] {
            assert_eq!(
                kind(barrier, "~{memory}"),
                AsmKind::Identity(vec![]),
                "{barrier}"
            );
        }
        assert_eq!(kind("pause", "=r,0"), AsmKind::Identity(vec![0]));
        assert_eq!(
            kind("", "=r,r"),
            AsmKind::Unsupported(
                "inline assembly `` with an output not tied to an input is not supported".into()
            )
        );
    }

    #[test]
    fn bit_scans_of_operand_1_into_the_output() {
        let scan = |forward| AsmKind::BitScan { forward, input: 0 };
        assert_eq!(kind("rep;bsf\t$1, ${0:q}", "=r,rm,~{dirflag}"), scan(true));
        assert_eq!(kind("bsfl $1,${0:k}", "=r,rm,~{cc}"), scan(true));
        assert_eq!(kind("bsrq $1,$0", "=r,rm"), scan(false));
        assert!(matches!(
            kind("bsf $0, $1", "=r,rm"),
            AsmKind::Unsupported(_)
        ));
        assert!(matches!(
            kind("bsf $1, $0", "=r,rm,rm"),
            AsmKind::Unsupported(_)
        ));
        assert!(matches!(
            kind("bsf $1, $0", "=*m,rm"),
            AsmKind::Unsupported(_)
        ));
    }

    #[test]
    fn bswap_of_its_tied_output() {
        assert_eq!(kind("bswap $0", "=r,0,~{dirflag}"), AsmKind::Bswap(0));
        assert_eq!(kind("bswapq ${0:q}", "=r,r,0"), AsmKind::Bswap(1));
        assert!(matches!(kind("bswap $1", "=r,0"), AsmKind::Unsupported(_)));
        assert!(matches!(kind("bswap $0", "=r,r"), AsmKind::Unsupported(_)));
        assert!(matches!(kind("bswap $0", "=*m,0"), AsmKind::Unsupported(_)));
    }

    #[test]
    fn cycle_counter_registers() {
        use CounterPart::*;
        assert_eq!(
            kind("rdtsc", "={ax},={dx},~{dirflag}"),
            AsmKind::Cycles(vec![Low, High])
        );
        assert_eq!(
            kind("lfence; rdtsc", "={dx},={ax}"),
            AsmKind::Cycles(vec![High, Low])
        );
        assert_eq!(
            kind("rdtscp", "={ax},={dx},={cx}"),
            AsmKind::Cycles(vec![Low, High, Aux])
        );
        assert_eq!(
            kind("rdtsc", "={ax},={cx}"),
            AsmKind::Unsupported("inline assembly `rdtsc` is not supported".into())
        );
        assert!(matches!(kind("rdtsc", "=A"), AsmKind::Unsupported(_)));
        assert!(matches!(
            kind("rdtsc; rdtsc", "={ax}"),
            AsmKind::Unsupported(_)
        ));
    }

    #[test]
    fn anything_else_is_named() {
        assert_eq!(
            kind("xchg $0, $1", "=r,=r,0,1"),
            AsmKind::Unsupported("inline assembly `xchg %0, %1` is not supported".into())
        );
        assert_eq!(
            kind("movl $$1, %eax", "~{ax}"),
            AsmKind::Unsupported("inline assembly `movl $1, %%eax` is not supported".into())
        );
    }
}
