/* 16 independent branches: 65,536 paths (paths per second, peak memory). */
#include <augur.h>
int main(void) {
  unsigned char in[16];
  augur_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 16; i++)
    if (in[i] > 100) n++;
  return n;
}
