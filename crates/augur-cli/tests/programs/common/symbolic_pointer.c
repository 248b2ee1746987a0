
#include <augur.h>
int a[4], b[4], c[4];
int main(void) {
  unsigned char k, i;
  augur_make_symbolic(&k, sizeof k, "k");
  augur_make_symbolic(&i, sizeof i, "i");
  augur_assume(k < 3);
  augur_assume(i < 4);
  int *tab[3] = {a, b, c};
  int *q = tab[k] + i;
  *q = 1;
  int s = 0;
  for (int j = 0; j < 4; j++) {
    if (a[j]) s += 1 << j;
    if (b[j]) s += 16 << j;
    if (c[j]) s += 256 << j;
  }
  return s;
}
