
#include <augur.h>
int main(void) {
  unsigned char in[6];
  augur_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 5; i++)
    if (in[i] > 100) n++;
  switch (in[5] % 4) {
  case 0: return n;
  case 1: return n + 10;
  case 2:
    if (n == 5) { int *p = 0; return *p; }
    return 20;
  default: return 30 + (n > 2);
  }
}
