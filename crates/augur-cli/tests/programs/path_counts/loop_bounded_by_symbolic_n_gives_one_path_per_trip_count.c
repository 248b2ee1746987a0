
#include <klee/klee.h>
int main(void) {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 0);
  klee_assume(n <= 10);
  int s = 0;
  for (int i = 0; i < n; i++) s += 2;
  return s;
}
