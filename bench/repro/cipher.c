/* A cipher: the input block encrypted with XTEA (32 rounds, a fixed key) must match a
 * stored ciphertext. */
#include <stdint.h>
#include <string.h>

static int counters[8];

uint32_t encrypt(uint32_t v0, uint32_t v1) {
  static const uint32_t key[4] = {0x0123, 0x4567, 0x89ab, 0xcdef};
  uint32_t sum = 0, delta = 0x9e3779b9;
  for (int i = 0; i < 32; i++) {
    v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + key[sum & 3]);
    sum += delta;
    v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + key[(sum >> 11) & 3]);
  }
  return v0 ^ v1;
}

void bump(int slot) {
  counters[slot]++; /* slot past the counters */
}

void check(const char *s) {
  uint32_t a, b;
  memcpy(&a, s, 4);
  memcpy(&b, s + 4, 4);
  if (encrypt(a, b) == 0x51dbe00bu)
    bump(8 + (s[0] & 7));
}

int main(int argc, char **argv) {
  char block[9] = {0};
  if (argc > 1) {
    strncpy(block, argv[1], 8);
    check(block);
  }
  return 0;
}
