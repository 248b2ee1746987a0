
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
  char name[64], tiny[2];
  if (gethostname(name, sizeof name) != 0) return 1;
  int r = gethostname(tiny, sizeof tiny);
  printf("%s %d %d\n", name, r, r < 0 && errno == ENAMETOOLONG);
  return 0;
}
