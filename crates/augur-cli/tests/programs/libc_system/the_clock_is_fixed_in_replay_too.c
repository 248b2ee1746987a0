/* Every clock reads 2024-01-01 00:00:00 UTC and no time passes, in the analysis and in
 * augur replay's native run alike (time, clock_gettime, gettimeofday, clock, the local
 * time zone UTC), and a file the program makes has that time too (built for large
 * files, as coreutils is: stat64). */
#define _FILE_OFFSET_BITS 64
#include <stdio.h>
#include <time.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  struct timespec ts; struct timeval tv; struct stat st; char buf[64];
  time_t t = time(NULL);
  clock_gettime(CLOCK_MONOTONIC, &ts);
  gettimeofday(&tv, NULL);
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", localtime(&t));
  printf("%ld %ld %ld %ld %s %d\n", (long)t, (long)ts.tv_sec, (long)tv.tv_sec, (long)clock(), buf, clock_gettime(99, &ts));
  close(open("f", O_WRONLY | O_CREAT, 0644));
  stat("f", &st);
  printf("mtime %ld %ld\n", (long)st.st_mtime, (long)st.st_mtim.tv_nsec);
  return 0;
}
