/* A signal the process sends itself runs its handler, is ignored (SIG_IGN, or SIGCHLD by
 * default), stays pending while blocked, or, with its default action, ends the process
 * (coreutils' `kill -s TERM 0`): the test says which signal, and the native run is ended
 * by it too. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static int handled;
static void on_usr1(int sig) { handled = sig; }

int main(int argc, char **argv) {
  sigset_t set;
  signal(SIGUSR1, on_usr1);
  raise(SIGUSR1);
  signal(SIGINT, SIG_IGN);
  raise(SIGINT);
  raise(SIGCHLD);
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  sigprocmask(SIG_BLOCK, &set, NULL);
  raise(SIGHUP);
  printf("handled %d, alive\n", handled);
  fflush(stdout);
  if (argc > 1 && argv[1][0] == 't')
    kill(0, SIGTERM);
  if (argc > 1 && argv[1][0] == 'q')
    raise(SIGQUIT);
  return 0;
}
