#include <stdio.h>
#include <string.h>

int verbose = 0;
int width = 8;

static int parse_num(const char *s) {
  int v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s - '0');
    s++;
  }
  return v;
}

int main(int argc, char **argv) {
  int i;
  int count = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0) {
      verbose++;
    } else if (argv[i][0] == '-' && argv[i][1] == 'w') {
      width = parse_num(argv[i] + 2);
      count++;
    } else {
      count += 2;
    }
  }
  if (verbose)
    printf("width %d count %d\n", width, count);
  return count > 3;
}
