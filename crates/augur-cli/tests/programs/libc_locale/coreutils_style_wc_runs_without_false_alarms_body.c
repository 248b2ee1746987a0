
static struct option const longopts[] = {
  {"bytes", no_argument, NULL, 'c'}, {"lines", no_argument, NULL, 'l'},
  {"words", no_argument, NULL, 'w'}, {NULL, 0, NULL, 0}};
int main(int argc, char **argv) {
  setlocale(LC_ALL, "");
  bindtextdomain("coreutils", "/usr/share/locale");
  textdomain("coreutils");
  atexit(close_stdout);
  int c, pl = 0, pw = 0, pc = 0;
  while ((c = getopt_long(argc, argv, "clw", longopts, NULL)) != -1) {
    switch (c) {
    case 'c': pc = 1; break;
    case 'l': pl = 1; break;
    case 'w': pw = 1; break;
    default: error(EXIT_FAILURE, 0, _("Try '%s --help' for more information."), program_invocation_short_name);
    }
  }
  if (!pl && !pw && !pc) pl = pw = pc = 1;
  struct stat st;
  if (fstat(STDIN_FILENO, &st) != 0) error(EXIT_FAILURE, errno, "-");
  posix_fadvise(STDIN_FILENO, 0, 0, POSIX_FADV_SEQUENTIAL);
  char buf[16];
  long lines = 0, words = 0, bytes = 0;
  int in_word = 0;
  ssize_t n;
  mbstate_t state = {0};
  while ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0) {
    bytes += n;
    for (ssize_t i = 0; i < n;) {
      wchar_t wc;
      size_t len = mbrtowc(&wc, buf + i, n - i, &state);
      if (len == (size_t)-1 || len == (size_t)-2) { memset(&state, 0, sizeof state); i++; continue; }
      if (len == 0) len = 1;
      if (wc == L'\n') lines++;
      if (iswspace(wc)) in_word = 0;
      else if (iswprint(wc) && !in_word) { in_word = 1; words++; }
      i += len;
    }
  }
  if (n < 0) error(EXIT_FAILURE, errno, _("read error"));
  if (pl) printf("%ld ", lines);
  if (pw) printf("%ld ", words);
  if (pc) printf("%ld", bytes);
  putchar('\n');
  return EXIT_SUCCESS;
}
