/* atof, then a floating-point comparison of the number read. */
#include <stdlib.h>

static char levels[8];

void set_level(int level) {
  levels[level] = 1; /* level past the levels */
}

void apply(const char *s) {
  double v = atof(s);
  if (v > 12.25 && v < 12.5)
    set_level((int)v);
}

int main(int argc, char **argv) {
  if (argc > 1)
    apply(argv[1]);
  return 0;
}
