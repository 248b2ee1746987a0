
#include <augur.h>
int main(void) {
  unsigned long long a; augur_make_symbolic(&a, sizeof a, "a");
  unsigned __int128 w = (unsigned __int128)a * 0x100000000ULL * 0x100000000ULL;
  __int128 s = -(__int128)w;
  /* Concrete 128-bit division and remainder, signed and unsigned. */
  __int128 big = (__int128)1 << 100;
  int concrete_ok = big / -3 == -(((__int128)1 << 100) / 3) && big % 7 == 2
    && (unsigned __int128)-1 / 5 == ((unsigned __int128)-1) / 5 && ((unsigned __int128)-1 >> 127) == 1;
  if (concrete_ok && (w >> 64) == 12345 && s < 0) return 1;
  return 0;
}
