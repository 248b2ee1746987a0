
#include <augur.h>
int main(void) {
  unsigned char c[3];
  augur_make_symbolic(c, 3, "c");
  int r = 0;
  if (c[0] == 'a') r |= 1;
  if (c[1] == 'b') r |= 2;
  if (c[2] == 'c') r |= 4;
  return r;
}
