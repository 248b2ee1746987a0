
#include <augur.h>
#include <klee/klee.h>
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  char c; klee_make_symbolic(&c, sizeof c, "c");
  if (x == 3) return 7;
  if (x > 100 && c == 'z') return 2;
  if (c == 'q') return 255;
  return 0;
}
