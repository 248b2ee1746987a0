
#include <augur.h>
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x > 100) { if (x < 200) return 1; return 2; }
  return 3;
}
