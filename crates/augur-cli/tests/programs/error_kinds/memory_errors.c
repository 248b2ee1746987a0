
#include <stdlib.h>
#include <augur.h>
int g[4];
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  int local[3] = {0};
  int *p = malloc(4 * sizeof(int));
  int *null = 0;
  if (x == 1) return *null;        /* NULL */
  if (x == 2) return p[4];         /* HEAP_OOB */
  if (x == 3) return local[x];     /* STACK_OOB */
  if (x == 4) g[x] = 1;            /* GLOBAL_OOB */
  if (x == 5) { free(p); return p[0]; } /* UAF */
  if (x == 6) { free(p); free(p); }     /* DOUBLE */
  if (x == 7) free(p + 1);              /* INVALID */
  if (x == 8) free(local);              /* INVALID_STACK */
  return 0;
}
