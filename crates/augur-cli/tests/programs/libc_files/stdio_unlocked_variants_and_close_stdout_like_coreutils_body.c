
int main(void) {
  atexit(close_stdout);
  int c, lines = 0, bytes = 0;
  if (__freading(stdin) == 0 && __fwriting(stdin)) return 7;
  while ((c = getc_unlocked(stdin)) != EOF) {
    bytes++;
    if (c == '\n') lines++;
    else if (c == 'u') { ungetc('U', stdin); putchar_unlocked(getc_unlocked(stdin)); }
  }
  if (ferror_unlocked(stdin) || !feof_unlocked(stdin)) return 8;
  clearerr_unlocked(stdin);
  fputs_unlocked("lines ", stdout);
  fwrite_unlocked(lines ? "some\n" : "none\n", 1, 5, stdout);
  if (fflush_unlocked(stdout) != 0 || __fpending(stdout) != 0) return 9;
  printf("%d %d\n", lines, bytes);
  exit(0);
}
