
#include <cpuid.h>
#include <stdio.h>
#include <unistd.h>
static int avx2(void) {
  unsigned int a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & bit_AVX2) != 0;
}
static int lines_fast(const char *s, int n) {
  int k = 0; /* FAST */
  while (n--) k += *s++ == '\n';
  return k;
}
static int lines_portable(const char *s, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) if (s[i] == '\n') k++;
  return k;
}
int main(void) {
  char buf[2];
  int n = read(0, buf, 2);
  int k = avx2() ? lines_fast(buf, n) : lines_portable(buf, n);
  printf("%d\n", k);
  return k;
}
