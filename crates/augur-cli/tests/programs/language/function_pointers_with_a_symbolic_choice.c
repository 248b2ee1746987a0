
#include <augur.h>
static int one(void) { return 1; }
static int two(void) { return 2; }
static int three(void) { return 3; }
int (*table[3])(void) = {one, two, three};
int main(void) {
  unsigned k; augur_make_symbolic(&k, sizeof k, "k");
  augur_assume(k < 3);
  return table[k]();
}
