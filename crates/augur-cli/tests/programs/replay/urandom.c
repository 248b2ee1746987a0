/* Prints 16 bytes of the host's randomness: natively no two runs print the same line
 * (augur's world has no /dev/urandom, so the prediction differs from both). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  unsigned char b[16];
  int fd = open("/dev/urandom", O_RDONLY);
  if (fd < 0 || read(fd, b, sizeof b) != sizeof b) {
    puts("no randomness");
    return 0;
  }
  for (int i = 0; i < 16; i++) printf("%02x", b[i]);
  puts("");
  return 0;
}
