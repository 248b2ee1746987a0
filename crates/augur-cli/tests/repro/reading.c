/* A number read with atof, compared as floating point; and a scale computed in floating
 * point from the input. */
#include <stdlib.h>

static char gauges[6];

double scale(int raw) {
  return raw * 0.25 + 1.5;
}

void show(int gauge) {
  gauges[gauge] = 1; /* gauge past the gauges */
}

void read_gauge(const char *s) {
  double v = atof(s);
  if (v >= 7.5 && v < 8.0 && scale((int)v) == 3.25)
    show((int)v);
}

int main(int argc, char **argv) {
  if (argc > 1)
    read_gauge(argv[1]);
  return 0;
}
