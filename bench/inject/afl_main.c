/* afl_main.c: lets AFL++ fuzz a program through standard input (bench/inject.sh,
 * bench/inject-coreutils.sh). The program is compiled with -Dmain=afl_program_main. Its
 * symbolic objects (augur_make_symbolic) are filled from the bytes of standard input, in
 * order; with AFL_ARGV=N defined, the first byte gives the argument count (modulo N+1, as
 * `--sym-args 0 N LEN` varies it), the next AFL_ARG_LEN bytes per argument become its
 * NUL-terminated text, and the rest is the program's standard input. The bytes are taken
 * with read(2), unbuffered, so that a program reading its standard input with read(2)
 * (not through stdio) sees exactly the rest. */
#undef main /* renamed in the program only */
#include <stddef.h>
#include <string.h>
#include <unistd.h>

int afl_program_main(int argc, char **argv);

/* Reads up to n bytes of standard input into buf; returns how many it got. */
static size_t read_stdin(void *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(0, (char *)buf + got, n - got);
    if (r <= 0)
      break;
    got += (size_t)r;
  }
  return got;
}

void augur_make_symbolic(void *addr, size_t size, const char *name) {
  (void)name;
  memset(addr, 0, size);
  (void)read_stdin(addr, size);
}

int main(int argc, char **argv) {
#ifdef AFL_ARGV
  static char args[AFL_ARGV][AFL_ARG_LEN + 1];
  char *av[AFL_ARGV + 2];
  unsigned char count = 0;
  int n = read_stdin(&count, 1) == 1 ? count % (AFL_ARGV + 1) : 0;
  av[0] = argv[0];
  for (int i = 0; i < n; i++) {
    size_t got = read_stdin(args[i], AFL_ARG_LEN);
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
