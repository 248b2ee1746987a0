/* Two crashes that are aborts, each three frames deep: `abort()` when a command names
 * itself, a failed `assert` when a count goes past its field. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

void run_command(const char *s) {
  if (s[0] == '!' && s[1] && s[1] == s[2])
    abort(); /* a command that runs itself */
}

void count_fields(const char *s) {
  int fields = 1;
  for (int i = 0; s[i]; i++)
    fields += s[i] == ',';
  assert(fields < 4);
}

void dispatch(const char *s) {
  if (s[0] == '!')
    run_command(s);
  else
    count_fields(s);
}

int main(int argc, char **argv) {
  if (argc > 1)
    dispatch(argv[1]);
  return 0;
}
