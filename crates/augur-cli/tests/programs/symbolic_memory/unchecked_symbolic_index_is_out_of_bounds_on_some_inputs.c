
#include <augur.h>
int a[10];
int main(void) {
  int i; augur_make_symbolic(&i, sizeof i, "i");
  a[i] = 1; /* WRITE */
  return 0;
}
