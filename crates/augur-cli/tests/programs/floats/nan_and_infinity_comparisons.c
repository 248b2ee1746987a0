#include <augur.h>
int main(void) {
  double d;
  augur_make_symbolic(&d, sizeof d, "d");
  if (d != d)
    return 1;
  if (d == 1.0 / 0.0)
    return 2;
  if (d < -1e308 * 10)
    return 3;
  return 0;
}
