#include <stdio.h>

int transitions = 0;

int step(int state, int c) {
  int next = state;
  if (c == 'a')
    next = state + 1;
  else if (c == 'b')
    next = state * 2;
  else if (c > 'x')
    next = 0;
  transitions++;
  return next;
}

int main(void) {
  char buf[4];
  int n = fread(buf, 1, sizeof buf, stdin);
  int state = 1;
  int i;
  for (i = 0; i < n; i++) {
    int c = buf[i];
    state = step(state, c);
    int level = state % 7;
    if (level > 3)
      printf("high %d\n", level);
  }
  printf("final %d after %d\n", state, transitions);
  return 0;
}
