/* A recursive function's result decides an array index. */
#include <stdlib.h>

int depth_of(const char *s, int i) {
  if (s[i] == '(')
    return 1 + depth_of(s, i + 1);
  return 0;
}

int slots[4];

void set_slot(int d) {
  slots[d] = 1; /* past the slots */
}

void mark(const char *s) {
  int d = depth_of(s, 0);
  if (d == 6)
    set_slot(d);
}

int main(int argc, char **argv) {
  if (argc > 1)
    mark(argv[1]);
  return 0;
}
