/* A directory lists ".", "..", then its entries in byte order of their names, whatever
 * order they were made in and whatever the native file system's order (ls -f prints it
 * unsorted); rewinddir lists what is there now. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void list(DIR *d) {
  struct dirent *e;
  while ((e = readdir(d)) != NULL) printf("%s ", e->d_name);
  printf("\n");
}

int main(void) {
  const char *names[] = {"zeta", "Mid", "alpha", "b2", "b10"};
  for (int i = 0; i < 5; i++) close(creat(names[i], 0644));
  if (mkdir("dir", 0755) != 0) return 2;
  DIR *d = opendir(".");
  if (!d) return 1;
  list(d);
  close(creat("again", 0644));
  rewinddir(d);
  list(d);
  return closedir(d);
}
