
#include <augur.h>
int main(void) {
  unsigned char in[8];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char t[64];
  for (int i = 0; i < 64; i++) t[i] = (unsigned char)(i * 29 + 5);
  unsigned h = 0;
  for (int r = 0; r < 6; r++)
    for (int k = 0; k < 8; k++) {
      unsigned j = (in[k] ^ h) & 63;
      unsigned char v = t[j];
      t[(j + r) & 63] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & 0xffff) != 0x1234); /* HASH */
  return 0;
}
