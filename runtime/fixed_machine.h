/* fixed_machine.h: the machine of augur's fixed world, shared by the libc models
 * (libc/process.c: sysconf; libc/thread.c: the CPUs) and the native replay runtime, so
 * that a program asking about its machine gets the same answer under analysis and in
 * replay: one CPU, 1 GiB of memory in 4 KiB pages, all of it free and no swap, up for an
 * hour with no load and one process (sysinfo), the limits below, and its names: Debian
 * 12's kernel on x86-64, host "localhost". */
#ifndef AUGUR_FIXED_MACHINE_H
#define AUGUR_FIXED_MACHINE_H

#define AUGUR_PAGE_SIZE 4096L
#define AUGUR_CPUS 1 /* CPU 0 only */
#define AUGUR_MEMORY_BYTES (1L << 30)
#define AUGUR_UPTIME 3600L /* seconds since the machine started */
#define AUGUR_PROCESSES 1  /* the program's own */

/* uname's six fields (sysname, nodename, release, version, machine, domainname) and the
 * host's name (gethostname: the nodename). */
#define AUGUR_HOST_NAME "localhost"
#define AUGUR_UNAME_FIELDS {"Linux", AUGUR_HOST_NAME, "6.1.0-augur", "#1 SMP", "x86_64", "(none)"}

/* sysinfo(info) in this world, for the kernel's struct sysinfo as any C library declares
 * it: up an hour, no load, all its memory free, no swap, one process. */
#define AUGUR_FIXED_SYSINFO(info)                                                       \
  do {                                                                                  \
    memset((info), 0, sizeof *(info));                                                  \
    (info)->uptime = AUGUR_UPTIME;                                                      \
    (info)->totalram = (info)->freeram = AUGUR_MEMORY_BYTES;                            \
    (info)->procs = AUGUR_PROCESSES;                                                    \
    (info)->mem_unit = 1;                                                               \
  } while (0)

/* What sysconf answers for a name that is not this world's (the models fail with EINVAL;
 * replay lets glibc answer). */
#define AUGUR_SYSCONF_UNKNOWN (-2L)

/* Code the sanitizers' start-up may run (sysconf) before their runtime is ready: not
 * instrumented (MemorySanitizer's instrumentation would crash there). */
#if defined(__clang__) && __clang_major__ >= 14
#define AUGUR_UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))
#elif defined(__GNUC__) && !defined(__clang__)
#define AUGUR_UNINSTRUMENTED __attribute__((no_sanitize_address))
#else
#define AUGUR_UNINSTRUMENTED
#endif

/* sysconf(name) in this world: glibc's <bits/confname.h> numbers. */
AUGUR_UNINSTRUMENTED static inline long augur_fixed_sysconf(int name) {
  switch (name) {
  case 0: /* _SC_ARG_MAX */
    return 2097152;
  case 1: /* _SC_CHILD_MAX */
    return 63429;
  case 2: /* _SC_CLK_TCK */
    return 100;
  case 3: /* _SC_NGROUPS_MAX */
    return 65536;
  case 4: /* _SC_OPEN_MAX */
    return 1024;
  case 30: /* _SC_PAGESIZE */
    return AUGUR_PAGE_SIZE;
  case 43: /* _SC_LINE_MAX */
    return 2048;
  case 69: /* _SC_GETGR_R_SIZE_MAX */
  case 70: /* _SC_GETPW_R_SIZE_MAX */
    return 1024;
  case 83: /* _SC_NPROCESSORS_CONF */
  case 84: /* _SC_NPROCESSORS_ONLN */
    return AUGUR_CPUS;
  case 85: /* _SC_PHYS_PAGES: 1 GiB */
  case 86: /* _SC_AVPHYS_PAGES */
    return AUGUR_MEMORY_BYTES / AUGUR_PAGE_SIZE;
  default:
    return AUGUR_SYSCONF_UNKNOWN;
  }
}

/* gethostname(name, len) in this world: 0, or -1 when the name and its NUL do not fit
 * (glibc then copies what fits; the caller sets errno to ENAMETOOLONG). */
static inline int augur_fixed_hostname(char *name, unsigned long len) {
  unsigned long n = sizeof AUGUR_HOST_NAME;
  memcpy(name, AUGUR_HOST_NAME, len < n ? len : n);
  return len < n ? -1 : 0;
}

#endif
