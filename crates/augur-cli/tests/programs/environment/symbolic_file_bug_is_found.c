
#include <stdio.h>
#include <string.h>
int main(void) {
  FILE *f = fopen("input.txt", "r");
  if (!f) return 2;
  char buf[8] = {0};
  size_t n = fread(buf, 1, 4, f);
  fclose(f);
  if (n == 4 && memcmp(buf, "BOOM", 4) == 0) { int z = 0; return 10 / z; } /* CRASH */
  return 0;
}
