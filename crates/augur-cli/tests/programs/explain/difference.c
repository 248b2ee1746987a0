#include <stdio.h>
int main(void) {
  int a = 7, b = 3;
  int k = a - b; /* OP */
  printf("%d\n", k);
  return 0;
}
