/* fixed_time.h: the clock of augur's fixed world, shared by the libc models (libc/time.c:
 * every clock; libc/fd.c: every file's times) and the native replay runtime (the same
 * clocks, and the same times for the files the program makes), so that a program asking
 * the time, or a file's, gets the same answer under analysis and in replay: 2024-01-01
 * 00:00:00 UTC, and no time passes. */
#ifndef AUGUR_FIXED_TIME_H
#define AUGUR_FIXED_TIME_H

#define AUGUR_FIXED_TIME 1704067200L /* seconds since the epoch */
#define AUGUR_CLOCKS 12              /* clock ids 0 to 11 are Linux's; others are EINVAL */

#endif
