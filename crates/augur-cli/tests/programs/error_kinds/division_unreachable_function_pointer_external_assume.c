
#include <augur.h>
int ext(int);
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int y; augur_make_symbolic(&y, sizeof y, "y");
  if (x == 1) return 100 / y;           /* DIV */
  if (x == 2) __builtin_unreachable();  /* UNREACH */
  if (x == 3) { int (*f)(void) = (int (*)(void))(long)y; return f(); } /* FPTR */
  if (x == 4) return ext(x);            /* EXT */
  if (x == 5) augur_assume(y != y);     /* ASSUME */
  return 0;
}
