
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>
#include <augur.h>
int main(void) {
  unsigned char a[4], b[4], big[300];
  char c;
  augur_make_symbolic(&c, 1, "c");
  if (getrandom(a, sizeof a, GRND_NONBLOCK) != 4) return 3;
  if (getentropy(b, sizeof b) != 0) return 4;
  if (getentropy(big, sizeof big) != -1) return 5;
  if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3]) return 6;
  printf("%02x%02x%02x%02x %02x%02x%02x%02x %s\n", a[0], a[1], a[2], a[3], b[0], b[1],
         b[2], b[3], c == 'r' ? "r" : "-");
  return 0;
}
