
#include <augur.h>
int main(void) {
  unsigned char x[11];
  augur_make_symbolic(x, sizeof x, "x");
  int n = 0;
  for (int i = 0; i < 11; i++)
    if (x[i] > 10) n++;
  augur_assert(n != 11 || x[0] != 99); /* ASSERT */
  return n;
}
