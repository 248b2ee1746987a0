
#include <stdio.h>
int main(void) {
  long double ld = 2.5L;
  long double y = ld * 10.0L + 0.25L;
  long double big = 1e4000L;
  printf("%d %d\n", (int)y, big > 1e300L);
  return (int)(y / 5.0L);
}
