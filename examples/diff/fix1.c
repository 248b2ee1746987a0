/* augur diff example: fix 1: centuries are not leap years. */
#include <augur.h>
#include <stdio.h>

int is_leap(int y) {
  return y % 4 == 0 && y % 100 != 0;
}

int main(void) {
  int year;
  augur_make_symbolic(&year, sizeof year, "year");
  augur_assume(year > 0 && year < 4000);
  puts(is_leap(year) ? "leap" : "common");
  return 0;
}
