
#include <stdio.h>
#include <augur.h>
int main(void) {
  printf("%d|%5s|%-4x|%05.1f|%c%%\n", -42, "ab", 255u, 3.14159, 'z');
  fprintf(stderr, "err %ld\n", 1234567890123L);
  unsigned char k; augur_make_symbolic(&k, 1, "k");
  augur_assume(k < 3);
  printf("k=%u\n", k);
  if (k == 1) puts("one");
  puts("done");
  return 0;
}
