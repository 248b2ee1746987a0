#include <augur.h>
#include <stdio.h>
static int helper(int v) { return v + 1; }
int area(int x, int y) { return x * helper(y); }
int main(void) {
  int x, y;
  augur_make_symbolic(&x, sizeof x, "x");
  augur_make_symbolic(&y, sizeof y, "y");
  augur_assume(x >= 0 && x < 10 && y >= 0 && y < 10);
  printf("%d\n", area(x, y) > 20);
  return 0;
}
