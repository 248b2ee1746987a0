/*
 * augur_sys.h - primitives implemented natively by the augur engine.
 *
 * These are the ONLY way the libc models reach the outside world.  They are
 * declared here without bodies; the engine intercepts calls to them.
 * (In the native test build, tests/shim.c provides host implementations.)
 */
#ifndef AUGUR_SYS_H
#define AUGUR_SYS_H

/* Append n bytes to fd (1 = stdout, 2 = stderr, or a modelled file).
 * Returns n, or -1 on error. */
long augur_sys_write(int fd, const void *buf, unsigned long n);
/* Read up to n bytes from fd (0 = stdin, or a modelled file).
 * Returns the number of bytes read, 0 at end of file, -1 on error. */
long augur_sys_read(int fd, void *buf, unsigned long n);
/* Open a modelled file; flags use the Linux O_* values.  -1 if unknown. */
int augur_sys_open(const char *path, int flags);
int augur_sys_close(int fd);

/* Memory and process control, handled by the engine. */
void *malloc(unsigned long n);
void free(void *p);
void *calloc(unsigned long n, unsigned long s);
void *realloc(void *p, unsigned long n);
/* A heap block aligned to `align` (a power of two), or NULL (EINVAL otherwise). */
void *aligned_alloc(unsigned long align, unsigned long n);
void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));

/* Per-path errno cell. */
int *augur_errno_location(void);

#endif
