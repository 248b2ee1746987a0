#include <augur.h>
int main(void) {
  double d;
  augur_make_symbolic(&d, sizeof d, "d");
  int i = (int)d;
  if (i == 3 && d > 3.9)
    return 1;
  unsigned char c = (unsigned char)(float)d;
  if (c == 200 && d < 200.5)
    return 2;
  return 0;
}
