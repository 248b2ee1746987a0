/* A floating-point comparison after math calls on the input. */
#include <math.h>
#include <stdlib.h>

static char bins[10];

void fill(int bin) {
  bins[bin] = 1; /* bin past the bins */
}

void classify(int x) {
  double d = sqrt((double)x) * log((double)x + 1.0);
  if (d > 200.0 && d < 200.5)
    fill((int)(d / 10.0));
}

int main(int argc, char **argv) {
  if (argc > 1)
    classify(atoi(argv[1]));
  return 0;
}
