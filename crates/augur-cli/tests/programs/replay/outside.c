#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

/* Looks outside its working directory. In the analysis `/` cannot be listed or written,
   `/tmp` is empty, the working directory is /augur/work, and there is neither /proc
   (no mount table, no uptime) nor /sys (no CPU list) nor /etc: so it must be natively, whoever runs augur replay and whatever the
   machine's `/` and `/tmp` hold. */
int main(void) {
  char cwd[64];
  int fd = open("/augur-replay-probe", O_WRONLY | O_CREAT | O_EXCL, 0644);
  printf("create in /: %s\n", fd < 0 ? strerror(errno) : "created");
  printf("rmdir /tmp: %s\n", rmdir("/tmp") < 0 ? strerror(errno) : "removed");
  DIR *d = opendir("/");
  printf("list /: %s\n", d ? "listed" : strerror(errno));
  int entries = 0;
  d = opendir("/tmp");
  while (d && readdir(d))
    entries++;
  printf("entries of /tmp: %d\n", entries);
  FILE *f = fopen("/tmp/mine", "w");
  printf("create in /tmp: %s\n", f ? "created" : strerror(errno));
  printf("cwd: %s\n", getcwd(cwd, sizeof cwd));
  printf("times of stdout: %s\n", futimens(1, NULL) == 0 ? "set" : strerror(errno));
  printf("mount table: %s\n", fopen("/proc/self/mountinfo", "r") ? "read" : strerror(errno));
  printf("setmntent: %s\n", setmntent("/proc/mounts", "r") ? "read" : strerror(errno));
  printf("/proc/uptime: %s\n", fopen("/proc/uptime", "r") ? "read" : strerror(errno));
  printf("/etc/passwd: %s\n", fopen("/etc/passwd", "r") ? "read" : strerror(errno));
  printf("open /proc: %s\n", open("/proc/self/status", O_RDONLY) >= 0 ? "read" : strerror(errno));
  printf("openat /proc: %s\n",
         openat(AT_FDCWD, "/proc/self/stat", O_RDONLY) >= 0 ? "read" : strerror(errno));
  printf("list /proc: %s\n", opendir("/proc") ? "listed" : strerror(errno));
  printf("list /sys: %s\n",
         opendir("/sys/devices/system/cpu") ? "listed" : strerror(errno));
  printf("open /sys: %s\n",
         open("/sys/devices/system/cpu/online", O_RDONLY) >= 0 ? "read" : strerror(errno));
  return fd < 0 ? 1 : 0;
}
