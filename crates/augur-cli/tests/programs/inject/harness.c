
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static jmp_buf back;
static unsigned char input[2];
extern int augur_bug1;
/* The visit counters of the bug's transitions (as many as it has points). */
#define VISITS(k) extern unsigned augur_bug1_visit##k __attribute__((weak));
VISITS(1) VISITS(2) VISITS(3) VISITS(4) VISITS(5) VISITS(6)
static unsigned *const visits[] = {&augur_bug1_visit1, &augur_bug1_visit2,
                                   &augur_bug1_visit3, &augur_bug1_visit4,
                                   &augur_bug1_visit5, &augur_bug1_visit6};
int prog_main(void);
void augur_make_symbolic(void *p, unsigned long n, const char *name) {
  (void)name;
  memcpy(p, input, n);
}
void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  longjmp(back, 1);
}
/* Counts the inputs that fire the bug: all 65536, or with an argument A those with
 * in[0] == A (256). */
int main(int argc, char **argv) {
  long fired = 0;
  int first = argc > 1 ? atoi(argv[1]) : -1;
  for (int v = 0; v < 65536; v++) {
    input[0] = v & 255;
    input[1] = v >> 8;
    if (first >= 0 && input[0] != first)
      continue;
    augur_bug1 = 0;
    for (unsigned k = 0; k < sizeof visits / sizeof *visits; k++)
      if (visits[k])
        *visits[k] = 0;
    if (setjmp(back) == 0)
      prog_main();
    else
      fired++;
  }
  printf("%ld\n", fired);
  return 0;
}
