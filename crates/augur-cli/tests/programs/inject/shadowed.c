/* count() declares a `p` in each of two blocks, and LLVM names the second one's stack
 * slot `%p1`: the input is reached only through that second `p`, so every transition
 * predicate reads what it points at, under its name in the C text. */
#include <stdio.h>
#include <unistd.h>

static int count(int quiet) {
  char buf[8] = {0};
  int hits = 0;
  if (read(0, buf, 6) < 6)
    return -1;
  if (quiet) {
    const char *p = "quiet";
    while (*p)
      hits += *p++ == 'q';
  } else {
    const char *p = buf;
    while (*p) {
      if (*p == 'x')
        hits++;
      else if (p[0] == p[1])
        hits += 2;
      p++;
    }
  }
  return hits;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", count(argc > 1));
  return 0;
}
