/* A control: the stack alone suffices (no hard function on the way). */
#include <string.h>

char name[8];

void copy(const char *s, int n) { memcpy(name, s, n); }

void set_name(const char *s) {
  int n = (int)strlen(s);
  if (s[0] == 'A' && n > 3)
    copy(s, n + 5);
}

int main(int argc, char **argv) {
  if (argc > 1)
    set_name(argv[1]);
  return 0;
}
