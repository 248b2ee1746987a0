/* The process is the user "user" (uid and gid 1000), beside root, in the analysis and in
 * augur replay's native run alike, whoever runs the replay: its ids, its passwd and group
 * entries, and the owner of the files it makes (built for large files, as coreutils is:
 * stat64 and the rest). */
#define _FILE_OFFSET_BITS 64
#include <stdio.h>
#include <pwd.h>
#include <grp.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
int main(void) {
  struct stat st;
  struct passwd *pw = getpwuid(getuid());
  struct group *gr = getgrgid(getgid());
  gid_t g[4];
  int n = getgroups(4, g);
  int fd = open("made", O_WRONLY | O_CREAT, 0644);
  fstat(fd, &st);
  printf("%u %u %s %s %s %s %d %u owner %u %u\n", getuid(), geteuid(), pw ? pw->pw_name : "-", pw ? pw->pw_dir : "-", gr ? gr->gr_name : "-", gr && gr->gr_mem[0] ? gr->gr_mem[0] : "-", n, g[0], st.st_uid, st.st_gid);
  stat("made", &st);
  printf("stat owner %u %u; root %s\n", st.st_uid, st.st_gid, getpwnam("root") ? getpwnam("root")->pw_dir : "-");
  return 0;
}
