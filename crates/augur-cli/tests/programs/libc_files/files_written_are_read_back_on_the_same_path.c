
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  char in[3];
  if (fread(in, 1, 3, stdin) != 3) return 1;
  FILE *f = fopen("out.tmp", "w");
  if (!f) return 2;
  fwrite(in, 1, 3, f);
  fputs("!\n", f);
  fclose(f);
  int fd = open("out.tmp", O_WRONLY | O_APPEND);
  write(fd, "tail", 4);
  close(fd);
  struct stat st;
  if (stat("out.tmp", &st) != 0 || st.st_size != 9) return 3;
  f = fopen("out.tmp", "r+");
  char line[16] = {0};
  if (!fgets(line, sizeof line, f)) return 4;
  if (fseeko(f, 0, SEEK_SET) != 0) return 5;
  fputc('>', f);
  if (ftello(f) != 1) return 6;
  rewind(f);
  char all[16] = {0};
  size_t n = fread(all, 1, sizeof all - 1, f);
  fclose(f);
  printf("%zu [%s]\n", n, all);
  if (open("out.tmp", O_WRONLY | O_CREAT | O_EXCL, 0644) != -1) return 7;
  if (memcmp(line, "abc", 3) == 0) return 42; /* READBACK */
  return 0;
}
