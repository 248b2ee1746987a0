/* Every path runs the original's own undefined behaviour before it reads its input: as
 * gnulib's readlinebuffer_delim does on its first call, it computes `buffer + size` with
 * a null buffer of size 0 (clang's UBSan: "applying zero offset to null pointer"). A bug
 * injected after it is verified past that report, which the original makes too. */
#include <stdio.h>

struct line {
  char *buffer;
  size_t size;
};

struct line lines;

int main(void) {
  char *end = lines.buffer + lines.size;
  unsigned char buf[4];
  int n = 0;
  if (fread(buf, 1, 4, stdin) == 4) {
    for (int j = 0; j < 4; j++) {
      if (buf[j] > 'm') {
        n += 3;
      }
    }
  }
  printf("%d %d\n", n, end == lines.buffer);
  return 0;
}
