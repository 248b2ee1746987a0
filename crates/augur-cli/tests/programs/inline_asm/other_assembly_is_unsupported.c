#include <unistd.h>
int main(void) {
  char c = 0;
  if (read(0, &c, 1) != 1) return 3;
  if (c != 'x') return 0;
  int a = 1, b = 2;
  asm("xchg %0, %1" : "+r"(a), "+r"(b)); /* XCHG */
  return a;
}
