/* mkdir, chdir, getcwd, rename, rmdir, remove and a listing, each as Linux answers:
 * the native replay agrees line for line (its working directory shown as /augur/work). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of directory `path`, sorted (the native order is the file system's). */
static void list(const char *path) {
  char *names[16];
  int n = 0;
  struct dirent *e;
  DIR *d = opendir(path);
  if (!d) {
    printf("opendir %s: errno %d\n", path, errno);
    return;
  }
  while ((e = readdir(d)) != NULL && n < 16)
    names[n++] = strdup(e->d_name);
  closedir(d);
  qsort(names, n, sizeof names[0], by_name);
  printf("%s:", path);
  for (int i = 0; i < n; i++)
    printf(" %s", names[i]);
  printf("\n");
}

int main(void) {
  char buf[256];
  struct stat st;
  printf("mkdir %d\n", mkdir("d", 0755));
  printf("mkdir again %d errno %d\n", mkdir("d", 0755), errno);
  printf("mkdir deep %d errno %d\n", mkdir("x/y", 0755), errno);
  printf("mkdir sub %d\n", mkdir("d/sub", 0755));
  printf("chdir %d\n", chdir("d"));
  printf("cwd %s\n", getcwd(buf, sizeof buf));
  FILE *f = fopen("f.txt", "w");
  fputs("hello\n", f);
  fclose(f);
  list(".");
  printf("rmdir busy %d errno %d\n", rmdir("../d"), errno);
  printf("rename %d\n", rename("f.txt", "../g.txt"));
  printf("chdir up %d\n", chdir(".."));
  printf("cwd %s\n", getcwd(buf, sizeof buf));
  printf("stat g %d size %d dir %d\n", stat("g.txt", &st), (int)st.st_size,
         stat("d", &st) == 0 && S_ISDIR(st.st_mode));
  printf("rename dir %d\n", rename("d", "e"));
  list("e");
  printf("remove dir %d errno %d\n", remove("e"), errno);
  printf("rmdir sub %d\n", rmdir("e/sub"));
  printf("remove dir %d\n", remove("e"));
  printf("rmdir gone %d errno %d\n", rmdir("e"), errno);
  printf("chdir file %d errno %d\n", chdir("g.txt"), errno);
  printf("unlink dir %d\n", mkdir("e", 0700) == 0 && unlink("e") == -1);
  printf("abs %s\n", getcwd(buf, sizeof buf));
  strcat(buf, "/g.txt");
  printf("absolute stat %d\n", stat(buf, &st));
  return 0;
}
