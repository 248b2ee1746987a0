/* symhash.c with 16-bit indices: a 4096-byte table read and written at indices made of
 * two input bytes each, inside a 6-round hash-like loop, then an assertion on the hash. */
#include <augur.h>
int main(void) {
  unsigned char in[8];
  augur_make_symbolic(in, sizeof in, "in");
  static unsigned char t[4096];
  for (int i = 0; i < 4096; i++)
    t[i] = (unsigned char)(i * 37 + 11);
  unsigned h = 0;
  for (int r = 0; r < 6; r++)
    for (int k = 0; k < 8; k += 2) {
      unsigned short j = (unsigned short)(((in[k] | in[k + 1] << 8) ^ h) & 4095);
      unsigned char v = t[j];
      t[(j + r) & 4095] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & 0xffff) != 0xbeef);
  return 0;
}
