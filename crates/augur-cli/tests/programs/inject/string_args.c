/* The input reaches the code only as strings passed to the C library: kind() compares
 * its argument with strcmp(), main() converts one with atoi(). No code of the program
 * reads an input byte itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kind(const char *name) {
  if (strcmp(name, "ether") == 0)
    return 1;
  if (strcmp(name, "ax") == 0)
    return 2;
  return 0;
}

int main(int argc, char **argv) {
  int n = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-n") == 0)
      n += 10;
    else
      n += kind(argv[i]);
  }
  printf("%d\n", n);
  return 0;
}
