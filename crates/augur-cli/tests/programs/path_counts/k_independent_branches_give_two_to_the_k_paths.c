
#include <augur.h>
int main(void) {
  int x[5];
  augur_make_symbolic(x, sizeof x, "x");
  int n = 0;
  for (int i = 0; i < 5; i++)
    if (x[i] > 10) n++;
  return n;
}
