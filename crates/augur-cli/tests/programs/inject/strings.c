/* The input is a string that check() reads through a `char *` at its first byte only:
 * the bytes after it are predicate variables as string bytes, `*word#K`, each read
 * only while the string lasts. */
#include "augur.h"
#include <stdio.h>

static int check(const char *word) {
  if (word[0] == '-') {
    puts("option");
    return 1;
  }
  puts("word");
  puts("checked");
  return 0;
}

int main(void) {
  char arg[6];
  augur_make_symbolic(arg, 5, "arg");
  arg[5] = 0;
  return check(arg);
}
