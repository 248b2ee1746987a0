/* BusyBox's usleep and sleep, and coreutils' sleep and timeout: the fixed clock means no
 * time passes, so a sleep returns at once, under analysis and in the native replay alike
 * (a native sleep of a minute ran past replay's 10 s limit). */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  struct timespec minute = {60, 0}, rest = {1, 1}, bad = {0, 1000000000};
  printf("sleep %u\n", sleep(60));
  printf("usleep %d\n", usleep(60000000));
  printf("nanosleep %d rest %ld\n", nanosleep(&minute, &rest), (long)rest.tv_sec);
  printf("bad %d\n", nanosleep(&bad, NULL));
  printf("clock %d\n", clock_nanosleep(CLOCK_MONOTONIC, 0, &minute, NULL));
  printf("now %ld\n", (long)time(NULL));
  return 0;
}
