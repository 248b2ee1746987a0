
#include <augur.h>
int a = 1, b = 2, c = 3;
int main(void) {
  int k; augur_make_symbolic(&k, sizeof k, "k");
  int *p = k == 0 ? &a : k == 1 ? &b : &c;
  return *p;
}
