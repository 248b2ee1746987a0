
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  struct stat st;
  int fd = open("input.txt", O_RDONLY);
  if (fd < 0) { printf("no file %d\n", errno == ENOENT); return 2; }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return 3;
  if (posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL) != 0) return 4;
  /* As in augur replay: no stdin is /dev/null, stdout a regular file. */
  if (fstat(STDIN_FILENO, &st) != 0 || !S_ISCHR(st.st_mode)) return 5;
  if (fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) return 13;
  if (isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, 0) != -1 || errno != ENOTTY)
    return 6;
  if (lseek(STDIN_FILENO, 5, SEEK_SET) != 0) return 7;
  if (write(fd, "x", 1) != -1 || errno != EBADF) return 8;
  if ((fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY) return 9;
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  if (copy < 10 || fcntl(copy, F_GETFD) != FD_CLOEXEC) return 10;
  struct stat st2;
  fstat(fd, &st);
  stat("input.txt", &st2);
  if (st.st_ino != st2.st_ino || st.st_dev != st2.st_dev) return 11;
  char buf[8];
  off_t end = lseek(fd, -2, SEEK_END);
  ssize_t n = read(copy, buf, sizeof buf); /* dup'd descriptors share the offset */
  if (n != 2 || lseek(fd, 0, SEEK_CUR) != 5) return 14;
  printf("size %ld end %ld\n", (long)st.st_size, (long)end);
  close(copy);
  if (close(copy) != -1 || errno != EBADF) return 12;
  return st.st_size > 3 ? 0 : 1;
}
