
#include <augur.h>
int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
int main(void) {
  unsigned i; augur_make_symbolic(&i, sizeof i, "i");
  augur_assume(i < 8);
  if (table[i] == 9) return 1;
  return 0;
}
