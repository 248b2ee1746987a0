#include <stdio.h>
#include <augur.h>
unsigned _BitInt(200) g = 1;
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x > 3) g = g * (unsigned _BitInt(200))x; /* WIDE */
  else g = 9;
  printf("%u\n", (unsigned)g);
  return 0;
}
