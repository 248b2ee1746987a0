/* `ls -ld /` and `stat /`: the analysis answers `/` as the working directory's parent
 * `/augur` (passed through, never listed), and the native run answers its own root so too,
 * whatever the directory its root is made of (a mount point per directory of the machine,
 * the machine's owner and times). It can be opened with O_PATH only (mode 0111). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *what, int r, const struct stat *st) {
  if (r != 0) {
    perror(what);
    return;
  }
  printf("%s: %lx %lu %lu %o %u %u %ld %ld\n", what, (unsigned long)st->st_dev,
         (unsigned long)st->st_ino, (unsigned long)st->st_nlink, (unsigned)st->st_mode,
         (unsigned)st->st_uid, (unsigned)st->st_gid, (long)st->st_mtime, (long)st->st_size);
}

int main(void) {
  struct stat st;
  show("/", stat("/", &st), &st);
  show("lstat /", lstat("/", &st), &st);
  show("/augur", stat("/augur", &st), &st);
  show("../..", stat("../..", &st), &st);
  show("at /", fstatat(AT_FDCWD, "/", &st, 0), &st);
  int fd = open("/", O_RDONLY | O_DIRECTORY);
  printf("open / %d\n", fd);
  fd = open("/", O_PATH);
  show("fstat / (O_PATH)", fd < 0 ? -1 : fstat(fd, &st), &st);
  struct statx x;
  if (statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &x) == 0)
    printf("statx /: %u:%u %llu %u %o %u\n", x.stx_dev_major, x.stx_dev_minor,
           (unsigned long long)x.stx_ino, x.stx_nlink, (unsigned)x.stx_mode, x.stx_uid);
  return 0;
}
