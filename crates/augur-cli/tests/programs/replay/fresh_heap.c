#include <stdio.h>
#include <stdlib.h>

/* Reads heap memory before writing it, as gnulib's randread does when it seeds ISAAC from
   a partly filled buffer (shuf): in the analysis fresh blocks read as zero, so they must
   natively too (AddressSanitizer fills them with 0xbe by default). */
int main(void) {
  unsigned char *small = malloc(64), *large = malloc(8192);
  printf("%d %d %d %d\n", small[0], small[63], large[0], large[8191]);
  free(small);
  unsigned char *again = malloc(64);
  printf("%d\n", again[5]);
  return 0;
}
