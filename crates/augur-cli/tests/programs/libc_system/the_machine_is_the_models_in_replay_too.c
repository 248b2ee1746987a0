/* One CPU and 1 GiB of memory in 4 KiB pages, the same limits and the same names, up an
 * hour with no load, in the analysis and in augur replay's native run alike, on any
 * machine (coreutils' nproc counts the CPUs with sched_getaffinity, then sysconf; uname
 * prints the names; BusyBox's uptime, free and ps ask sysinfo; glibc's getloadavg reads
 * /proc, which neither world has). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void) {
  cpu_set_t set;
  int r = sched_getaffinity(0, sizeof set, &set);
  printf("affinity %d %d\n", r, CPU_COUNT(&set));
  printf("cpus %ld %ld\n", sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF));
  printf("pages %ld of %ld, open %ld, clock %ld\n", sysconf(_SC_PHYS_PAGES),
         sysconf(_SC_PAGESIZE), sysconf(_SC_OPEN_MAX), sysconf(_SC_CLK_TCK));
  struct utsname u;
  char host[16], small[4];
  uname(&u);
  printf("%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
  printf("host %d %s, small %d\n", gethostname(host, sizeof host), host,
         gethostname(small, sizeof small));
  struct sysinfo info;
  int sr = sysinfo(&info);
  printf("sysinfo %d: up %ld, load %lu %lu %lu, ram %lu free %lu shared %lu buffers %lu, "
         "swap %lu free %lu, %u processes, high %lu free %lu, unit %u\n",
         sr, info.uptime, info.loads[0], info.loads[1], info.loads[2], info.totalram,
         info.freeram, info.sharedram, info.bufferram, info.totalswap, info.freeswap,
         (unsigned)info.procs, info.totalhigh, info.freehigh, info.mem_unit);
  double loads[3];
  errno = 0;
  int lr = getloadavg(loads, 3);
  printf("pages %ld free %ld, load average %d errno %d\n", get_phys_pages(),
         get_avphys_pages(), lr, errno);
  return 0;
}
