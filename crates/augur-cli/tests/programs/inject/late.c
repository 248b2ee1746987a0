/* A local (`late`) read on lines before its first assignment would be indeterminate
 * stack bytes natively: no transition predicate may use it there. */
#include "augur.h"
#include <stdio.h>

int classify(int a, int b) {
  int sum, flag, late;
  sum = a + b;
  flag = sum > 10;
  if (flag)
    sum = sum - a;
  b = b * 2;
  a = a + sum;
  late = a - b;
  if (late > 3)
    return 1;
  return late < -50 ? 2 : 0;
}

int main(void) {
  int a, b;
  augur_make_symbolic(&a, sizeof a, "a");
  augur_make_symbolic(&b, sizeof b, "b");
  if (a < 0 || b < 0 || a > 1000 || b > 1000)
    return 2;
  printf("%d\n", classify(a, b));
  return 0;
}
