/* No other process: fork, exec, system, sockets fail as in augur's sandbox, and
 * the native replay's calls fail alike: a program is looked up before it is refused
 * (the empty name, or one the world does not have, is not found, as `env ''` shows;
 * the world has no /usr/bin, natively either); kill reaches only the process itself;
 * the user, not root, may not chroot. pclose closes any stream, as glibc's (popen never gave one), and the
 * control-message macros walk a buffer no socket filled. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

/* The second header of a control buffer holding `first`'s length and room for `room`
 * bytes in all, as CMSG_NXTHDR finds it: "next" or "none". */
static const char *second_header(size_t first, size_t room) {
  union {
    struct cmsghdr align;
    unsigned char bytes[128];
  } control;
  struct msghdr m;
  memset(&control, 0, sizeof control);
  memset(&m, 0, sizeof m);
  m.msg_control = control.bytes;
  m.msg_controllen = room;
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_len = first;
  struct cmsghdr *next = CMSG_NXTHDR(&m, c);
  return next == NULL ? "none" : next == (struct cmsghdr *)(control.bytes + CMSG_ALIGN(first)) ? "next" : "elsewhere";
}

int main(int argc, char **argv) {
  (void)argc;
  pid_t p = fork();
  printf("fork %d errno %d\n", (int)p, errno);
  printf("execvp %d errno %d\n", execvp("ls", argv), errno);
  printf("execvp empty %d errno %d\n", execvp("", argv), errno);
  printf("execve empty %d errno %d\n", execve("", argv, NULL), errno);
  struct stat programs;
  printf("stat /usr/bin %d errno %d\n", stat("/usr/bin", &programs), errno);
  printf("execv /usr/bin/ls %d errno %d\n", execv("/usr/bin/ls", argv), errno);
  fclose(fopen("prog", "w"));
  printf("execv ./prog %d errno %d\n", execv("./prog", argv), errno);
  printf("execv prog/x %d errno %d\n", execv("prog/x", argv), errno);
  setenv("PATH", "/nowhere:.", 1);
  printf("execvp prog in PATH %d errno %d\n", execvp("prog", argv), errno);
  printf("execlp ls in PATH %d errno %d\n", execlp("ls", "ls", (char *)NULL), errno);
  printf("system %d %d\n", system(NULL), system("true"));
  printf("popen %s\n", popen("true", "r") ? "opened" : "failed");
  printf("socket %d errno %d\n", socket(AF_INET, SOCK_STREAM, 0), errno);
  printf("wait %d errno %d\n", (int)wait(NULL), errno);
  printf("kill other %d errno %d\n", kill(1, 0), errno);
  printf("kill self %d\n", kill(getpid(), 0));
  printf("chroot %d errno %d\n", chroot("."), errno);
  printf("chroot missing %d errno %d\n", chroot("nope"), errno);
  printf("pclose %d\n", pclose(fopen("closed", "w")));
  printf("cmsg %s %s %s %s\n", second_header(CMSG_LEN(4), 128), second_header(CMSG_LEN(4), CMSG_SPACE(4)),
         second_header(CMSG_LEN(4), CMSG_SPACE(4) + CMSG_LEN(0)), second_header(4, 128));
  return 0;
}
