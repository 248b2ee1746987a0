
#include <setjmp.h>
#include <augur.h>
static jmp_buf env;
static void fail(int code) { longjmp(env, code); }
static int work(int x) { if (x > 5) fail(x); return x; }
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  augur_assume(x >= 0);
  augur_assume(x < 10);
  volatile int r = setjmp(env);
  if (r != 0) {
    if (r > 7) return 101;
    return 100;
  }
  if (work(x) == 3) return 1;
  return 0;
}
