#include <augur.h>
#include <stdio.h>
int main(void) {
  int x;
  augur_make_symbolic(&x, sizeof x, "x");
  int m = augur_meta(1);
  int y;
  if (m == 0) y = x > 10;         /* base */
  else if (m == 1) y = 10 < x;    /* the same */
  else if (m == 2) y = x >= 10;   /* different */
  else y = 0;
  printf("%d\n", y);
  return 0;
}
