/* acct is musl's: its system call is not modelled, and the path says which. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <unistd.h>

int main(void) {
  printf("before\n");
  return acct(NULL) == 0; /* UNMODELLED */
}
