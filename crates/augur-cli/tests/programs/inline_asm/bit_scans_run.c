/* GMP's longlong.h, as coreutils' factor uses it: count_trailing_zeros is `rep; bsf`
 * (tzcnt), count_leading_zeros `bsrq` then `^ 63`, each of a value that is not 0. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
  unsigned long x = 0;
  if (read(0, &x, 2) != 2 || x == 0)
    return 3;
  unsigned long low, high;
  unsigned int low32;
  __asm__("rep;bsf\t%1, %q0" : "=r"(low) : "rm"(x));
  __asm__("bsrq %1,%0" : "=r"(high) : "rm"(x));
  __asm__("bsfl %1,%k0" : "=r"(low32) : "rm"((unsigned int)x));
  printf("%lu %lu %u\n", low, high ^ 63, low32);
  if (low == 9 && (high ^ 63) == 54)
    return 1; /* only 0x0200 */
  return low == (unsigned long)__builtin_ctzl(x) && (high ^ 63) == (unsigned long)__builtin_clzl(x) ? 0 : 2;
}
