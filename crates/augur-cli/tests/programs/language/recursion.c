
#include <augur.h>
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
  int n; augur_make_symbolic(&n, sizeof n, "n");
  augur_assume(n >= 0 && n <= 5);
  if (fact(n) == 120) return 1;
  return 0;
}
