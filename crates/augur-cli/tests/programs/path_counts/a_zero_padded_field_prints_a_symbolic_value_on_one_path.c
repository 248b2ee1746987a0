/* md5sum prints each digest byte with "%02x": a zero-padded field holds every value
 * that fits it, so printing a symbolic one takes no branch, whatever its digits are
 * (it forked on each digit, and on a hash of the input every fork is a hard query). A
 * field the value may not fit ("%x", "%03u" of a word) still branches, once per digit
 * count the value can have. */
#include "augur.h"
#include <stdio.h>

int main(void) {
  unsigned char in[4];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned h = 2166136261u; /* FNV-1a */
  for (int i = 0; i < 4; i++)
    h = (h ^ in[i]) * 16777619u;
  for (int i = 0; i < 4; i++)
    printf("%02x", (h >> (8 * i)) & 0xff);
  printf(" %08x %.3u %05o %+04d\n", h, h & 0xff, h & 0x7fff, (int)(h & 0x7f));
  printf("%x\n", in[0] & 0x1f); /* one or two digits: two paths */
  printf("%u\n", (in[1] | in[2] << 8) & 1023); /* one to four digits: four paths each */
  return 0;
}
