#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int scale = 3; /* SCALE */
  int shown = scale * 10;
  printf("%d items, %d\n", n, shown);
  return 0;
}
