/* afl_main.c: lets AFL++ fuzz the examples of bench/inject.sh through standard input.
 * The program is compiled with -Dmain=afl_program_main. Its symbolic objects
 * (augur_make_symbolic) are filled from the bytes of standard input, in order; with
 * AFL_ARGV=N defined, the first N*AFL_ARG_LEN bytes become N NUL-terminated arguments
 * (argument count: the first byte modulo N+1, as `--sym-args 0 N LEN` varies it), and
 * the rest is the program's standard input. */
#undef main /* renamed in the program only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int afl_program_main(int argc, char **argv);

void augur_make_symbolic(void *addr, size_t size, const char *name) {
  (void)name;
  memset(addr, 0, size);
  size_t got = fread(addr, 1, size, stdin);
  (void)got;
}

int main(int argc, char **argv) {
#ifdef AFL_ARGV
  static char args[AFL_ARGV][AFL_ARG_LEN + 1];
  char *av[AFL_ARGV + 2];
  int n = getchar();
  if (n == EOF)
    n = 0;
  n %= AFL_ARGV + 1;
  av[0] = argv[0];
  for (int i = 0; i < n; i++) {
    size_t got = fread(args[i], 1, AFL_ARG_LEN, stdin);
    args[i][got] = 0;
    av[i + 1] = args[i];
  }
  av[n + 1] = 0;
  (void)argc;
  return afl_program_main(n + 1, av);
#else
  return afl_program_main(argc, argv);
#endif
}
