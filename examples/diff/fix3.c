/* augur diff example: fix 3: the Gregorian rule, written another way. */
#include <augur.h>
#include <stdio.h>

int is_leap(int y) {
  if (y % 400 == 0) return 1;
  if (y % 100 == 0) return 0;
  return y % 4 == 0;
}

int main(void) {
  int year;
  augur_make_symbolic(&year, sizeof year, "year");
  augur_assume(year > 0 && year < 4000);
  puts(is_leap(year) ? "leap" : "common");
  return 0;
}
