#include <stdio.h>
#include <string.h>
static int classify(const char *s) {
  size_t n = strlen(s);
  if (n == 0) return 0;
  if (strcmp(s, "ab") == 0) return 1;
  if (s[0] == 'x') return 2;
  return 4; /* OTHER */
}
int main(int argc, char **argv) {
  int c = classify(argv[1]);
  printf("class %d\n", c);
  return 0;
}
