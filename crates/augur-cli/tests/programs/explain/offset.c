#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int a = atoi(argv[1]);
  int d = a - 3; /* OFFSET */
  fprintf(stdout, "v=%x %d\n", a * 3, d);
  return 0;
}
