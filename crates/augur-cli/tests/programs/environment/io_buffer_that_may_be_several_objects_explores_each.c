
#include <stdint.h>
#include <unistd.h>
#include <augur.h>
char a[4] = "aaa", b[4] = "bbb";
int main(void) {
  unsigned char k; augur_make_symbolic(&k, 1, "k");
  /* A pointer computed without a branch: the engine must resolve it to both objects. */
  uintptr_t is7 = (k == 7);
  const char *p = (const char *)(is7 * (uintptr_t)a + (1 - is7) * (uintptr_t)b);
  write(1, p, 3);
  return 0;
}
