#include <klee/klee.h>
#include <stdio.h>

/* Reads local variables before writing them. In the analysis every execution of an
   alloca gives a fresh zero-filled object; natively the frame holds what the call before
   left there (here addresses, which differ from run to run), unless the replay build
   zeroes it as the analysis does. */

/* Leaves addresses in its frame. */
static void scribble(void) {
  char *volatile slots[32];
  for (int i = 0; i < 32; i++)
    slots[i] = (char *)&slots[i];
}

/* Whether any of its fixed or variable-length locals is not zero. */
static int unwritten(int n) {
  long words[16];
  char vla[n];
  long sum = 0;
  for (int i = 0; i < 16; i++)
    sum |= words[i];
  for (int i = 0; i < n; i++)
    sum |= vla[i];
  return sum != 0;
}

int main(void) {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  if (n < 1 || n > 64)
    return 1;
  scribble();
  printf("%d\n", unwritten(n));
  scribble();
  printf("%d\n", unwritten(n));
  /* One object for the whole loop, as the alloca is: written once, kept. */
  for (int i = 0; i < 2; i++) {
    int kept;
    if (i == 0)
      kept = 7;
    printf("%d\n", kept);
  }
  return 0;
}
