/* truncate -s SIZE, as BusyBox's: a file grown to the size the input names. Linux
 * makes a sparse file of any size; the model holds at most 16 MiB, so the 3 GB one
 * must end its path as unsupported, not fail where Linux succeeds. */
#include "augur.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char big;
  augur_make_symbolic(&big, 1, "big");
  int fd = open("grown", O_WRONLY | O_CREAT, 0644);
  if (fd < 0)
    return 2;
  long size = 4096;
  if (big == 'G') {
    puts("3 GB");
    size = 3000000000L;
  }
  if (ftruncate(fd, size) != 0) {
    perror("ftruncate");
    return 1;
  }
  printf("%ld\n", (long)lseek(fd, 0, SEEK_END));
  return 0;
}
