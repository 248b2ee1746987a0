
#include <augur.h>
int main(void) {
  unsigned long long x, y;
  augur_make_symbolic(&x, sizeof x, "x");
  augur_make_symbolic(&y, sizeof y, "y");
  if (x < 2 || y < 2 || x >= (1ull << 63) || y >= (1ull << 63)) return 2;
  /* a 122-bit product: no factoring within a second, however fast the machine */
  if ((unsigned __int128)x * y == (unsigned __int128)2305843009213693951ull * 2305843009213693921ull)
    return 1; /* FACTORED */
  return 0;
}
