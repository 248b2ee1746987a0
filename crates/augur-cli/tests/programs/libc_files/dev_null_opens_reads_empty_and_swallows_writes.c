/* gnulib's freopen_safer (shuf -o, sort -o) opens /dev/null to keep descriptors 0 to 2
 * taken; others write to it or stat it. The model's world has it as Linux does: a
 * character device whose reads find the end and whose writes are dropped, also through
 * a symbolic link to it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  close(0);
  int in = open("/dev/null", O_RDONLY);
  char c;
  printf("fd %d read %d\n", in, (int)read(in, &c, 1));
  int out = open("/dev/null", O_WRONLY | O_TRUNC);
  printf("write %d lseek %d\n", (int)write(out, "abc", 3), (int)lseek(out, 5, SEEK_SET));
  struct stat by_name, by_fd;
  int s = stat("/dev/null", &by_name), f = fstat(out, &by_fd);
  printf("stat %d chr %d fstat %d chr %d\n", s, S_ISCHR(by_name.st_mode), f,
         S_ISCHR(by_fd.st_mode));
  errno = 0;
  int excl = open("/dev/null", O_WRONLY | O_CREAT | O_EXCL, 0600);
  printf("excl %d errno %d\n", excl, errno);
  FILE *null = fopen("/dev/null", "w");
  printf("fopen %d fputs %d\n", null != NULL, fputs("dropped", null) >= 0);
  /* ln -s /dev/null n: the link leads to the device */
  symlink("/dev/null", "n");
  int linked = open("n", O_WRONLY | O_TRUNC);
  struct stat via_link, the_link;
  printf("via link write %d stat chr %d lstat link %d access %d\n", (int)write(linked, "x", 1),
         stat("n", &via_link) == 0 && S_ISCHR(via_link.st_mode),
         lstat("n", &the_link) == 0 && S_ISLNK(the_link.st_mode), access("n", W_OK));
  return 0;
}
