/*
 * fd.c - the file-descriptor layer over the engine's primitives: open,
 * read, write, close, lseek, stat, dup, fcntl, ioctl, isatty,
 * posix_fadvise, copy_file_range, access.
 *
 * The descriptors are what `augur replay` gives the native program: modelled
 * files, a given standard input, and standard output and error are regular
 * files (mode 0644, owned by the process's user, times at the fixed clock);
 * an absent standard input is /dev/null (a character device).  No descriptor
 * is a terminal.  A directory opens for reading (the engine keeps its
 * absolute name: augur_sys_fd_dir); the *at functions resolve paths from it
 * (__augur_at), and stat describes it by that name (dir.c).  Status flags and
 * FD_CLOEXEC live here, per descriptor.
 *
 * Each function standing for one system call (read, write, open, openat, close,
 * lseek, fstat, stat, fstatat, access, ftruncate, pread, pwrite) first asks whether
 * `--max-fail` makes this call fail (injected); internal uses of another call
 * (dup3 closing its target) do not ask, as the kernel makes no second call.
 */
#include "libc_internal.h"
#include "../fixed_time.h"
#include "../fixed_volume.h"

#define FD_MAX 1024
#define O_ACCMODE 03
#define O_TMPFILE 020000000 /* the bit of Linux's O_TMPFILE that is its own */
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000
#define AT_FDCWD (-100)
#define AT_EMPTY_PATH 0x1000
#define AT_SYMLINK_NOFOLLOW 0x100
#define ENOTDIR 20
#define ENOTTY 25
#define ENAMETOOLONG 36
#define O_LARGEFILE 0100000 /* always reported by F_GETFL on x86-64 */
#define ENOSYS 38
#define AT_REMOVEDIR 0x200

/* Access mode and status flags of each open descriptor (0 read, 1 and 2 write). */
static int fd_flags[FD_MAX] = {[0] = AUGUR_O_RDONLY, [1] = AUGUR_O_WRONLY, [2] = AUGUR_O_WRONLY};
static unsigned char fd_cloexec[FD_MAX];

/* Record a descriptor the engine just opened or duplicated; -1 (EMFILE) beyond FD_MAX. */
static int opened(int fd, int flags)
{
    if (fd < 0)
        return -1;
    if (fd >= FD_MAX) {
        augur_sys_close(fd);
        errno = 24; /* EMFILE */
        return -1;
    }
    fd_flags[fd] = flags & (O_ACCMODE | AUGUR_O_APPEND | O_NONBLOCK);
    fd_cloexec[fd] = (flags & O_CLOEXEC) != 0;
    return fd;
}

/* A failure `--max-fail` injects into this call of a system call of `kind`
 * (AUGUR_FAIL_*): -1 with its errno, or 0 when the call goes ahead. */
static int injected(int kind)
{
    int e = augur_sys_fail(kind);
    if (e == 0)
        return 0;
    errno = e;
    return -1;
}

/* What fd is (1 regular file, 2 /dev/null), -1 with EBADF if it is not open. */
static int kind_of(int fd, unsigned long info[2])
{
    if (fd < 0 || fd >= FD_MAX) {
        errno = EBADF;
        return -1;
    }
    return augur_sys_stat(fd, NULL, info);
}

static int open_file(const char *path, int flags, unsigned mode)
{
    return opened(augur_sys_open(path, flags, mode), flags);
}

/* The mode argument of an open that creates: read only with O_CREAT or
 * O_TMPFILE, as Linux does. */
#define CREATION_MODE(flags, last)                                                 \
    unsigned mode = 0;                                                             \
    if ((flags) & (AUGUR_O_CREAT | O_TMPFILE)) {                                   \
        va_list ap;                                                                \
        va_start(ap, last);                                                        \
        mode = va_arg(ap, unsigned);                                               \
        va_end(ap);                                                                \
    }

