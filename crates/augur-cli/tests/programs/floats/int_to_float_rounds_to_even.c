#include <augur.h>
#include <stdlib.h>
int main(void) {
  int x;
  augur_make_symbolic(&x, sizeof x, "x");
  float f = (float)x;
  if (f == 16777216.0f) {
    if (x != 16777216)
      abort(); /* CRASH */
    return 1;
  }
  return 0;
}
