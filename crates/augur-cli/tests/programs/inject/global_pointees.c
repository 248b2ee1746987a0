/* The input is reached only through globals that point at it: main() points `line` at
 * the bytes read and `cur` at a record, and scan(), which takes no parameter and has no
 * local, reads both through them. No integer variable in scope holds an input byte, so
 * every transition predicate must read what a global pointer points at. */
#include "augur.h"
#include <stdio.h>

struct rec {
  int id;
  unsigned char tag;
};

static const char *line;
static const struct rec *cur;

static void scan(void) {
  if (line[0] == '#') {
    puts("comment");
    return;
  }
  if (line[1] == line[2])
    puts("pair");
  if (cur->id > 10)
    puts("big");
  if (cur->tag == 'q')
    puts("q");
  if (line[3] < 'm')
    puts("low");
  puts("scanned");
}

int main(void) {
  static char buf[5];
  static struct rec r;
  augur_make_symbolic(buf, 4, "line");
  augur_make_symbolic(&r, sizeof r, "rec");
  line = buf;
  cur = &r;
  scan();
  return 0;
}
