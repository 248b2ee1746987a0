
#include <stdarg.h>
#include <augur.h>
long sum(int n, ...) {
  va_list ap; va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  double d = va_arg(ap, double);
  long big = va_arg(ap, long);
  va_end(ap);
  return s + (long)d + big;
}
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  augur_assume(x > 0 && x < 100);
  if (sum(3, 1, 2, x, 2.5, 10L) == 25) return 1;
  return 0;
}
