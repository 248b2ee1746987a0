/* BusyBox's readlink -f and realpath hand their operand to realpath(3). POSIX leaves a
 * leading "//" to the implementation: musl keeps it, glibc (the native run's) gives
 * "/"; three slashes or more are "/" in both. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const char *names[] = {"//", "//.", "///", "/", "//augur/..", "."};
  char buf[PATH_MAX];
  for (int i = 0; i < 6; i++) {
    char *r = realpath(names[i], buf);
    printf("%s -> %s\n", names[i], r ? r : "(null)");
  }
  char *own = realpath("//", NULL);
  printf("malloced %s\n", own);
  free(own);
  return 0;
}
