/* A Collatz-style loop: its trip count depends on the input and its variable is
 * updated under a branch. */
#include <stdlib.h>

int hist[100];

int steps(long n) {
  int c = 0;
  while (n > 1) {
    if (n % 2)
      n = 3 * n + 1;
    else
      n = n / 2;
    c++;
  }
  return c;
}

void record_steps(int s) {
  hist[s] += 1; /* s can be past the histogram */
}

void count(long n) {
  int s = steps(n);
  if (s > 100 && n < 1000)
    record_steps(s);
}

int main(int argc, char **argv) {
  if (argc > 1)
    count(atol(argv[1]));
  return 0;
}
