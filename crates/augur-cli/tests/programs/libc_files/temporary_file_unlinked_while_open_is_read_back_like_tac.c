
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  char name[] = "/tmp/tacXXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) return 2;
  unlink(name);  /* as tac does: the open descriptor keeps the file */
  struct stat st;
  if (stat(name, &st) == 0) return 3;
  char buf[4];
  ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
  if (write(fd, buf, n) != n) return 4;
  if (ftruncate(fd, n > 1 ? n - 1 : n) != 0) return 5;
  off_t size = lseek(fd, 0, SEEK_END);
  for (off_t i = size - 1; i >= 0; i--) {
    char c;
    if (pread(fd, &c, 1, i) != 1) return 6;
    putchar(c);
  }
  close(fd);
  return 0;
}
