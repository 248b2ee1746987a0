/* The input is reached only through pointers: scan() reads a line through a
 * `const char *` and a record through a struct pointer, and no integer variable in
 * scope holds an input byte, so every transition predicate must read what a pointer
 * points at. */
#include "augur.h"
#include <stdio.h>

struct rec {
  int id;
  unsigned char tag;
};

static void scan(const char *p, const struct rec *r) {
  if (p[0] == '#') {
    puts("comment");
    return;
  }
  if (p[1] == p[2])
    puts("pair");
  if (r->id > 10)
    puts("big");
  if (r->tag == 'q')
    puts("q");
  if (p[3] < 'm')
    puts("low");
  puts("scanned");
}

int main(void) {
  char line[5];
  struct rec r;
  augur_make_symbolic(line, 4, "line");
  line[4] = 0;
  augur_make_symbolic(&r, sizeof r, "rec");
  scan(line, &r);
  return 0;
}
