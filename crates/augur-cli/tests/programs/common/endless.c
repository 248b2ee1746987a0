
#include <augur.h>
int main(void) {
  unsigned char b[40]; augur_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 40; i++) if (b[i] == i) n++;
  return n;
}
