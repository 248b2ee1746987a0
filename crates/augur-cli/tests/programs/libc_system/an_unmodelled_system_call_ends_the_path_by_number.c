/* chroot is musl's: its system call is not modelled, and the path says which. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
  printf("before\n");
  return chroot("/") == 0; /* UNMODELLED */
}
