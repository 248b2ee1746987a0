
#include <stdio.h>
#include <stdlib.h>
#include <augur.h>
int main(void) {
  char c;
  augur_make_symbolic(&c, 1, "c");
  char *buf = aligned_alloc(4096, 0x20001);
  if (!buf || (unsigned long)buf % 4096) return 3;
  buf[0x20000] = c;
  if (aligned_alloc(3, 8)) return 4;
  printf("%s\n", buf[0x20000] == 'x' ? "x" : "other");
  free(buf);
  return 0;
}