int open(const char *path, int flags, ...)
{
    CREATION_MODE(flags, flags)
    if (injected(AUGUR_FAIL_OPEN) < 0)
        return -1;
    return open_file(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    CREATION_MODE(flags, flags)
    return open(path, flags, mode);
}

int creat(const char *path, unsigned int mode)
{
    return open(path, AUGUR_O_WRONLY | AUGUR_O_CREAT | AUGUR_O_TRUNC, mode);
}

const char *__augur_at(int dirfd, const char *path, char *buf)
{
    long n;
    size_t len;
    if (dirfd == AT_FDCWD || path[0] == '/' || path[0] == '\0')
        return path;
    n = augur_sys_fd_dir(dirfd, buf, AUGUR_PATH_MAX);
    if (n < 0)
        return NULL;
    len = strlen(path);
    if ((size_t)n + len + 1 > AUGUR_PATH_MAX) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    buf[n - 1] = '/';
    memcpy(buf + n, path, len + 1);
    return buf;
}

int openat(int dirfd, const char *path, int flags, ...)
{
    char buf[AUGUR_PATH_MAX];
    CREATION_MODE(flags, flags)
    if (injected(AUGUR_FAIL_OPEN) < 0 || (path = __augur_at(dirfd, path, buf)) == NULL)
        return -1;
    return open_file(path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    CREATION_MODE(flags, flags)
    return openat(dirfd, path, flags, mode);
}

long read(int fd, void *buf, size_t n)
{
    unsigned long info[2];
    if (injected(AUGUR_FAIL_READ) < 0 || kind_of(fd, info) < 0)
        return -1;
    if ((fd_flags[fd] & O_ACCMODE) == AUGUR_O_WRONLY) {
        errno = EBADF;
        return -1;
    }
    return augur_sys_read(fd, buf, n);
}

long write(int fd, const void *buf, size_t n)
{
    unsigned long info[2];
    int kind;
    if (injected(AUGUR_FAIL_WRITE) < 0)
        return -1;
    kind = kind_of(fd, info);
    if (kind < 0)
        return -1;
    if ((fd_flags[fd] & O_ACCMODE) == AUGUR_O_RDONLY) {
        errno = EBADF;
        return -1;
    }
    if ((fd_flags[fd] & AUGUR_O_APPEND) && kind == 1)
        augur_sys_lseek(fd, 0, 2);
    return augur_sys_write(fd, buf, n);
}

/* Close fd (no failure injected: see close). */
static int release(int fd)
{
    if (fd < 0 || fd >= FD_MAX) {
        errno = EBADF;
        return -1;
    }
    if (augur_sys_close(fd) < 0)
        return -1;
    fd_flags[fd] = 0;
    fd_cloexec[fd] = 0;
    return 0;
}

int close(int fd)
{
    if (injected(AUGUR_FAIL_CLOSE) < 0)
        return -1;
    return release(fd);
}

long lseek(int fd, long off, int whence)
{
    if (injected(AUGUR_FAIL_LSEEK) < 0)
        return -1;
    return augur_sys_lseek(fd, off, whence);
}

/* pread/pwrite: at offset `off`, leaving the descriptor's offset where it was. */
static long at_offset(int fd, void *buf, size_t n, long off, int writing)
{
    long saved, r;
    if (off < 0) {
        errno = EINVAL;
        return -1;
    }
    saved = augur_sys_lseek(fd, 0, 1);
    if (saved < 0 || augur_sys_lseek(fd, off, 0) < 0)
        return -1;
    r = writing ? write(fd, buf, n) : read(fd, buf, n);
    augur_sys_lseek(fd, saved, 0);
    return r;
}

long pread(int fd, void *buf, size_t n, long off) { return at_offset(fd, buf, n, off, 0); }
long pread64(int fd, void *buf, size_t n, long off) { return pread(fd, buf, n, off); }

long pwrite(int fd, const void *buf, size_t n, long off)
{
    return at_offset(fd, (void *)buf, n, off, 1);
}

long pwrite64(int fd, const void *buf, size_t n, long off) { return pwrite(fd, buf, n, off); }
long lseek64(int fd, long off, int whence) { return lseek(fd, off, whence); }

/* ---- stat ------------------------------------------------------------------ */

#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_IFREG 0100000
#define S_IFLNK 0120000
#define KIND_SYMLINK 6 /* fill_stat's */
#define FIXED_TIME AUGUR_FIXED_TIME /* time.c's clock */

/* Fill st for an object of `kind` (1 regular file: info its size, number and
 * permission bits, 2 /dev/null, 3 a directory: info from __augur_directory,
 * 4 a pipe, 5 a FIFO or socket mknod made: info its type bits, number and
 * permission bits, 6 a symbolic link: info its target's length and its number). */
static int fill_stat(int kind, const unsigned long info[3], struct stat *st)
{
    if (kind < 0)
        return -1;
    memset(st, 0, sizeof *st);
    st->st_nlink = 1;
    st->st_uid = st->st_gid = 1000;
    st->st_blksize = 4096;
    st->st_atime_sec = st->st_mtime_sec = st->st_ctime_sec = FIXED_TIME;
    if (kind == 1) {
        st->st_dev = AUGUR_FIXED_DEV;
        st->st_ino = info[1] == AUGUR_SYS_STDIN_NUMBER ? AUGUR_FIXED_INO_STDIN
                                                       : AUGUR_FIXED_INO(info[1]);
        st->st_mode = S_IFREG | (unsigned int)info[2];
        st->st_size = (long)info[0];
        st->st_blocks = AUGUR_FIXED_BLOCKS(info[0]);
    } else if (kind == 5) {
        st->st_dev = AUGUR_FIXED_DEV;
        st->st_ino = AUGUR_FIXED_INO(info[1]);
        st->st_mode = (unsigned int)(info[0] | info[2]);
    } else if (kind == 6) {
        st->st_dev = AUGUR_FIXED_DEV;
        st->st_ino = AUGUR_FIXED_INO(info[1]);
        st->st_mode = S_IFLNK | 0777;
        st->st_size = (long)info[0];
        st->st_blocks = AUGUR_FIXED_LINK_BLOCKS(info[0]);
    } else if (kind == 4) {
        st->st_dev = 0xc; /* pipefs */
        st->st_ino = info[1];
        st->st_mode = S_IFIFO | 0600;
    } else if (kind == 3) {
        st->st_dev = AUGUR_FIXED_DEV;
        st->st_nlink = info[0];
        st->st_ino = info[1];
        st->st_mode = S_IFDIR | (unsigned int)info[2];
        st->st_size = AUGUR_FIXED_DIR_SIZE;
        st->st_blocks = AUGUR_FIXED_DIR_BLOCKS;
    } else {
        st->st_dev = 6; /* devtmpfs */
        st->st_ino = 4;
        st->st_rdev = 0x103; /* major 1, minor 3 */
        st->st_mode = S_IFCHR | 0666;
        st->st_uid = st->st_gid = 0;
    }
    return 0;
}

static int stat_path(const char *path, struct stat *st);

static int stat_fd(int fd, struct stat *st)
{
    unsigned long info[3] = {0, 0, 0};
    char name[AUGUR_PATH_MAX];
    int kind = kind_of(fd, info);
    if (kind == 3) /* a directory: described by its name */
        return augur_sys_fd_dir(fd, name, sizeof name) < 0 ? -1 : stat_path(name, st);
    if (kind == 1)
        info[2] = (unsigned long)augur_sys_mode(fd, NULL);
    return fill_stat(kind, info, st);
}

static int stat_path(const char *path, struct stat *st)
{
    unsigned long info[3] = {0, 0, 0};
    int kind = augur_sys_stat(-1, path, info);
    if (kind == 1 || kind == 5)
        info[2] = (unsigned long)augur_sys_mode(-1, path);
    else if (kind < 0 && __augur_directory(path, info))
        kind = 3;
    return fill_stat(kind, info, st);
}

int fstat(int fd, struct stat *st)
{
    if (injected(AUGUR_FAIL_STAT) < 0)
        return -1;
    return stat_fd(fd, st);
}

int stat(const char *path, struct stat *st)
{
    if (injected(AUGUR_FAIL_STAT) < 0)
        return -1;
    return stat_path(path, st);
}

/* stat of path's last component itself when it is a symbolic link, else stat_path's. */
static int lstat_path(const char *path, struct stat *st)
{
    unsigned long info[3] = {0, 0, 0};
    long n = augur_sys_readlink(path, NULL, 0, &info[1]);
    if (n < 0)
        return errno == EINVAL ? stat_path(path, st) : -1;
    info[0] = (unsigned long)n;
    return fill_stat(KIND_SYMLINK, info, st);
}

int lstat(const char *path, struct stat *st)
{
    if (injected(AUGUR_FAIL_STAT) < 0)
        return -1;
    return lstat_path(path, st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flag)
{
    char buf[AUGUR_PATH_MAX];
    if (injected(AUGUR_FAIL_STAT) < 0)
        return -1;
    if (path[0] == '\0' && (flag & AT_EMPTY_PATH))
        return stat_fd(dirfd, st);
    if ((path = __augur_at(dirfd, path, buf)) == NULL)
        return -1;
    return (flag & AT_SYMLINK_NOFOLLOW) ? lstat_path(path, st) : stat_path(path, st);
}

int fstat64(int fd, struct stat *st) { return fstat(fd, st); }
int stat64(const char *path, struct stat *st) { return stat(path, st); }
int lstat64(const char *path, struct stat *st) { return lstat(path, st); }
int fstatat64(int dirfd, const char *path, struct stat *st, int flag)
{
    return fstatat(dirfd, path, st, flag);
}

/* Before glibc 2.33, <sys/stat.h> called these versioned entry points. */
int __fxstat(int ver, int fd, struct stat *st)
{
    (void)ver;
    return fstat(fd, st);
}

int __xstat(int ver, const char *path, struct stat *st)
{
    (void)ver;
    return stat(path, st);
}

int __lxstat(int ver, const char *path, struct stat *st)
{
    (void)ver;
    return lstat(path, st);
}

int access(const char *path, int mode)
{
    unsigned long info[2];
    (void)mode; /* the user owns every file: all permissions granted */
    if (injected(AUGUR_FAIL_STAT) < 0) /* a stat for --max-fail, as dir.c's faccessat */
        return -1;
    return augur_sys_stat(-1, path, info) < 0 ? -1 : 0;
}

/* ---- duplication and control ----------------------------------------------- */

/* Duplicate fd onto the lowest free descriptor >= min, with the status flags kept. */
static int duplicate(int fd, int min, int cloexec)
{
    int flags = fd_flags[fd], r = augur_sys_dup(fd, min);
    if (opened(r, flags) < 0)
        return -1;
    fd_cloexec[r] = (unsigned char)cloexec;
    return r;
}

int dup(int fd)
{
    unsigned long info[2];
    if (kind_of(fd, info) < 0)
        return -1;
    return duplicate(fd, 0, 0);
}

int dup3(int old, int new, int flags)
{
    unsigned long info[2];
    if (kind_of(old, info) < 0)
        return -1;
    if (new < 0 || new >= FD_MAX) {
        errno = EBADF;
        return -1;
    }
    if (old == new || (flags & ~O_CLOEXEC) != 0) {
        errno = EINVAL;
        return -1;
    }
    if (kind_of(new, info) > 0)
        release(new);
    return duplicate(old, new, (flags & O_CLOEXEC) != 0);
}

int dup2(int old, int new)
{
    unsigned long info[2];
    if (old == new)
        return kind_of(old, info) < 0 ? -1 : new;
    return dup3(old, new, 0);
}

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
/* The status flags F_SETFL may change (Linux: also O_ASYNC, O_DIRECT, O_NOATIME). */
#define SETFL_MASK (AUGUR_O_APPEND | O_NONBLOCK | 020000 | 040000 | 01000000)

/* fcntl with its argument already taken (0 for the commands without one). */
static int control(int fd, int cmd, long arg)
{
    unsigned long info[2];
    if (kind_of(fd, info) < 0)
        return -1;
    switch (cmd) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
        if (arg < 0 || arg >= FD_MAX) {
            errno = EINVAL;
            return -1;
        }
        return duplicate(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
    case F_GETFD:
        return fd_cloexec[fd];
    case F_SETFD:
        fd_cloexec[fd] = (arg & 1) != 0;
        return 0;
    case F_GETFL:
        return fd_flags[fd] | O_LARGEFILE;
    case F_SETFL:
        fd_flags[fd] = (fd_flags[fd] & ~SETFL_MASK) | ((int)arg & SETFL_MASK);
        return 0;
    default:
        errno = EINVAL;
        return -1;
    }
}

/* fcntl's optional argument: F_GETFD and F_GETFL take none (reading it would be
 * reading past the caller's arguments). */
#define FCNTL_BODY(fd, cmd)                                                     \
    long arg = 0;                                                               \
    va_list ap;                                                                 \
    if ((cmd) != F_GETFD && (cmd) != F_GETFL) {                                 \
        va_start(ap, cmd);                                                      \
        arg = va_arg(ap, long);                                                 \
        va_end(ap);                                                             \
    }                                                                           \
    return control(fd, cmd, arg)

int fcntl(int fd, int cmd, ...) { FCNTL_BODY(fd, cmd); }
int fcntl64(int fd, int cmd, ...) { FCNTL_BODY(fd, cmd); }

int ioctl(int fd, unsigned long request, ...)
{
    unsigned long info[2];
    (void)request;
    if (kind_of(fd, info) < 0)
        return -1;
    errno = ENOTTY; /* no descriptor is a terminal */
    return -1;
}

int isatty(int fd)
{
    unsigned long info[2];
    if (kind_of(fd, info) >= 0)
        errno = ENOTTY;
    return 0;
}

int posix_fadvise(int fd, long off, long len, int advice)
{
    unsigned long info[2];
    int kind = kind_of(fd, info);
    (void)off;
    if (kind < 0)
        return EBADF;
    if (advice < 0 || advice > 5 || len < 0)
        return EINVAL;
    return 0;
}

int posix_fadvise64(int fd, long off, long len, int advice)
{
    return posix_fadvise(fd, off, len, advice);
}

/* Not provided: callers (coreutils' copy) fall back to read and write. */
long copy_file_range(int in, long *in_off, int out, long *out_off, size_t n, unsigned flags)
{
    (void)in;
    (void)in_off;
    (void)out;
    (void)out_off;
    (void)n;
    (void)flags;
    errno = ENOSYS;
    return -1;
}

/* ---- names, lengths, durability -------------------------------------------- */

int unlink(const char *path) { return augur_sys_unlink(path); }

int unlinkat(int dirfd, const char *path, int flags)
{
    char buf[AUGUR_PATH_MAX];
    if (flags & ~AT_REMOVEDIR) {
        errno = EINVAL;
        return -1;
    }
    if ((path = __augur_at(dirfd, path, buf)) == NULL)
        return -1;
    return flags ? rmdir(path) : unlink(path);
}

int ftruncate(int fd, long len)
{
    unsigned long info[2];
    if (injected(AUGUR_FAIL_FTRUNCATE) < 0 || kind_of(fd, info) < 0)
        return -1;
    if ((fd_flags[fd] & O_ACCMODE) == AUGUR_O_RDONLY) {
        errno = EINVAL; /* Linux: not open for writing */
        return -1;
    }
    return augur_sys_truncate(fd, len);
}

int ftruncate64(int fd, long len) { return ftruncate(fd, len); }

int fsync(int fd)
{
    unsigned long info[2];
    return kind_of(fd, info) < 0 ? -1 : 0;
}

int fdatasync(int fd) { return fsync(fd); }

/* ---- temporary files ----------------------------------------------------- */

#define EEXIST 17

/* mkostemps: replace the six X before `suffix_len` final bytes and create the file
 * exclusively; names come from a per-path counter, so every run is reproducible. */
int mkostemps(char *template, int suffix_len, int flags)
{
    static unsigned long counter;
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t len = strlen(template);
    char *x;
    int tries, i, fd;
    if (suffix_len < 0 || len < (size_t)suffix_len + 6
        || memcmp(template + len - suffix_len - 6, "XXXXXX", 6) != 0) {
        errno = EINVAL;
        return -1;
    }
    x = template + len - suffix_len - 6;
    for (tries = 0; tries < 100; tries++) {
        unsigned long v = ++counter;
        for (i = 0; i < 6; i++, v /= 62)
            x[i] = letters[v % 62];
        fd = open(template, (flags & ~O_ACCMODE) | AUGUR_O_RDWR | AUGUR_O_CREAT | 0200, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int mkstemp(char *template) { return mkostemps(template, 0, 0); }
int mkostemp(char *template, int flags) { return mkostemps(template, 0, flags); }
int mkstemps(char *template, int suffix_len) { return mkostemps(template, suffix_len, 0); }
int mkstemp64(char *template) { return mkstemp(template); }
int mkostemp64(char *template, int flags) { return mkostemp(template, flags); }

/* ---- sleeping: the clock is fixed, so no time passes ------------------------ */

struct timespec_ {
    long tv_sec, tv_nsec;
};

int nanosleep(const struct timespec_ *req, struct timespec_ *rem)
{
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec > 999999999) {
        errno = EINVAL;
        return -1;
    }
    if (rem != NULL)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

unsigned int sleep(unsigned int seconds)
{
    (void)seconds;
    return 0;
}

int usleep(unsigned int usec)
{
    (void)usec;
    return 0;
}

/* ---- pipes ---------------------------------------------------------------- */

/* pipe2(fds, flags): a pipe within the process (augur-env/src/pipes.rs), its read end
 * in fds[0], its write end in fds[1]. */
int pipe2(int fds[2], int flags)
{
    if (flags & ~(O_CLOEXEC | O_NONBLOCK)) {
        errno = EINVAL;
        return -1;
    }
    if (augur_sys_pipe(fds) != 0)
        return -1;
    if (opened(fds[0], AUGUR_O_RDONLY | flags) < 0 || opened(fds[1], AUGUR_O_WRONLY | flags) < 0)
        return -1;
    return 0;
}

int pipe(int fds[2]) { return pipe2(fds, 0); }
