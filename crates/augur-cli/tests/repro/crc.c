/* A CRC-32 of the input (bit by bit, over its first four bytes: a fixed trip count)
 * must be a stored one before a slot is written. */
#include <stdint.h>
#include <string.h>

static char slots[8];

uint32_t crc32(const unsigned char *p) {
  uint32_t crc = 0xffffffffu;
  for (int i = 0; i < 4; i++) {
    crc ^= p[i];
    for (int bit = 0; bit < 8; bit++)
      crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
  }
  return ~crc;
}

void put(const unsigned char *p) {
  slots[p[0] % 16] = 1; /* past the slots for half the bytes */
}

void accept(const unsigned char *p) {
  if (crc32(p) == 0x9edb9447u)
    put(p);
}

int main(int argc, char **argv) {
  unsigned char word[5] = {0};
  if (argc > 1) {
    strncpy((char *)word, argv[1], 4);
    accept(word);
  }
  return 0;
}
