//! Programs built outside augur keep x87 `long double`s (x86_fp80), as coreutils' `seq`
//! is: a long double in a global initializer, `strtold` giving the exact 80-bit value, and
//! printf of long doubles; exact outcomes, and every test replays natively against glibc.

mod common;
use common::*;

#[test]
fn strtold_and_printf_of_long_doubles_like_seq() {
    let src = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
struct operand { long double value; long width; int precision; };
static const struct operand one = { 1.0L, 1, 0 };
static void bits(const char *what, long double x) {
  unsigned long long m;
  unsigned short se;
  memcpy(&m, &x, 8);
  memcpy(&se, (char *)&x + 8, 2);
  printf("%s %04x %016llx\n", what, se, m);
}
int main(void) {
  char c, *end;
  if (read(0, &c, 1) != 1) return 3;
  long double a = strtold(c == 'h' ? "-0x1.8p1" : "0.1", &end);
  if (*end) return 2;
  long double step = strtold("2.5e3", NULL);
  bits("a", a);
  bits("step", step);
  long double last = one.value + step * 2;
  printf("%Lg %Lg %.3Lf %ld %d\n", a, last, a + one.value, one.width, one.precision);
  return c == 'h';
}
"#;
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
