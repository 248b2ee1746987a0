/* A small state machine over the input bytes: letters step it, digits weigh it. */
#include <stdio.h>
#include "machine.h"

static int steps = 0;

static int step(int state, int c) {
  int next = state;
  if (c == 'a')
    next = state + 1;
  else if (c == 'b')
    next = state * 2;
  else if (c >= '0' && c <= '9')
    next = state + (c - '0');
  else if (c > 'x')
    next = 0;
  steps++;
  return next;
}

static int weigh(int state, int c, int total) {
  int w = state - c / 16;
  if (w > 3)
    total += w;
  else
    total -= 1;
  return total;
}

int machine_run(const char *input, size_t n) {
  int state = 1;
  int total = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    int c = input[i];
    state = step(state, c);
    total = weigh(state, c, total);
    if (state > 40)
      printf("high %d\n", state);
  }
  printf("state %d total %d after %d steps\n", state, total, steps);
  return total > 5 ? 1 : 0;
}
