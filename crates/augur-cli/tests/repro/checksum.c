/* A checksum (a 64-bit hash) of the input unlocks a code path: only the secret's hash
 * is in the program. */
static char table[16];

unsigned long long checksum(const char *s) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; s[i]; i++) {
    h ^= (unsigned char)s[i];
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
  }
  return h;
}

void store(const char *s, int slot) {
  table[slot] = s[0]; /* slot may be past the table */
}

void process(const char *s) {
  if (checksum(s) == 0x992b3fb3af34ee44ull && s[0] == 'k')
    store(s, 16 + s[1] % 8);
}

int main(int argc, char **argv) {
  if (argc > 1)
    process(argv[1]);
  return 0;
}
