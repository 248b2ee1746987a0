/* A CPU-heavy run for the recording's overhead: digests of 0..N-1, where digest() is a
 * hard function (its loop runs an input-dependent number of times and updates h
 * non-linearly), so every call goes through the recording wrapper. */
#include <stdio.h>
#include <stdlib.h>

unsigned digest(unsigned x) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < 50 + x % 50; i++)
    h = (h ^ (x + i)) * 16777619u;
  return h;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atol(argv[1]) : 100000;
  unsigned long total = 0;
  for (unsigned i = 0; i < n; i++)
    total += digest(i);
  printf("%lu\n", total);
  return 0;
}
