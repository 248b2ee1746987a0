//! Programs built outside augur keep x87 `long double`s (x86_fp80), as coreutils' `seq`
//! is: a long double in a global initializer, `strtold` giving the exact 80-bit value, and
//! printf of long doubles; exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

#[test]
fn strtold_and_printf_of_long_doubles_like_seq() {
    let src = &program("long_double/strtold_and_printf_of_long_doubles_like_seq.c");
    let (dir, bc) = x87_bitcode(src);
    let r = run_file(dir, bc, &["--sym-stdin", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let got = r.exits_with_stdout();
    let step = "step 400a 9c40000000000000\n";
    assert_eq!(
        got,
        vec![
            (
                0,
                format!("a 3ffb cccccccccccccccd\n{step}0.1 5001 1.100 1 0\n")
            ),
            (
                1,
                format!("a c000 c000000000000000\n{step}-3 5001 -2.000 1 0\n")
            ),
        ],
        "{}",
        r.stderr
    );
    r.assert_native_replay_passes();
}
