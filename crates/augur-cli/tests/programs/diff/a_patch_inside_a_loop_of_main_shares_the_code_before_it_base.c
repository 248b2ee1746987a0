#include <augur.h>
#include <stdio.h>
int main(void) {
  unsigned char b[4];
  augur_make_symbolic(b, sizeof b, "b");
  int s = 0;
  for (int i = 0; i < 4; i++) {
    int v = b[i] > 'm' ? 2 : 1;
    s += v;
  }
  switch (s) {
  case 4: puts("four"); break;
  case 8: puts("eight"); break;
  default: printf("%d\n", s);
  }
  return 0;
}
