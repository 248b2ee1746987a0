
#include <augur.h>
int main(void) {
  unsigned char in[10];
  augur_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 10; i++)
    if (in[i] > 100) n |= 1 << i;
  return n;
}
