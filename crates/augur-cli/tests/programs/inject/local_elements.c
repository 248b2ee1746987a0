/* The input lives only in a local struct's fields and a local array's elements: no
 * scalar variable in scope depends on it, so every transition predicate must read one
 * of those elements, each only where every path has assigned it. */
#include "augur.h"
#include <stdio.h>

struct frame {
  int len;
  unsigned char kind;
};

static int parse(void) {
  struct frame f;
  int window[3];
  augur_make_symbolic(&f.len, sizeof f.len, "len");
  augur_make_symbolic(&f.kind, sizeof f.kind, "kind");
  if (f.len < 0 || f.len > 500)
    return 2;
  window[0] = f.len / 2;
  window[1] = f.kind + 1;
  if (window[0] > 100)
    puts("long");
  if (window[1] < 50)
    puts("low");
  if (f.kind == 'x')
    puts("x");
  puts("parsed");
  return window[0] + window[1];
}

int main(void) {
  printf("%d\n", parse());
  return 0;
}
