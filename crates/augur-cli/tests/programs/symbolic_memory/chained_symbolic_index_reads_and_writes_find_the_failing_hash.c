
#include <augur.h>
int main(void) {
  unsigned char in[4];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char t[16];
  for (int i = 0; i < 16; i++) t[i] = (unsigned char)(i * 7 + 3);
  unsigned h = 0;
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 4; k++) {
      unsigned char j = (unsigned char)((in[k] ^ h) & 15);
      unsigned char v = t[j];
      t[(j + r) & 15] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & 0xff) != 0x5a); /* ASSERT */
  return 0;
}
