
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char buf[4];
  int fd = open("A", O_RDONLY);
  long n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
  printf("argc=%d file=%ld\n", argc, n);
  if (argc == 5 && fd >= 0 && n == 4 && buf[0] == 'Z') return 7; /* DEEP */
  return 0;
}
