/* Concrete-heavy: a sieve and a hash loop, no symbolic input (instructions per second). */
#include <augur.h>
static unsigned char composite[200000];
int main(void) {
  int count = 0;
  for (int i = 2; i < 200000; i++) {
    if (!composite[i]) {
      count++;
      for (long j = (long)i * i; j < 200000; j += i) composite[j] = 1;
    }
  }
  unsigned h = 2166136261u;
  for (int r = 0; r < 20; r++)
    for (int i = 0; i < 200000; i++) h = (h ^ composite[i]) * 16777619u;
  return (count == 17984) + (int)(h & 0);
}
