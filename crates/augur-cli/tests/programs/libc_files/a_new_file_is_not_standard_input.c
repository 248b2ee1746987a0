/* split's check that an output file is not its input: a file made while the program runs
 * is never the same file as standard input (nor as another file), by device and inode. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int same(const struct stat *a, const struct stat *b) {
  return a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

int main(void) {
  struct stat in, out1, out2, again;
  fstat(0, &in);
  int a = open("xaa", O_WRONLY | O_CREAT, 0666);
  int b = open("xab", O_WRONLY | O_CREAT, 0666);
  fstat(a, &out1);
  fstat(b, &out2);
  stat("xaa", &again);
  printf("stdin is xaa %d, xaa is xab %d, xaa is xaa %d\n", same(&in, &out1), same(&out1, &out2),
         same(&out1, &again));
  return 0;
}
