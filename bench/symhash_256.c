/* symhash.c over a 256-byte table: read and written at input-dependent indices inside
 * a 6-round hash-like loop, then an assertion on the hash. */
#include <augur.h>
int main(void) {
  unsigned char in[8];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char t[256];
  for (int i = 0; i < 256; i++)
    t[i] = (unsigned char)(i * 37 + 11);
  unsigned h = 0;
  for (int r = 0; r < 6; r++)
    for (int k = 0; k < 8; k++) {
      unsigned char j = (unsigned char)((in[k] ^ h) & 255);
      unsigned char v = t[j];
      t[(j + r) & 63] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & 0xffff) != 0xbeef);
  return 0;
}
