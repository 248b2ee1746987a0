/* The blocks a file takes, as du and ls -s read them: whole 4 KiB blocks of the fixed
 * volume, in the model and in the native replay alike. File A's first byte picks whether
 * 5000 more bytes are written to it. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  struct stat st;
  char c = 0, big[5000];
  int fd = open("A", O_RDWR);
  if (fd < 0 || read(fd, &c, 1) != 1) return 9;
  memset(big, 'x', sizeof big);
  if (c == 'w' && write(fd, big, sizeof big) != (long)sizeof big) return 8;
  if (fstat(fd, &st) != 0) return 7;
  printf("A %lld bytes %lld blocks of %ld\n", (long long)st.st_size, (long long)st.st_blocks,
         (long)st.st_blksize);
  close(fd);
  if (creat("empty", 0644) < 0 || stat("empty", &st) != 0) return 6;
  printf("empty %lld blocks\n", (long long)st.st_blocks);
  return 0;
}
