
#include <stdio.h>
#include <augur.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
#pragma pack(pop)
struct S g = {1, 2, 3, 4, 5, 6};
int main(void) {
  int x; augur_make_symbolic(&x, sizeof x, "x");
  if (x > 3) g.f2 = x; /* WIDE */
  else g.f1 = 9;
  printf("%u\n", g.f1);
  return 0;
}
