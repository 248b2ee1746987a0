/* An input-dependent loop calling a helper: how many halvings and triplings take the
 * input's value to 1 decides where a record goes; the helper is plain arithmetic. */
#include <stdlib.h>

static int records[32];

int next_term(int t) {
  if (t % 2 == 0)
    return t / 2;
  return 3 * t + 1;
}

void keep(int n) {
  records[n] = n; /* n can be past the records */
}

void trace(int seed) {
  int t = next_term(seed), n = 0;
  while (t > 1) {
    t = next_term(t);
    n++;
  }
  if (n > 40)
    keep(n);
}

int main(int argc, char **argv) {
  if (argc > 1)
    trace(atoi(argv[1]));
  return 0;
}
