
#include <stdio.h>
int main(void) {
  int a, b;
  if (scanf("%d %d", &a, &b) != 2) return 1;
  if (a > 5 && b == a + 1) { int *p = 0; return *p; } /* CRASH */
  return 0;
}
