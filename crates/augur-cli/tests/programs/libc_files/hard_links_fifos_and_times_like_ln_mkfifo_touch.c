/* What ln, mkfifo, mknod and touch do, each result printed as Linux gives it: a hard link
 * is another name of the same file (a write through one name is read through the other,
 * both have one inode number, and the file outlives the first name's unlink); mkfifo and
 * mknod make FIFOs and sockets that stat and readdir report as such; a user who is not
 * root may not make a device (whether a new one may be made depends on the user, so only
 * an existing name is tried); utimensat checks its times and its file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *call, int r) {
  printf("%s %d %d\n", call, r, r < 0 ? errno : 0);
  errno = 0;
}

int main(void) {
  struct stat a, b;
  char buf[8] = {0};
  int fd;
  umask(022);
  mkdir("d", 0755);
  fd = open("d/a", O_WRONLY | O_CREAT, 0600);
  close(fd);
  show("link", link("d/a", "b"));
  show("link exists", link("d/a", "b"));
  show("link dir", link("d", "c"));
  show("link missing", link("nope", "c"));
  show("link no parent", link("d/a", "x/y"));
  show("linkat", linkat(AT_FDCWD, "b", AT_FDCWD, "d/c", AT_SYMLINK_FOLLOW));
  show("linkat flags", linkat(AT_FDCWD, "b", AT_FDCWD, "e", 0x8));
  fd = open("b", O_WRONLY);
  show("write", (int)write(fd, "hey", 3));
  close(fd);
  stat("d/a", &a);
  stat("b", &b);
  printf("same %d size %ld mode %o\n", a.st_ino == b.st_ino, (long)a.st_size,
         (unsigned)(a.st_mode & 07777));
  show("chmod", chmod("b", 0640));
  stat("d/a", &a);
  printf("mode %o\n", (unsigned)(a.st_mode & 07777));
  show("rename same file", rename("b", "d/a"));
  show("unlink", unlink("d/a"));
  fd = open("d/c", O_RDONLY);
  show("read", (int)read(fd, buf, sizeof buf - 1));
  printf("%s\n", buf);
  close(fd);

  show("mkfifo", mkfifo("p", 0666));
  show("mkfifo exists", mkfifo("p", 0666));
  show("mknod socket", mknod("s", S_IFSOCK | 0600, 0));
  show("mknod file", mknod("f", S_IFREG | 0600, 0));
  show("mknod device exists", mknod("p", S_IFCHR | 0600, 0x103));
  show("mknod dir", mknod("q", S_IFDIR | 0700, 0));
  stat("p", &a);
  printf("fifo %d %o\n", S_ISFIFO(a.st_mode), (unsigned)(a.st_mode & 07777));
  stat("s", &a);
  printf("socket %d\n", S_ISSOCK(a.st_mode));
  stat("f", &a);
  printf("file %d %o\n", S_ISREG(a.st_mode), (unsigned)(a.st_mode & 07777));
  show("open socket", open("s", O_RDONLY));
  show("open fifo for writing", open("p", O_WRONLY | O_NONBLOCK));
  {
    /* The listing's order is the file system's: the types are printed in a fixed one. */
    DIR *dir = opendir(".");
    struct dirent *e;
    int types[3] = {-1, -1, -1};
    while ((e = readdir(dir)) != NULL) {
      const char *at = strchr("fps", e->d_name[0]);
      if (e->d_name[1] == '\0' && at != NULL)
        types[at - "fps"] = e->d_type == DT_FIFO ? 1 : e->d_type == DT_SOCK ? 2 : 0;
    }
    closedir(dir);
    printf("entries %d %d %d\n", types[0], types[1], types[2]);
  }

  struct timespec now[2] = {{0, UTIME_NOW}, {5, 0}};
  struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
  struct timespec omit[2] = {{0, UTIME_OMIT}, {0, UTIME_OMIT}};
  show("utimensat", utimensat(AT_FDCWD, "f", now, 0));
  show("utimensat missing", utimensat(AT_FDCWD, "nope", now, 0));
  show("utimensat omit missing", utimensat(AT_FDCWD, "nope", omit, 0));
  show("utimensat bad", utimensat(AT_FDCWD, "f", bad, 0));
  show("utimensat dir", utimensat(AT_FDCWD, "d", NULL, 0));
  show("utimensat not dir", utimensat(AT_FDCWD, "f/x", NULL, 0));
  fd = open("f", O_RDONLY);
  show("futimens", futimens(fd, now));
  close(fd);
  show("futimens closed", futimens(fd, now));
  return 0;
}
