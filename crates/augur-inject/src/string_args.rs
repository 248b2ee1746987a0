//! The C library functions that read a NUL-terminated string through an argument, and
//! which arguments. A pointer the program passes there points at a string: a predicate
//! may read its bytes up to the string's end, as the callee does, though the program's
//! own code never reads them (`strcmp(name, "ether")`, `atoi(argv[i])`).

use augur_ir::{Callee, Function, Inst, Operand, Program, Reg};

/// Each function, and the positions (from 0) of its string arguments. Only functions
/// whose arguments must be strings: not `strncmp` nor `memcmp`, whose buffers need no end.
const STRING_READERS: &[(&str, &[usize])] = &[
    ("strcmp", &[0, 1]),
    ("strcasecmp", &[0, 1]),
    ("strcoll", &[0, 1]),
    ("strstr", &[0, 1]),
    ("strspn", &[0, 1]),
    ("strcspn", &[0, 1]),
    ("strpbrk", &[0, 1]),
    ("strlen", &[0]),
    ("strchr", &[0]),
    ("strrchr", &[0]),
    ("strdup", &[0]),
    ("strcpy", &[1]),
    ("stpcpy", &[1]),
    ("strcat", &[1]),
    ("atoi", &[0]),
    ("atol", &[0]),
    ("atoll", &[0]),
    ("puts", &[0]),
    ("fputs", &[0]),
    ("getenv", &[0]),
    ("fopen", &[0, 1]),
    ("open", &[0]),
];

/// Does `f` pass one of `regs` to a C library function as a string argument?
pub fn passed_as_string(prog: &Program, f: &Function, regs: &[Reg]) -> bool {
    f.insts.iter().any(|i| {
        let Inst::Call {
            callee: Callee::Direct(c),
            args,
            ..
        } = i
        else {
            return false;
        };
        let callee = prog.func(*c);
        let Some((_, positions)) = STRING_READERS.iter().find(|(n, _)| *n == callee.name) else {
            return false;
        };
        positions.iter().any(|&k| match args.get(k) {
            Some(Operand::Reg(r)) => regs.contains(r),
            _ => false,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_passed_at_a_string_position_is_one() {
        let prog = crate::assigned::tests::compiled(
            "#include <string.h>
#include <stdlib.h>
int f(char *a, char *b, char *c, char *d) {
  char buf[8];
  strcpy(buf, b);
  return strcmp(a, \"ether\") + atoi(c) + (int)strlen(buf) + (int)strncmp(d, \"x\", 1);
}
",
        );
        let f = prog.func(prog.func_named("f").unwrap());
        // The pointer each parameter's slot is loaded as.
        let loaded = |name: &str| -> Vec<Reg> {
            let slot = crate::assigned::tests::slot_named(f, name);
            f.insts
                .iter()
                .filter_map(|i| match i {
                    Inst::Load {
                        dst,
                        addr: Operand::Reg(r),
                        ..
                    } if *r == slot => Some(*dst),
                    _ => None,
                })
                .collect()
        };
        let passed: Vec<bool> = ["a.addr", "b.addr", "c.addr", "d.addr"]
            .iter()
            .map(|n| passed_as_string(&prog, f, &loaded(n)))
            .collect();
        // strcmp's a, strcpy's source b, atoi's c; strncmp's d need not be a string.
        assert_eq!(passed, [true, true, true, false]);
    }
}
