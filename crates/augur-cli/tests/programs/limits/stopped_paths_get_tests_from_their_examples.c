#include <stdio.h>
#include <unistd.h>
int main(void) {
  unsigned char buf[4];
  if (read(0, buf, 4) != 4) return 2;
  unsigned h = 1;
  if (buf[0] == 'a') puts("a");
  for (unsigned i = 0;; i++) h = h * 31 + buf[i & 3];
  printf("%u\n", h);
  return 0;
}
