/* Every call on the empty path fails with ENOENT, as on Linux (it does not name the current
 * directory): `rm -f ''` natively exits 0 (ENOENT is ignored), and stat("") succeeding made
 * it "Is a directory". Prints the calls that do not fail with ENOENT. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void check(const char *call, int r) {
  if (r != -1 || errno != ENOENT)
    printf("%s: %d, errno %d\n", call, r, errno);
  errno = 0;
}

int main(void) {
  struct stat s;
  char buf[8];
  check("stat", stat("", &s));
  check("lstat", lstat("", &s));
  check("fstatat", fstatat(AT_FDCWD, "", &s, AT_SYMLINK_NOFOLLOW));
  check("access", access("", F_OK));
  check("unlink", unlink(""));
  check("unlinkat", unlinkat(AT_FDCWD, "", 0));
  check("rmdir", rmdir(""));
  check("chmod", chmod("", 0644));
  check("open", open("", O_RDONLY));
  check("creat", open("", O_WRONLY | O_CREAT, 0644));
  check("chdir", chdir(""));
  check("truncate", truncate("", 0));
  check("rename", rename("", "x"));
  check("mkdir", mkdir("", 0755));
  check("readlink", (int)readlink("", buf, sizeof buf));
  puts("done");
  return 0;
}
