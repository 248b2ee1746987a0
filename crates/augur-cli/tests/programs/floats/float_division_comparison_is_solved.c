#include <augur.h>
#include <stdlib.h>
int main(void) {
  int x;
  augur_make_symbolic(&x, sizeof x, "x");
  float a = x / 70.0;
  if (a - 0.1f == 0)
    abort(); /* CRASH */
  return 0;
}
