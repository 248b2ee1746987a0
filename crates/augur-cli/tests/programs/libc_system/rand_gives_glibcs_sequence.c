/* rand() is glibc's generator (musl's differs): the native replay prints the same. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int a = rand(), b = rand();
  printf("%d %d\n", a, b);
  srand(42);
  a = rand();
  b = rand();
  printf("%d %d\n", a, b);
  return 0;
}
