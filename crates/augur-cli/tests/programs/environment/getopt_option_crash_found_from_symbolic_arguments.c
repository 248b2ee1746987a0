
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int c, verbose = 0;
  while ((c = getopt(argc, argv, "vx")) != -1) {
    if (c == 'v') verbose++;
    else if (c == 'x') abort(); /* CRASH */
  }
  printf("verbose=%d\n", verbose);
  return 0;
}
