/* A table written at input-dependent indices, then read at known ones (a compressor's
 * frequency table, `freq[c]++`, read field by field after): each read is a choice among
 * the writes that may have hit it, with no array for the solver. */
#include <augur.h>

int main(void) {
  unsigned char in[3];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char mark[64];
  for (int k = 0; k < 64; k++)
    mark[k] = 9;
  for (int i = 0; i < 3; i++)
    mark[in[i] & 63] = (unsigned char)i;
  int r = 0;
  for (int k = 0; k < 2; k++)
    if (mark[k] == 9)
      r |= 1 << k;
  return r;
}
