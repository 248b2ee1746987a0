#include <augur.h>
/* A finite automaton walked through pointers, as a regex matcher walks its states: the
   state after each input byte is read from the current state's table of successors. */
struct state { struct state *on[4]; long accepting; };
static struct state S[5];

int main(void) {
  unsigned char in[6];
  augur_make_symbolic(in, sizeof in, "in");
  for (int i = 0; i < 5; i++) {
    for (int c = 0; c < 4; c++) S[i].on[c] = &S[(i * 3 + c + 1) % 5];
    S[i].accepting = i == 2 || i == 4;
  }
  struct state *p = &S[0];
  int accepted = 0;
  for (int k = 0; k < 6; k++) {
    p = p->on[in[k] & 3];
    if (p->accepting) /* ACCEPT */
      accepted++;
  }
  return accepted;
}
