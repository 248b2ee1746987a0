
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static int list(const char *dir) {
  char *names[16];
  int n = 0;
  long total = 0;
  DIR *d = opendir(dir);
  if (!d) { printf("%s: %s\n", dir, errno == ENOTDIR ? "not a directory" : "missing"); return 1; }
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof names[0], by_name);
  for (int i = 0; i < n; i++) {
    struct statx sx;
    if (statx(AT_FDCWD, names[i], AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) != 0) return 9;
    printf("%s %s %llu\n", names[i], S_ISDIR(sx.stx_mode) ? "dir" : "file",
           (unsigned long long)sx.stx_size);
    total += (long)sx.stx_size;
  }
  printf("total %ld\n", total);
  return 0;
}
int main(void) {
  struct statx sx;
  char c;
  int fd = open("A", O_RDONLY);
  if (fd < 0 || read(fd, &c, 1) != 1) return 8;
  close(fd);
  if (c == 'x' && unlink("B") != 0) return 7;
  if (statx(AT_FDCWD, ".", 0, STATX_BASIC_STATS, &sx) != 0 || !S_ISDIR(sx.stx_mode)) return 6;
  if (euidaccess(".", R_OK) != 0 || euidaccess("A", W_OK) != 0) return 5;
  printf(". %s %u\n", (sx.stx_mode & 0777) == 0755 ? "0755" : "other", sx.stx_nlink);
  list("A");
  list("nope");
  return list(".");
}
