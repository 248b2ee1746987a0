/* Writes more than a path keeps of standard output (256 KiB), as `yes` or `seq` with a
 * large count do: the test predicts the first 256 KiB and the whole length, and the native
 * run agrees with both. */
#include <stdio.h>

int main(void) {
  char line[64];
  int i;
  for (i = 0; i < 60000; i++) {
    int n = snprintf(line, sizeof line, "%d\n", i);
    fwrite(line, 1, (size_t)n, stdout);
  }
  return 0;
}
