/* No other process: fork, exec, system, sockets fail as in augur's sandbox, and
 * the native replay's calls fail alike (the empty program name is not found, as
 * `env ''` shows); kill reaches only the process itself; the user, not root, may
 * not chroot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  (void)argc;
  pid_t p = fork();
  printf("fork %d errno %d\n", (int)p, errno);
  printf("execvp %d errno %d\n", execvp("ls", argv), errno);
  printf("execvp empty %d errno %d\n", execvp("", argv), errno);
  printf("execve empty %d errno %d\n", execve("", argv, NULL), errno);
  printf("system %d %d\n", system(NULL), system("true"));
  printf("popen %s\n", popen("true", "r") ? "opened" : "failed");
  printf("socket %d errno %d\n", socket(AF_INET, SOCK_STREAM, 0), errno);
  printf("wait %d errno %d\n", (int)wait(NULL), errno);
  printf("kill other %d errno %d\n", kill(1, 0), errno);
  printf("kill self %d\n", kill(getpid(), 0));
  printf("chroot %d errno %d\n", chroot("."), errno);
  printf("chroot missing %d errno %d\n", chroot("nope"), errno);
  return 0;
}
