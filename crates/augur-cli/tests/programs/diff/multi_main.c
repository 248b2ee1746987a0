#include <augur.h>
#include <stdio.h>
int parse(const char *s);
int main(void) {
  char s[3];
  augur_make_symbolic(s, sizeof s, "s");
  s[2] = 0;
  printf("%d\n", parse(s));
  return 0;
}
