/* The input lives only in a global struct's fields and a global array's elements: no
 * scalar variable in scope depends on it, so every transition predicate must read one
 * of those elements. */
#include "augur.h"
#include <stdio.h>

struct reading {
  short id;
  int level;
  unsigned char flags;
};

struct reading cur;
int history[4];

static void record(void) {
  history[0] = cur.level * 2;
  history[1] = cur.id;
  history[2] = cur.flags;
}

static int assess(void) {
  int verdict = 0;
  record();
  if (history[2] & 1)
    verdict = 1;
  if (history[0] > 100)
    verdict += 2;
  if (history[1] < 7)
    verdict += 4;
  puts("assessed");
  return verdict;
}

int main(void) {
  augur_make_symbolic(&cur, sizeof cur, "reading");
  if (cur.level < 0 || cur.level > 1000 || cur.id < 0)
    return 2;
  printf("%d\n", assess());
  puts("done");
  return 0;
}
