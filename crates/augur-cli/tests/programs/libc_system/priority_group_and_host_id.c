#define _GNU_SOURCE
/* What nice, timeout, hostid, sync, pkill and hostname ask of the system: the nice value
 * (raised, as any user may), a process group and session of its own (which setsid cannot
 * leave) and the groups of a user (id, groups), the host id,
 * glibc's canonicalize_file_name, sync (which cannot fail), and renaming the host (which
 * only root may). */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
  errno = 0;
  printf("priority %d\n", getpriority(PRIO_PROCESS, 0));
  printf("nice %d\n", nice(5));
  printf("priority %d\n", getpriority(PRIO_PROCESS, 0));
  errno = 0;
  int other = getpriority(PRIO_PROCESS, 77777);
  printf("other %d errno %d\n", other, errno);
  printf("setpgid %d\n", setpgid(0, 0));
  errno = 0;
  int foreign = setpgid(0, 77777);
  printf("group own %d, foreign %d errno %d\n", getpgrp() == getpid() && getpgid(0) == getpid(),
         foreign, errno);
  errno = 0;
  int none = getsid(77777);
  printf("session %d, other %d errno %d\n", getsid(0) > 0, none, errno);
  errno = 0;
  int leader = setsid();
  printf("setsid %d errno %d\n", leader, errno);
  gid_t list[4];
  int n = 4, r = getgrouplist("root", 0, list, &n);
  printf("groups of root %d: %d\n", r, (int)list[0]);
  n = 0;
  r = getgrouplist("user", 1000, list, &n);
  printf("groups of user in none %d, %d\n", r, n);
  errno = 0;
  int renamed = sethostname("x", 1);
  printf("sethostname %d errno %d\n", renamed, errno);
  errno = 0;
  renamed = setdomainname("x", 1);
  printf("setdomainname %d errno %d\n", renamed, errno);
  printf("hostid %08lx\n", gethostid() & 0xffffffffL);
  char *name = canonicalize_file_name(".");
  printf("canonical %s\n", name ? name : "(none)");
  free(name);
  sync();
  puts("synced");
  return 0;
}
