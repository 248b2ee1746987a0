/* truncate -s SIZE, as BusyBox's, or dd seek=N: a file grown to the size the input
 * names, by ftruncate or by a write past a seek. Linux makes a sparse file of any size;
 * the model holds at most 16 MiB, so the 3 GB ones must end their paths as
 * unsupported, not fail where Linux succeeds. */
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
  if (big == 'W') {
    puts("write at 3 GB");
    if (lseek(fd, 3000000000L, SEEK_SET) < 0 || write(fd, "x", 1) != 1) {
      perror("write");
      return 1;
    }
  }
  if (ftruncate(fd, size) != 0) {
    perror("ftruncate");
    return 1;
  }
  printf("%ld\n", (long)lseek(fd, 0, SEEK_END));
  return 0;
}
