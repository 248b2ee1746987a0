/* A floating-point comparison without math calls: a ratio computed from the input must
 * be one value exactly. */
#include <stdlib.h>

static char cells[4];

double ratio(int x) {
  return x / 70.0 - 0.1;
}

void mark(int cell) {
  cells[cell] = 1; /* cell past the cells */
}

void scan(int x) {
  if (ratio(x) == 0.0)
    mark(x);
}

int main(int argc, char **argv) {
  if (argc > 1)
    scan(atoi(argv[1]));
  return 0;
}
