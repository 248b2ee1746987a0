/* Closing stdin twice (coreutils' comm, given `-` for both files): the second fclose
 * returns EOF with errno unchanged, and fileno of the closed stream is -1 with EBADF, as
 * in glibc. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  int first = fclose(stdin);
  errno = 0;
  int second = fclose(stdin);
  int after_second = errno;
  int fd = fileno(stdin);
  printf("%d %d %d %d %d\n", first, second, after_second, fd, errno);
  return 0;
}
