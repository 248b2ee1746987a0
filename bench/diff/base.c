/* augur diff benchmark: a base program; bench/diff.sh derives ten revisions from it by
 * rewriting the body of classify(). The shared part (a concrete table, then 2^6 paths
 * over symbolic bytes) is what one meta run executes once instead of eleven times. */
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

int classify(int score) {
  return score % 7; /* CLASSIFY */
}

int main(void) {
  unsigned char b[6];
  augur_make_symbolic(b, sizeof b, "b");
  init();
  int score = 0;
  for (int i = 0; i < 6; i++)
    if (b[i] > 'm')
      score += table[i * 37];
  printf("%d\n", classify(score));
  return 0;
}
