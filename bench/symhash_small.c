/* symhash.c's shape at a size Z3 can solve: a 32-byte table read and written at
 * input-dependent indices in a 3-round hash-like loop over 4 input bytes, then an
 * assertion on 8 bits of the hash. */
#include <augur.h>
int main(void) {
  unsigned char in[4];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char t[32];
  for (int i = 0; i < 32; i++)
    t[i] = (unsigned char)(i * 7 + 3);
  unsigned h = 0;
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 4; k++) {
      unsigned char j = (unsigned char)((in[k] ^ h) & 31);
      unsigned char v = t[j];
      t[(j + r) & 31] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & 0xff) != 0x5a);
  return 0;
}
