
int main(void) {
  struct stat st;
  char buf[16];
  long n;
  int fd;
  atexit(close_stdout);
  fd = open("A", O_RDONLY);
  if (fd < 0) error(2, errno, "A");
  if (fstat(fd, &st) != 0) error(3, errno, "A: fstat");
  while ((n = read(fd, buf, sizeof buf)) > 0)
    fwrite(buf, 1, n, stdout);
  if (n < 0) error(5, errno, "A: read error");
  if (close(fd) != 0) error(6, errno, "A: close");
  return 0;
}
