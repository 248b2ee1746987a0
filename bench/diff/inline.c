/* augur diff benchmark: as base.c, but the patched code is inside main, after the shared
 * loop: the meta run shares main's first blocks and branches on the revision after them. */
#include <augur.h>
#include <stdio.h>

static int table[256];

static void init(void) {
  for (int i = 0; i < 256; i++) {
    int v = i;
    for (int k = 0; k < 40; k++)
      v = (v * 1103 + 12345 + k) & 0x7fff;
    table[i] = v;
  }
}

int main(void) {
  unsigned char b[6];
  augur_make_symbolic(b, sizeof b, "b");
  init();
  int score = 0;
  for (int i = 0; i < 6; i++)
    if (b[i] > 'm')
      score += table[i * 37];
  int c = score % 7; /* CLASSIFY */
  printf("%d\n", c);
  return 0;
}
