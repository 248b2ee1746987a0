
#include <assert.h>
#include <stdlib.h>
#include <augur.h>
void reach_error(void);
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x == 1) assert(x != 1); /* ASSERT */
  if (x == 2) abort();        /* ABORT */
  if (x == 3) reach_error();  /* REACH */
  augur_assert(x != 4);       /* AUGUR_ASSERT */
  return 0;
}
