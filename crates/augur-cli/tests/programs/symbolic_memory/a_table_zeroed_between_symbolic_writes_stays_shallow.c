/* A table written at input-dependent indices, with a few entries zeroed between the
 * writes (as deflate's frequency counts are reset per block). Each concrete write must
 * add its own bytes to the table's array, not the whole table again: four rounds of a
 * 4 KiB table would otherwise make the last query 16,000 stores deep, past what the
 * solver is given, and the paths would end unfinished. */
#include <augur.h>

static unsigned char table[4096];

int main(void) {
  unsigned char in[4];
  augur_make_symbolic(in, sizeof in, "in");
  for (int round = 0; round < 4; round++) {
    table[in[round]] = (unsigned char)(round + 1);
    for (int i = 0; i < 16; i += 2)
      table[i] = 0;
  }
  /* The last write survives at an odd index only when nothing zeroed it. */
  if (table[in[3] | 1] == 4)
    return 1;
  return 0;
}
