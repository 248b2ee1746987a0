/* A pipe within the one process: written bytes come back in order, a pipe with no
 * writer left reads end of file, and its descriptors are not seekable. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  int fds[2];
  char buf[16];
  struct stat st;
  if (pipe(fds) != 0)
    return 1;
  printf("ends %d %d\n", fds[0], fds[1]);
  printf("write %zd\n", write(fds[1], "hello, pipe", 11));
  printf("read %zd\n", read(fds[0], buf, 5));
  printf("got %.5s\n", buf);
  printf("fifo %d\n", fstat(fds[0], &st) == 0 && S_ISFIFO(st.st_mode));
  printf("lseek %d errno %d\n", (int)lseek(fds[0], 0, SEEK_SET), errno);
  printf("wrong end %zd errno %d\n", read(fds[1], buf, 1), errno);
  close(fds[1]);
  printf("rest %zd\n", read(fds[0], buf, sizeof buf));
  printf("eof %zd\n", read(fds[0], buf, sizeof buf));
  close(fds[0]);
  return 0;
}
