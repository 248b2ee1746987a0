/* A password checker with a bug: augur finds every path, including the crash. */
#include <augur.h>

static int check(const char *pw) {
  char buf[8];
  int score = 0;
  if (pw[0] == 'a') score++;
  if (pw[1] == 'u') score++;
  if (pw[2] == 'g') score++;
  if (score == 3) {
    /* Bug: trusts the fourth byte as a length. */
    int n = pw[3];
    if (n > 0)
      buf[n] = 1; /* out of bounds when n >= 8 */
    return 1;
  }
  return 0;
}

int main(void) {
  char pw[5];
  augur_make_symbolic(pw, sizeof pw, "pw");
  pw[4] = 0;
  return check(pw);
}
