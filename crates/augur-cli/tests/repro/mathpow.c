/* Non-linear math on input-derived doubles picks an index. */
#include <math.h>
#include <stdlib.h>

int weights[8];

int bucket(double x) {
  double y = pow(x, 1.5) + sqrt(x) * log(x + 1.0);
  return (int)y % 16; /* up to 15: past the 8 weights */
}

void bump(int b) {
  weights[b] += 1; /* b may be past the weights */
}

void add(int k) {
  bump(bucket((double)k));
}

int main(int argc, char **argv) {
  if (argc > 1)
    add(atoi(argv[1]));
  return 0;
}
