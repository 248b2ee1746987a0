#include <stdio.h>
#include <unistd.h>
/* BusyBox's not_const_pp (include/libbb.h): an identity move with a tied operand. */
static char *unconst(const char *p) {
  char *pp;
  asm volatile("" : "=r"(pp) : "0"(p));
  return pp;
}
int main(void) {
  char buf[1] = {0};
  if (read(0, buf, 1) != 1) return 3;
  char *p = unconst(buf);
  asm volatile("" ::: "memory");
  asm volatile("pause");
  asm volatile("rep; nop");
  asm volatile("mfence" ::: "memory");
  asm volatile("lfence");
  asm volatile("sfence" ::: "memory");
  asm("nop");
  int a = p[0], b = 7;
  /* Two outputs, each tied to the other's input: a swap. */
  asm("" : "=r"(a), "=r"(b) : "1"(a), "0"(b));
  asm volatile("# %0 stays in memory" : "+m"(b));
  printf("%d %s\n", a, b == 'x' ? "x" : "other");
  return b == 'x';
}
