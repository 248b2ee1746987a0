/* augur diff example: fix 2: the Gregorian rule. */
#include <augur.h>
#include <stdio.h>

int is_leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int main(void) {
  int year;
  augur_make_symbolic(&year, sizeof year, "year");
  augur_assume(year > 0 && year < 4000);
  puts(is_leap(year) ? "leap" : "common");
  return 0;
}
