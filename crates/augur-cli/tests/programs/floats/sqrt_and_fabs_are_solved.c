#include <augur.h>
#include <math.h>
int main(void) {
  double d;
  augur_make_symbolic(&d, sizeof d, "d");
  if (fabs(d) == 2.0 && d < 0)
    return 1;
  if (sqrt(d) == 3.0)
    return 2;
  return 0;
}
