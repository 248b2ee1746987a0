/* The input is read one byte per iteration of a one-line loop: the points deep on
 * the path are that line at its later iterations, each reading another byte, and
 * the return line, so a bug with more points than that holds transitions at several
 * visits of one line. */
#include "augur.h"

int main(void) {
  unsigned char buf[12];
  augur_make_symbolic(buf, sizeof buf, "buf");
  unsigned sum = 0;
  for (int i = 0; i < 12; i++) {
    sum = sum * 31 + (buf[i] & 1 ? buf[i] : 0);
  }
  return sum % 7 == 3 ? 1 : 0;
}
