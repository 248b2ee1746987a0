
#include <stdio.h>
#include <stdlib.h>
#include <augur.h>
static int status;
static void close_stdout(void) {
  printf("closing %d\n", status);
  if (status == 3) abort(); /* HANDLER */
}
int main(void) {
  atexit(close_stdout);
  augur_make_symbolic(&status, sizeof status, "status");
  if (status == 2) exit(9);
  if (status == 1) return 1;
  if (status == 3) return 3;
  status = 0;
  return 0;
}
