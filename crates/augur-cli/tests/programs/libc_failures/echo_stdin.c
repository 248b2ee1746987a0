
int main(void) {
  struct stat st;
  int c;
  atexit(close_stdout);
  if (fstat(0, &st) != 0) error(5, errno, "fstat");
  while ((c = getchar()) != EOF)
    putchar(c);
  if (ferror(stdin)) error(3, errno, "read error");
  puts("");
  return 0;
}
