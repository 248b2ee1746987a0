/* A hash comparison: 16 rounds of bit mixing over the input's first 8 bytes, compared
 * with a stored digest. The trip count is fixed; the mixing is what a solver cannot undo. */
#include <stdint.h>
#include <string.h>

static char slots[4];

uint64_t digest(const char *s) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int round = 0; round < 16; round++) {
    h ^= (uint8_t)s[round % 8];
    h ^= h << 13;
    h ^= h >> 7;
    h *= 0xff51afd7ed558ccdull;
  }
  return h;
}

void unlock(const char *s) {
  slots[s[0] - 'a'] = 1; /* 'a' to 'd' only */
}

void login(const char *s) {
  if (digest(s) == 0x117c9660c8278d74ull)
    unlock(s);
}

int main(int argc, char **argv) {
  char key[9] = {0};
  if (argc > 1) {
    strncpy(key, argv[1], 8);
    login(key);
  }
  return 0;
}
