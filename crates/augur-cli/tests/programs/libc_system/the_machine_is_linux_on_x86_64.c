/* uname (musl's, over syscall.c): the system and machine names are the native ones. */
#include <stdio.h>
#include <sys/utsname.h>

int main(void) {
  struct utsname u;
  printf("%d %s %s\n", uname(&u), u.sysname, u.machine);
  return 0;
}
