
#include <augur.h>
int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
int classify(int x, int y, unsigned i) {
  if (x > 100) {
    if (y == x + 1) return 1;
    return 2;
  }
  if (x < -5 && y < 0) return 3;
  if (i < 8 && table[i] == x) {
    if (i > 2) return 4;
    return 5;
  }
  if (i >= 8 && y == 7) { int *p = 0; return *p; } /* CRASH */
  return 0;
}
int main(void) {
  int x, y; unsigned i;
  augur_make_symbolic(&x, sizeof x, "x");
  augur_make_symbolic(&y, sizeof y, "y");
  augur_make_symbolic(&i, sizeof i, "i");
  return classify(x, y, i);
}
