
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
static jmp_buf back;
static unsigned char input[2];
extern int augur_bug1;
int prog_main(void);
void augur_make_symbolic(void *p, unsigned long n, const char *name) {
  (void)name;
  memcpy(p, input, n);
}
void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  longjmp(back, 1);
}
int main(void) {
  long fired = 0;
  for (int v = 0; v < 65536; v++) {
    input[0] = v & 255;
    input[1] = v >> 8;
    augur_bug1 = 0;
    if (setjmp(back) == 0)
      prog_main();
    else
      fired++;
  }
  printf("%ld\n", fired);
  return 0;
}
