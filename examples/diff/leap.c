/* augur diff example: a buggy leap-year test (the base) and three candidate fixes. */
#include <augur.h>
#include <stdio.h>

int is_leap(int y) {
  return y % 4 == 0;
}

int main(void) {
  int year;
  augur_make_symbolic(&year, sizeof year, "year");
  augur_assume(year > 0 && year < 4000);
  puts(is_leap(year) ? "leap" : "common");
  return 0;
}
