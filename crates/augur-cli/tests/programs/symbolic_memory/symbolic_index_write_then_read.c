
#include <augur.h>
int main(void) {
  int a[4] = {0, 0, 0, 0};
  unsigned i, j; augur_make_symbolic(&i, sizeof i, "i"); augur_make_symbolic(&j, sizeof j, "j");
  augur_assume(i < 4); augur_assume(j < 4);
  a[i] = 7;
  if (a[j] == 7) return 1;
  return 0;
}
