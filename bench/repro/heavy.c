/* A CPU-heavy run for the recording's overhead: the Collatz step counts of 1..N, where
 * steps() is a hard function (its loop is input-dependent and updates n under a branch),
 * so every outermost call goes through the recording wrapper. */
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000, total = 0;
  for (long i = 1; i <= n; i++)
    total += steps(i);
  printf("%ld\n", total);
  return 0;
}
