/* A NULL dereference three frames deep (for a gdb backtrace of the plain build). */
#include <string.h>

struct entry {
  const char *key;
  int value;
};

static struct entry table[] = {{"alpha", 1}, {"beta", 2}};

struct entry *find(const char *k) {
  for (int i = 0; i < 2; i++)
    if (strcmp(table[i].key, k) == 0)
      return &table[i];
  return 0;
}

int value_of(const char *k) {
  return find(k)->value; /* NULL when the key is unknown */
}

int lookup(const char *k) {
  if (k[0] == 'q')
    return value_of(k);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1)
    return lookup(argv[1]);
  return 0;
}
