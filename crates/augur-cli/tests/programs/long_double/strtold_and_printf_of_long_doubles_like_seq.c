
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
struct operand { long double value; long width; int precision; };
static const struct operand one = { 1.0L, 1, 0 };
static void bits(const char *what, long double x) {
  unsigned long long m;
  unsigned short se;
  memcpy(&m, &x, 8);
  memcpy(&se, (char *)&x + 8, 2);
  printf("%s %04x %016llx\n", what, se, m);
}
int main(void) {
  char c, *end;
  if (read(0, &c, 1) != 1) return 3;
  long double a = strtold(c == 'h' ? "-0x1.8p1" : "0.1", &end);
  if (*end) return 2;
  long double step = strtold("2.5e3", NULL);
  bits("a", a);
  bits("step", step);
  long double last = one.value + step * 2;
  printf("%Lg %Lg %.3Lf %ld %d\n", a, last, a + one.value, one.width, one.precision);
  return c == 'h';
}
