/*
 * augur_sys.h - primitives implemented natively by the augur engine.
 *
 * These are the ONLY way the libc models reach the outside world.  They are
 * declared here without bodies; the engine intercepts calls to them.
 * (In the native test build, tests/shim.c provides host implementations.)
 */
#ifndef AUGUR_SYS_H
#define AUGUR_SYS_H

/* Write n bytes to fd (1 = stdout, 2 = stderr, or a modelled file at its
 * offset).  Returns n, or -1 with errno. */
long augur_sys_write(int fd, const void *buf, unsigned long n);
/* Read up to n bytes from fd (0 = stdin, or a modelled file).
 * Returns the number of bytes read, 0 at end of file, -1 on error. */
long augur_sys_read(int fd, void *buf, unsigned long n);
/* Open a modelled file; flags use the Linux O_* values (O_CREAT, O_EXCL and
 * O_TRUNC are honoured: files written are read back; a file O_CREAT makes has
 * permission bits mode less the creation mask).  -1 with errno. */
int augur_sys_open(const char *path, int flags, unsigned mode);
int augur_sys_close(int fd);
/* Reposition fd (whence 0 SET, 1 CUR, 2 END); the new offset, or -1 with
 * errno (EBADF, EINVAL, ESPIPE for a move away from the end of stdout/stderr). */
long augur_sys_lseek(int fd, long off, int whence);
/* The lowest free descriptor >= min now refers to what fd does; -1 with errno. */
int augur_sys_dup(int fd, int min);
/* The number augur_sys_stat gives standard input when it is a file (augur-env's
 * posix.rs, STREAM_NUMBERS); files are numbered from 0. */
#define AUGUR_SYS_STDIN_NUMBER (1UL << 32)
/* What path (when not NULL) or else fd is: 1 a regular file (out[0] its size,
 * out[1] its number), 2 /dev/null (an absent stdin), 3 a directory (fd only:
 * augur_sys_fd_dir names it; out untouched), 4 a pipe, 5 a FIFO or
 * socket mknod made (out[0] its S_IFMT bits, out[1] its number), or -1 with
 * errno. */
int augur_sys_stat(int fd, const char *path, unsigned long out[2]);
/* Remove a file's name (open descriptors keep it); -1 with ENOENT. */
int augur_sys_unlink(const char *path);
/* Set the length of fd's file; -1 with errno (EBADF, EINVAL). */
int augur_sys_truncate(int fd, long len);
/* The name path gives inside the working directory (relative to it, "" for
 * itself), resolved from the current directory as Linux resolves paths (symbolic
 * links followed), in out (cap bytes): 0; 1 for the working directory's parent;
 * -1 outside. */
long augur_sys_path(const char *path, char *out, unsigned long cap);
/* Make (with mode less the creation mask), remove, rename directories and
 * files, change the current directory: 0, or -1 with errno, as Linux's mkdir,
 * rmdir, rename, chdir. */
int augur_sys_mkdir(const char *path, unsigned mode);
int augur_sys_rmdir(const char *path);
int augur_sys_rename(const char *from, const char *to);
int augur_sys_chdir(const char *path);
/* Hard links and special files: to becomes another name of the file from
 * names (a symbolic link at from's end itself, unless follow; directories:
 * EPERM); a new regular file, FIFO or socket at path with
 * mode's type (S_IFMT bits) and permission bits less the creation mask (a
 * device: EPERM, as for a user who is not root).  0, or -1 with errno, as
 * Linux's link and mknod. */
int augur_sys_link(const char *from, const char *to, int follow);
/* Symbolic links: a new link at path to target (not looked up; ENOENT when empty), 0 or -1
 * with errno as Linux's symlink; the link path names (not followed): the length of its
 * target, whose first cap bytes go to buf (no NUL), its file number in *number (numbered
 * as augur_sys_stat's), or -1 with errno (EINVAL: not a link), as Linux's readlink. */
int augur_sys_symlink(const char *target, const char *path);
long augur_sys_readlink(const char *path, char *buf, unsigned long cap, unsigned long *number);
int augur_sys_mknod(const char *path, unsigned mode);
/* The current directory's absolute name in buf: its length with the NUL, or
 * -1 with ERANGE when size is too small. */
long augur_sys_getcwd(char *buf, unsigned long size);
/* The absolute name of the directory fd was opened on (open(2) of a directory)
 * in buf: its length with the NUL, or -1 with errno (EBADF not open, ENOTDIR
 * not a directory's descriptor, ERANGE size too small). */
long augur_sys_fd_dir(int fd, char *buf, unsigned long size);

/* File modes: the creation mask becomes mask (the old one is returned); the
 * permission bits of path (when not NULL) or else fd's file become mode (0, or
 * -1 with errno); the permission bits of path or fd's file (-1 with errno). */
unsigned augur_sys_umask(unsigned mask);
int augur_sys_chmod(int fd, const char *path, unsigned mode);
int augur_sys_mode(int fd, const char *path);

/* A pipe: its read end's descriptor in fds[0], its write end's in fds[1]; 0,
 * or -1 with EMFILE. */
int augur_sys_pipe(int fds[2]);

/* End the path as `unsupported` with the message `what` (the models cannot answer). */
void augur_sys_unsupported(const char *what) __attribute__((noreturn));
/* End the process by signal `sig`, as its default action does. */
void augur_sys_signalled(int sig) __attribute__((noreturn));

/* `--max-fail`: whether this call of a system call of `kind` fails on this path: the
 * errno it fails with, or 0.  Called once at the top of each modelled system call. */
int augur_sys_fail(int kind);
#define AUGUR_FAIL_READ 0
#define AUGUR_FAIL_WRITE 1
#define AUGUR_FAIL_OPEN 2
#define AUGUR_FAIL_CLOSE 3
#define AUGUR_FAIL_LSEEK 4
#define AUGUR_FAIL_STAT 5
#define AUGUR_FAIL_FTRUNCATE 6

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
