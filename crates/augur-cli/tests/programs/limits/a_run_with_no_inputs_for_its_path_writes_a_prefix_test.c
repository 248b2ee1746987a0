#include <augur.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  unsigned char buf[2];
  if (read(0, buf, 2) != 2) return 2;
  augur_assume(buf[0] > 5);
  if (buf[0] > 3) puts("big"); /* one side feasible: its model is the path's example */
  augur_assume(buf[1] == 'b');
  unsigned h = 1;
  for (unsigned i = 0;; i++) h = h * 31 + buf[i & 1];
  printf("%u\n", h);
  return 0;
}
