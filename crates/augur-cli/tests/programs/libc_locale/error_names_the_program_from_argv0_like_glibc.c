
#define _GNU_SOURCE
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  printf("%s|%s\n", program_invocation_name, program_invocation_short_name);
  if (argc > 1 && strcmp(argv[1], "-q") == 0)
    error_at_line(0, 0, "in.txt", 7, "quiet %s", argv[1]);
  error(4, ENOENT, "%s", "missing");
  return 0;
}
