/* sendfile (musl's, over the models' reads and writes) copies a file to stdout as
 * cat does, from an offset too; dirname keeps glibc's "//". */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

int main(void) {
  char path[] = "//";
  int fd = open("in.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
  off_t at = 6;
  write(fd, "hello sendfile\n", 15);
  lseek(fd, 0, SEEK_SET);
  ssize_t n = sendfile(1, fd, NULL, 100);
  printf("\n%zd\n", n);
  fflush(stdout); /* stdio's buffer before sendfile's direct write */
  n = sendfile(1, fd, &at, 4);
  printf("\n%zd\n", n);
  printf("at %ld offset %ld\n", (long)at, (long)lseek(fd, 0, SEEK_CUR));
  printf("dirname %s\n", dirname(path));
  return 0;
}
