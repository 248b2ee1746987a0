#include <augur.h>
int main(void) {
  int x;
  augur_make_symbolic(&x, sizeof x, "x");
  if ((float)x * 0.1f == 0.3f) {
    if (x * 0.1 == 0.3)
      return 2;
    return 1;
  }
  return 0;
}
