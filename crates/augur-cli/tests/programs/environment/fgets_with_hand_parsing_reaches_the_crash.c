
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  char line[16];
  if (!fgets(line, sizeof line, stdin)) return 1;
  int n = 0;
  for (char *p = line; *p >= '0' && *p <= '9'; p++) n = n * 10 + (*p - '0');
  if (n == 42) abort(); /* CRASH */
  return 0;
}
