
#include <augur.h>
int main(void) {
  unsigned long long x, y;
  augur_make_symbolic(&x, sizeof x, "x");
  augur_make_symbolic(&y, sizeof y, "y");
  if (x < 2 || y < 2 || x >= (1ull << 32) || y >= (1ull << 32)) return 2;
  if (x * y == 2147483647ull * 2147483629ull) return 1; /* FACTORED */
  return 0;
}
