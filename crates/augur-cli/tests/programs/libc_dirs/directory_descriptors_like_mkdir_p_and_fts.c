/* Directory descriptors as `mkdir -p`, `rm -r` and gnulib's fts use them: open a
 * directory, make and stat names relative to it, step into it with fchdir and back,
 * list it through fdopendir, and remove it with unlinkat. The first byte of file A
 * picks how deep the tree goes. */
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

/* The names in directory descriptor fd, sorted, on one line. */
static void list(int fd) {
  char *names[8];
  int n = 0;
  DIR *d = fdopendir(fd);
  if (!d) { printf("fdopendir: %d\n", errno); return; }
  struct dirent *e;
  while ((e = readdir(d)) != NULL && n < 8)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  qsort(names, n, sizeof names[0], by_name);
  printf("lists");
  for (int i = 0; i < n; i++) printf(" %s", names[i]);
  printf(" (dirfd %s)\n", dirfd(d) == fd ? "same" : "other");
  closedir(d);
}

int main(void) {
  char c = 0, cwd[256];
  struct stat st;
  int a = open("A", O_RDONLY);
  if (a < 0 || read(a, &c, 1) != 1) return 9;
  close(a);
  int dot = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  printf("dot %s\n", dot >= 0 && fstat(dot, &st) == 0 && S_ISDIR(st.st_mode) ? "dir" : "?");
  if (mkdirat(dot, "top", 0755) != 0) return 8;
  int top = openat(dot, "top", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (top < 0) return 7;
  char buf[4];
  printf("read %s\n", read(top, buf, 1) < 0 && errno == EISDIR ? "EISDIR" : "?");
  printf("write-open %s\n", open("top", O_WRONLY) < 0 && errno == EISDIR ? "EISDIR" : "?");
  printf("file as dir %s\n", open("A", O_RDONLY | O_DIRECTORY) < 0 && errno == ENOTDIR ? "ENOTDIR" : "?");
  printf("file as dirfd %s\n", openat(0, "x", O_RDONLY) < 0 && errno == ENOTDIR ? "ENOTDIR" : "?");
  int f = openat(top, "f", O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (f < 0 || write(f, "hey", 3) != 3) return 6;
  close(f);
  if (c == 'd' && mkdirat(top, "sub", 0700) != 0) return 5;
  if (fstatat(top, "f", &st, 0) != 0) return 4;
  printf("f %lld\n", (long long)st.st_size);
  if (fchdir(top) != 0 || !getcwd(cwd, sizeof cwd)) return 3;
  printf("in %s\n", strrchr(cwd, '/') + 1);
  printf("f here %s\n", access("f", R_OK) == 0 ? "yes" : "no");
  if (fchdir(dot) != 0) return 2;
  list(dup(top));
  if (unlinkat(top, "f", 0) != 0) return 1;
  if (c == 'd' && unlinkat(top, "sub", AT_REMOVEDIR) != 0) return 1;
  close(top);
  printf("rmdir %s\n", unlinkat(dot, "top", AT_REMOVEDIR) == 0 ? "ok" : "failed");
  return 0;
}
