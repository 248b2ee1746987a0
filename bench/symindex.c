/* Symbolic indices: reads and writes of a 64-element table at symbolic positions. */
#include <augur.h>
int table[64];
int main(void) {
  unsigned idx[4];
  augur_make_symbolic(idx, sizeof idx, "idx");
  for (int i = 0; i < 64; i++) table[i] = i * 7 % 64;
  for (int k = 0; k < 4; k++) augur_assume(idx[k] < 64);
  table[idx[0]] = 1000;
  int s = table[idx[1]] + table[idx[2]];
  if (s == 1000 + 21) return 1;
  if (table[idx[3]] == 63) return 2;
  return 0;
}
