#include <augur.h>
#include <stdio.h>
int clamp(int x) {
  if (x > 100) return 100;
  if (x < 0) return 0;
  return x;
}
int main(void) {
  int x;
  augur_make_symbolic(&x, sizeof x, "x");
  printf("%d\n", clamp(x));
  return 0;
}
