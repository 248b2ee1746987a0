/* An input-dependent loop calling a helper: the number of steps from the input to 1
 * decides the crash; the helper is one line of arithmetic. */
#include <stdlib.h>

static char histogram[64];

long step(long j) {
  return j % 2 ? 3 * j + 1 : j / 2;
}

void count(int steps) {
  histogram[steps] += 1; /* steps past the histogram */
}

void walk(long x) {
  long j = step(x);
  int steps = 0;
  while (j != 1 && j > 0) {
    j = step(j);
    steps++;
  }
  if (steps > 100)
    count(steps);
}

int main(int argc, char **argv) {
  if (argc > 1)
    walk(atol(argv[1]));
  return 0;
}
