
int main(void) {
  char line[8];
  int n = 0;
  FILE *f = fopen("A", "r");
  if (!f) error(2, errno, "A");
  while (fgets(line, sizeof line, f)) n++;
  if (ferror(f)) error(3, errno, "A: read error");
  if (fclose(f) != 0) error(4, errno, "A: close");
  printf("%d\n", n);
  if (fclose(stdout) != 0) error(1, errno, "write error");
  return 0;
}
