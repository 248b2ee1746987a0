
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  char buf[8];
  int fd = open("A", O_RDONLY);
  if (fd < 0) return 2;
  long n = read(fd, buf, sizeof buf - 1);
  buf[n] = 0; /* BUG: n is -1 when read fails */
  fputs(buf, stdout);
  return 0;
}
