/* A checksum over the input decides whether a record is processed. */
#include <string.h>

static char table[16];

unsigned checksum(const char *s) {
  unsigned h = 2166136261u;
  for (int i = 0; s[i]; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

void store(const char *s, int slot) {
  table[slot] = s[0]; /* slot may be past the table */
}

void process(const char *s) {
  unsigned h = checksum(s);
  if (h % 64 == 17 && s[0] == 'k')
    store(s, 16 + s[1] % 8);
}

int main(int argc, char **argv) {
  if (argc > 1)
    process(argv[1]);
  return 0;
}
