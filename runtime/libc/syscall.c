/*
 * syscall.c - Linux's system calls (x86-64 numbers) over the models, for the C
 * library functions augur takes from musl (runtime/musl): musl makes every
 * system call through __augur_syscall, which answers as the kernel does in the
 * models' world, with a result or -errno.
 *
 * - Calls the models already make (read, write, open, stat, ...) go to the model
 *   functions, so musl's functions and the models share one world: the same
 *   descriptors, files and clock.
 * - The process is alone in a sandbox: it cannot make processes (fork, vfork and
 *   clone fail with EAGAIN, execve with EACCES once it finds the program, ENOENT
 *   when nothing is there; there is no child to wait for)
 *   nor sockets (EACCES); it may signal only itself; it leads its own process group
 *   and session; its user, not root, may not rename the host (EPERM). `augur
 *   replay` makes the native run's calls fail the same way (runtime/replay/replay.c).
 * - Memory: an anonymous mmap is zeroed memory from the engine's allocator, a
 *   private mapping of a file is a copy of its bytes (a shared writable one fails
 *   with ENODEV: writes through it would not reach the file); munmap of a whole
 *   mapping frees it (a later access is a use after free), of a part of one
 *   succeeds and frees nothing; mprotect and madvise succeed; mincore fails with
 *   ENOSYS (the process has no pages to report on: gnulib's stack probing falls
 *   back, as `augur replay` makes it do natively).
 * - sigaltstack succeeds (no signal is delivered on a stack: raise() runs the
 *   handler in place) and reports no alternate stack.
 * - Any other call ends the path as `unsupported`, naming the call: no answer
 *   is made up.
 */
#include "libc_internal.h"
#include "../fixed_machine.h"

#define EPERM 1
#define ENOTDIR 20
#define ESRCH 3
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define EFAULT 14
#define EACCES 13
#define EINVAL 22
#define ERANGE 34
#define ENOMEM 12
#define ENODEV 19
#define ENOSYS 38

#define AT_FDCWD (-100)
#define OWN_PID 4242 /* process.c's getpid() */

/* The model functions the calls go to (declared here with the kernel's argument types:
 * the structures are the kernel's on x86-64, which glibc's are). */
long pread(int fd, void *buf, size_t n, long off);
long pwrite(int fd, const void *buf, size_t n, long off);
int openat(int dirfd, const char *path, int flags, ...);
int lstat(const char *path, struct stat *st);
long readlinkat(int dirfd, const char *path, char *buf, size_t len);
int faccessat(int dirfd, const char *path, int mode, int flags);
int unlinkat(int dirfd, const char *path, int flags);
int dup(int fd);
int dup3(int old, int new, int flags);
int ftruncate(int fd, long len);
int fsync(int fd);
int fdatasync(int fd);
int ioctl(int fd, unsigned long request, ...);
int statx(int dirfd, const char *path, int flags, unsigned int mask, void *out);
int getpid(void);
int getppid(void);
unsigned getuid(void);
unsigned geteuid(void);
unsigned getgid(void);
unsigned getegid(void);
int clock_gettime(int clock, void *ts);
int gettimeofday(void *tv, void *tz);
int nanosleep(const void *req, void *rem);
long getrandom(void *buf, size_t len, unsigned int flags);
int sched_getaffinity(int pid, size_t size, unsigned long *mask);
int getrlimit(int resource, void *r);
int setrlimit(int resource, const void *r);
int raise(int sig);
int sigprocmask(int how, const void *set, void *old);
int mkdir(const char *path, unsigned mode);
int mkdirat(int dirfd, const char *path, unsigned mode);
int rmdir(const char *path);
int rename(const char *from, const char *to);
int renameat(int fromfd, const char *from, int tofd, const char *to);
int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags);
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags);
int symlinkat(const char *target, int dirfd, const char *path);
int mknodat(int dirfd, const char *path, unsigned mode, unsigned long dev);
int utimensat(int dirfd, const char *path, const void *times, int flags);
int chdir(const char *path);
int fchdir(int fd);
int pipe2(int fds[2], int flags);
long time(long *t);
unsigned umask(unsigned mask);
int chmod(const char *path, unsigned mode);
int fchmod(int fd, unsigned mode);
int fchmodat(int dirfd, const char *path, unsigned mode, int flags);
int chown(const char *path, unsigned uid, unsigned gid);
int lchown(const char *path, unsigned uid, unsigned gid);
int fchown(int fd, unsigned uid, unsigned gid);
int fchownat(int dirfd, const char *path, unsigned uid, unsigned gid, int flags);
int statfs(const char *path, void *out);
int fstatfs(int fd, void *out);

/* x86-64 system call numbers. */
enum {
    SYS_read = 0, SYS_write = 1, SYS_open = 2, SYS_close = 3, SYS_stat = 4, SYS_fstat = 5,
    SYS_lstat = 6, SYS_lseek = 8, SYS_rt_sigprocmask = 14, SYS_ioctl = 16, SYS_pread64 = 17, SYS_pwrite64 = 18,
    SYS_readv = 19, SYS_writev = 20, SYS_access = 21, SYS_pipe = 22, SYS_sched_yield = 24, SYS_dup = 32,
    SYS_dup2 = 33, SYS_nanosleep = 35, SYS_getpid = 39, SYS_sendfile = 40, SYS_socket = 41,
    SYS_socketpair = 53, SYS_clone = 56, SYS_fork = 57, SYS_vfork = 58, SYS_execve = 59,
    SYS_wait4 = 61, SYS_kill = 62, SYS_uname = 63, SYS_getgroups = 115, SYS_setpgid = 109, SYS_setsid = 112, SYS_getpgid = 121, SYS_getpriority = 140,
    SYS_setpriority = 141, SYS_sync = 162, SYS_chroot = 161, SYS_syncfs = 306, SYS_fcntl = 72, SYS_fsync = 74, SYS_fdatasync = 75,
    SYS_truncate = 76, SYS_ftruncate = 77, SYS_getcwd = 79, SYS_chdir = 80, SYS_fchdir = 81, SYS_rename = 82,
    SYS_mkdir = 83, SYS_rmdir = 84, SYS_unlink = 87, SYS_readlink = 89, SYS_chmod = 90, SYS_fchmod = 91,
    SYS_chown = 92, SYS_fchown = 93, SYS_lchown = 94, SYS_umask = 95, SYS_gettimeofday = 96,
    SYS_statfs = 137, SYS_fstatfs = 138, SYS_fchownat = 260, SYS_fchmodat = 268, SYS_fchmodat2 = 452,
    SYS_getrlimit = 97, SYS_getuid = 102, SYS_getgid = 104, SYS_geteuid = 107,
    SYS_getegid = 108, SYS_getppid = 110, SYS_setrlimit = 160, SYS_gettid = 186,
    SYS_time = 201, SYS_sched_getaffinity = 204, SYS_clock_gettime = 228,
    SYS_clock_nanosleep = 230, SYS_waitid = 247, SYS_openat = 257, SYS_mkdirat = 258, SYS_newfstatat = 262,
    SYS_unlinkat = 263, SYS_renameat = 264, SYS_readlinkat = 267, SYS_renameat2 = 316, SYS_link = 86, SYS_linkat = 265, SYS_symlink = 88, SYS_symlinkat = 266, SYS_mknod = 133, SYS_mknodat = 259, SYS_utimensat = 280, SYS_faccessat = 269, SYS_dup3 = 292, SYS_pipe2 = 293,
    SYS_prlimit64 = 302, SYS_getrandom = 318, SYS_execveat = 322, SYS_statx = 332,
    SYS_clone3 = 435, SYS_faccessat2 = 439, SYS_mmap = 9, SYS_mprotect = 10, SYS_munmap = 11,
    SYS_mincore = 27, SYS_madvise = 28, SYS_sigaltstack = 131, SYS_sysinfo = 99,
    SYS_getsid = 124, SYS_sethostname = 170, SYS_setdomainname = 171,
};

/* A model function's result as the kernel gives it: -errno for -1. */
static long kernel(long r)
{
    return r == -1 ? -(long)errno : r;
}

struct iovec_ {
    void *base;
    size_t len;
};

/* readv/writev as one read or write per buffer, stopping at a short one. */
static long vectored(int write_, int fd, const struct iovec_ *iov, long count)
{
    long total = 0, i;
    if (count < 0 || count > 1024)
        return -EINVAL;
    for (i = 0; i < count; i++) {
        long n = write_ ? write(fd, iov[i].base, iov[i].len) : read(fd, iov[i].base, iov[i].len);
        if (n < 0)
            return total > 0 ? total : -(long)errno;
        total += n;
        if ((size_t)n < iov[i].len)
            break;
    }
    return total;
}

/* truncate(path, length): ftruncate through a descriptor opened for writing, which gives
 * Linux's errors for a path naming nothing (ENOENT) or a directory (EISDIR). */
static long truncate_(const char *path, long length)
{
    int fd = openat(AT_FDCWD, path, AUGUR_O_WRONLY, 0);
    long r;
    if (fd < 0)
        return -(long)errno;
    r = kernel(ftruncate(fd, length));
    close(fd);
    return r;
}

/* sendfile(out, in, offset, count) as reads and writes of at most 4 KiB: from
 * *offset (then moved on, in's own offset unchanged) or from in's offset. */
static long sendfile_(int out, int in, long *offset, size_t count)
{
    char buf[4096];
    long total = 0;
    while (count > 0) {
        size_t want = count < sizeof buf ? count : sizeof buf;
        long n = offset != NULL ? pread(in, buf, want, *offset) : read(in, buf, want);
        long w;
        if (n <= 0)
            return n < 0 && total == 0 ? -(long)errno : total;
        w = write(out, buf, (size_t)n);
        if (w < 0)
            return total == 0 ? -(long)errno : total;
        if (offset != NULL)
            *offset += w;
        total += w;
        count -= (size_t)w;
        if (w < n)
            break;
    }
    return total;
}

/* uname(buf): the machine of the models' world (../fixed_machine.h; `augur replay` gives
 * the native run the same names). */
static long uname_(char (*fields)[65])
{
    static const char *const values[6] = AUGUR_UNAME_FIELDS;
    int i;
    for (i = 0; i < 6; i++) {
        size_t n = strlen(values[i]);
        memcpy(fields[i], values[i], n + 1);
        memset(fields[i] + n + 1, 0, 65 - n - 1);
    }
    return 0;
}

/* The kernel's struct sysinfo on x86-64 (glibc's and musl's are laid out so; its
 * trailing padding field has no bytes on a 64-bit machine). */
struct kernel_sysinfo {
    long uptime;
    unsigned long loads[3];
    unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
    unsigned short procs, pad;
    unsigned long totalhigh, freehigh;
    unsigned mem_unit;
};
_Static_assert(sizeof(struct kernel_sysinfo) == 112, "the kernel's struct sysinfo");

/* sysinfo(info): the machine of the models' world (../fixed_machine.h: up an hour, no
 * load, all its memory free, no swap, one process; `augur replay` answers the same). */
static long sysinfo_(struct kernel_sysinfo *info)
{
    AUGUR_FIXED_SYSINFO(info);
    return 0;
}

/* getgroups(size, list): the user's one group, 1000 (process.c's getgid). */
static long getgroups_(long size, unsigned *list)
{
    if (size == 0)
        return 1;
    if (size < 1)
        return -EINVAL;
    list[0] = getgid();
    return 1;
}

/* The process's nice value (0 at start). */
static int nice_value;

/* Is `who` of `which` (PRIO_PROCESS 0 only, for a process group or user: the other kinds)
 * this process: 0 or its pid? */
static int is_self(long which, long who)
{
    return which == 0 && (who == 0 || who == OWN_PID);
}

/* getpriority(which, who) as the kernel returns it, 20 - nice, for this process;
 * ESRCH for any other (none exists for it), EINVAL for an unknown `which`. */
static long getpriority_(long which, long who)
{
    if (which < 0 || which > 2)
        return -EINVAL;
    return is_self(which, who) ? 20 - nice_value : -ESRCH;
}

/* setpriority(which, who, nice) for this process, as for a user without CAP_SYS_NICE
 * (uid 1000): raising its nice value (to at most 19) is allowed, lowering it EACCES. */
static long setpriority_(long which, long who, long value)
{
    if (which < 0 || which > 2)
        return -EINVAL;
    if (!is_self(which, who))
        return -ESRCH;
    if (value > 19)
        value = 19;
    if (value < nice_value)
        return -EACCES;
    nice_value = (int)value;
    return 0;
}

/* setpgid(pid, pgid): this process (0 or its pid) may lead its own group (pgid 0 or its
 * pid); no other process exists for it. getpgid: its group is its pid. */
static long setpgid_(long pid, long pgid)
{
    if (pgid < 0)
        return -EINVAL;
    if (pid != 0 && pid != OWN_PID)
        return -ESRCH;
    return pgid == 0 || pgid == OWN_PID ? 0 : -EPERM;
}

/* chroot(path) for a user who is not root: the path is looked up (ENOENT, ENOTDIR), then
 * refused (EPERM). */
static long chroot_(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -(long)errno;
    return (st.st_mode & 0170000) == 0040000 ? -EPERM : -ENOTDIR;
}

/* kill(pid, sig): the process itself (its pid, 0, or -1: every process it may signal) is
 * raise(); any other process does not exist for it. */
static long kill_(long pid, long sig)
{
    if (sig < 0 || sig > 64)
        return -EINVAL;
    if (pid != OWN_PID && pid != 0 && pid != -1 && pid != -OWN_PID)
        return -ESRCH;
    return sig == 0 ? 0 : kernel(raise((int)sig));
}

/* prlimit64(pid, resource, new, old) of the process itself. */
static long prlimit(long pid, int resource, const void *set, void *old)
{
    if (pid != 0 && pid != OWN_PID)
        return -ESRCH;
    if (old != NULL && getrlimit(resource, old) != 0)
        return -(long)errno;
    return set != NULL ? kernel(setrlimit(resource, set)) : 0;
}

/* rt_sigprocmask(how, set, old, size): the kernel's 64-bit signal sets, glibc's 1024-bit
 * ones in the model. */
static long rt_sigprocmask(int how, const unsigned long *set, unsigned long *old, size_t size)
{
    unsigned long in[16] = {0}, out[16] = {0};
    if (size != 8)
        return -EINVAL;
    if (set != NULL)
        in[0] = *set;
    if (sigprocmask(how, set != NULL ? in : NULL, out) != 0)
        return -(long)errno;
    if (old != NULL)
        *old = out[0];
    return 0;
}

#define PAGE 4096
#define PROT_WRITE 2
#define MAP_SHARED 1
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20

/* The mappings mmap made and munmap has not removed (beyond MAX_MAPPINGS, a mapping
 * is not recorded and stays allocated). */
#define MAX_MAPPINGS 64
static struct {
    char *start;
    size_t len;
} mappings[MAX_MAPPINGS];

/* munmap(addr, len): a whole mapping is freed; anything else succeeds as it is. */
static long munmap_(char *addr, size_t len)
{
    int i;
    if ((unsigned long)addr % PAGE != 0 || len == 0)
        return -EINVAL;
    for (i = 0; i < MAX_MAPPINGS; i++)
        if (mappings[i].start == addr && (mappings[i].len + PAGE - 1) / PAGE == (len + PAGE - 1) / PAGE) {
            free(addr);
            mappings[i].start = NULL;
            break;
        }
    return 0;
}

/* mmap(addr, len, prot, flags, fd, offset): new zeroed memory, with a copy of the
 * file's bytes from `offset` for a file mapping (past the file's end: zeros). The
 * address hint is ignored; a fixed address cannot be given. */
static long mmap_(size_t len, int prot, int flags, int fd, long offset)
{
    size_t size = (len + PAGE - 1) / PAGE * PAGE;
    char *mem;
    if (len == 0 || size < len || offset % PAGE != 0)
        return -EINVAL;
    if (flags & MAP_FIXED)
        return -ENOMEM;
    if (!(flags & MAP_ANONYMOUS) && (flags & MAP_SHARED) && (prot & PROT_WRITE))
        return -ENODEV;
    mem = aligned_alloc(PAGE, size);
    if (mem == NULL)
        return -ENOMEM;
    memset(mem, 0, size);
    if (!(flags & MAP_ANONYMOUS)) {
        size_t done = 0;
        while (done < len) {
            long n = pread(fd, mem + done, len - done, offset + (long)done);
            if (n < 0) {
                long err = -(long)errno;
                free(mem);
                return err;
            }
            if (n == 0)
                break;
            done += (size_t)n;
        }
    }
    for (int i = 0; i < MAX_MAPPINGS; i++)
        if (mappings[i].start == NULL) {
            mappings[i].start = mem;
            mappings[i].len = len;
            break;
        }
    return (long)mem;
}

/* sigaltstack(new, old): accepted; the old stack is none (SS_DISABLE). */
static long sigaltstack_(void *old)
{
    struct {
        void *sp;
        int flags;
        size_t size;
    } *out = old;
    if (out != NULL) {
        out->sp = NULL;
        out->flags = 2; /* SS_DISABLE */
        out->size = 0;
    }
    return 0;
}

/* The name of system call number n in unsupported paths' messages. */
__attribute__((noreturn)) static void unsupported(long n)
{
    char what[64] = "system call number ";
    size_t len = strlen(what);
    char digits[24];
    size_t k = 0;
    unsigned long v = (unsigned long)n;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (k > 0)
        what[len++] = digits[--k];
    memcpy(what + len, " (x86-64) is not modelled", sizeof " (x86-64) is not modelled");
    augur_sys_unsupported(what);
}

/* execve in the sandbox: the kernel looks the program up (a path naming nothing is
 * ENOENT, ENOTDIR, ...), then refuses to run what it found. */
static long exec_refused(const char *path)
{
    long r = kernel(faccessat(AT_FDCWD, path, 0 /* F_OK */, 0));
    return r == 0 ? -EACCES : r;
}

long __augur_syscall(long n, long a, long b, long c, long d, long e, long f)
{
    switch (n) {
    case SYS_read:
        return kernel(read((int)a, (void *)b, (size_t)c));
    case SYS_write:
        return kernel(write((int)a, (const void *)b, (size_t)c));
    case SYS_open:
        return kernel(openat(AT_FDCWD, (const char *)a, (int)b, (int)c));
    case SYS_openat:
        return kernel(openat((int)a, (const char *)b, (int)c, (int)d));
    case SYS_close:
        return kernel(close((int)a));
    case SYS_stat:
        return kernel(stat((const char *)a, (struct stat *)b));
    case SYS_fstat:
        return kernel(fstat((int)a, (struct stat *)b));
    case SYS_lstat:
        return kernel(lstat((const char *)a, (struct stat *)b));
    case SYS_newfstatat:
        return kernel(fstatat((int)a, (const char *)b, (struct stat *)c, (int)d));
    case SYS_statx:
        return kernel(statx((int)a, (const char *)b, (int)c, (unsigned)d, (void *)e));
    case SYS_lseek:
        return kernel(lseek((int)a, b, (int)c));
    case SYS_ioctl:
        return kernel(ioctl((int)a, (unsigned long)b, (void *)c));
    case SYS_pread64:
        return kernel(pread((int)a, (void *)b, (size_t)c, d));
    case SYS_pwrite64:
        return kernel(pwrite((int)a, (const void *)b, (size_t)c, d));
    case SYS_readv:
    case SYS_writev:
        return vectored(n == SYS_writev, (int)a, (const struct iovec_ *)b, c);
    case SYS_access:
        return kernel(faccessat(AT_FDCWD, (const char *)a, (int)b, 0));
    case SYS_faccessat:
    case SYS_faccessat2:
        return kernel(faccessat((int)a, (const char *)b, (int)c, n == SYS_faccessat ? 0 : (int)d));
    case SYS_symlink:
        return kernel(symlinkat((const char *)a, AT_FDCWD, (const char *)b));
    case SYS_symlinkat:
        return kernel(symlinkat((const char *)a, (int)b, (const char *)c));
    case SYS_readlink:
        return kernel(readlinkat(AT_FDCWD, (const char *)a, (char *)b, (size_t)c));
    case SYS_readlinkat:
        return kernel(readlinkat((int)a, (const char *)b, (char *)c, (size_t)d));
    case SYS_unlink:
        return kernel(unlinkat(AT_FDCWD, (const char *)a, 0));
    case SYS_unlinkat:
        return kernel(unlinkat((int)a, (const char *)b, (int)c));
    case SYS_pipe:
        return kernel(pipe2((int *)a, 0));
    case SYS_pipe2:
        return kernel(pipe2((int *)a, (int)b));
    case SYS_getcwd:
        return kernel(augur_sys_getcwd((char *)a, (unsigned long)b));
    case SYS_chdir:
        return kernel(chdir((const char *)a));
    case SYS_fchdir:
        return kernel(fchdir((int)a));
    case SYS_mkdir:
        return kernel(mkdir((const char *)a, (unsigned)b));
    case SYS_mkdirat:
        return kernel(mkdirat((int)a, (const char *)b, (unsigned)c));
    case SYS_rmdir:
        return kernel(rmdir((const char *)a));
    case SYS_rename:
        return kernel(rename((const char *)a, (const char *)b));
    case SYS_renameat:
        return kernel(renameat((int)a, (const char *)b, (int)c, (const char *)d));
    case SYS_renameat2:
        return kernel(renameat2((int)a, (const char *)b, (int)c, (const char *)d, (unsigned)e));
    case SYS_link:
        return kernel(linkat(AT_FDCWD, (const char *)a, AT_FDCWD, (const char *)b, 0));
    case SYS_linkat:
        return kernel(linkat((int)a, (const char *)b, (int)c, (const char *)d, (int)e));
    case SYS_mknod:
        return kernel(mknodat(AT_FDCWD, (const char *)a, (unsigned)b, (unsigned long)c));
    case SYS_mknodat:
        return kernel(mknodat((int)a, (const char *)b, (unsigned)c, (unsigned long)d));
    case SYS_utimensat:
        return kernel(utimensat((int)a, (const char *)b, (const void *)c, (int)d));
    case SYS_umask:
        return umask((unsigned)a);
    case SYS_chmod:
        return kernel(chmod((const char *)a, (unsigned)b));
    case SYS_fchmod:
        return kernel(fchmod((int)a, (unsigned)b));
    case SYS_fchmodat:
        return kernel(fchmodat((int)a, (const char *)b, (unsigned)c, 0));
    case SYS_fchmodat2:
        return kernel(fchmodat((int)a, (const char *)b, (unsigned)c, (int)d));
    case SYS_chown:
        return kernel(chown((const char *)a, (unsigned)b, (unsigned)c));
    case SYS_lchown:
        return kernel(lchown((const char *)a, (unsigned)b, (unsigned)c));
    case SYS_fchown:
        return kernel(fchown((int)a, (unsigned)b, (unsigned)c));
    case SYS_fchownat:
        return kernel(fchownat((int)a, (const char *)b, (unsigned)c, (unsigned)d, (int)e));
    case SYS_statfs:
        return kernel(statfs((const char *)a, (void *)b));
    case SYS_fstatfs:
        return kernel(fstatfs((int)a, (void *)b));
    case SYS_dup:
        return kernel(dup((int)a));
    case SYS_dup2:
        return kernel(dup2((int)a, (int)b));
    case SYS_dup3:
        return kernel(dup3((int)a, (int)b, (int)c));
    case SYS_fcntl:
        return kernel(fcntl((int)a, (int)b, c));
    case SYS_fsync:
        return kernel(fsync((int)a));
    case SYS_fdatasync:
        return kernel(fdatasync((int)a));
    case SYS_truncate:
        return truncate_((const char *)a, b);
    case SYS_ftruncate:
        return kernel(ftruncate((int)a, b));
    case SYS_getpid:
    case SYS_gettid:
        return getpid();
    case SYS_getppid:
        return getppid();
    case SYS_getuid:
        return getuid();
    case SYS_geteuid:
        return geteuid();
    case SYS_getgid:
        return getgid();
    case SYS_getegid:
        return getegid();
    case SYS_time:
        return time((long *)a);
    case SYS_clock_gettime:
        return kernel(clock_gettime((int)a, (void *)b));
    case SYS_gettimeofday:
        return kernel(gettimeofday((void *)a, (void *)b));
    case SYS_nanosleep:
        return kernel(nanosleep((const void *)a, (void *)b));
    case SYS_clock_nanosleep: /* an error is returned, not set in errno */
        return b & 1 ? 0 : -(long)(nanosleep((const void *)c, (void *)d) == 0 ? 0 : errno);
    case SYS_sched_yield:
        return 0;
    case SYS_sched_getaffinity:
        return kernel(sched_getaffinity((int)a, (size_t)b, (unsigned long *)c)) == 0 ? 8 : -(long)errno;
    case SYS_getrlimit:
        return kernel(getrlimit((int)a, (void *)b));
    case SYS_setrlimit:
        return kernel(setrlimit((int)a, (const void *)b));
    case SYS_prlimit64:
        return prlimit(a, (int)b, (const void *)c, (void *)d);
    case SYS_getrandom:
        return kernel(getrandom((void *)a, (size_t)b, (unsigned)c));
    case SYS_uname:
        return uname_((char (*)[65])a);
    case SYS_getgroups:
        return getgroups_(a, (unsigned *)b);
    case SYS_sysinfo:
        return sysinfo_((struct kernel_sysinfo *)a);
    case SYS_sendfile:
        return sendfile_((int)a, (int)b, (long *)c, (size_t)d);
    case SYS_rt_sigprocmask:
        return rt_sigprocmask((int)a, (const unsigned long *)b, (unsigned long *)c, (size_t)d);
    case SYS_kill:
        return kill_(a, b);
    case SYS_chroot:
        return chroot_((const char *)a);
    case SYS_sync:
        return 0; /* every write is already where a read finds it */
    case SYS_syncfs:
        return kernel(fsync((int)a));
    case SYS_getpriority:
        return getpriority_(a, b);
    case SYS_setpriority:
        return setpriority_(a, b, c);
    case SYS_setpgid:
        return setpgid_(a, b);
    case SYS_getpgid: /* the process leads its own group and session */
    case SYS_getsid:
        return a == 0 || a == OWN_PID ? OWN_PID : -ESRCH;
    case SYS_setsid: /* a group leader cannot start a session */
        return -EPERM;
    case SYS_sethostname: /* the user is not root */
    case SYS_setdomainname:
        return -EPERM;
    case SYS_fork:
    case SYS_vfork:
    case SYS_clone:
    case SYS_clone3:
        return -EAGAIN;
    case SYS_execve: /* looked up before refused: a path naming nothing is ENOENT */
        return exec_refused((const char *)a);
    case SYS_execveat:
    case SYS_socket:
    case SYS_socketpair:
        return -EACCES;
    case SYS_wait4:
    case SYS_waitid:
        return -ECHILD;
    case SYS_mmap:
        return mmap_((size_t)b, (int)c, (int)d, (int)e, f);
    case SYS_munmap:
        return munmap_((char *)a, (size_t)b);
    case SYS_mprotect:
    case SYS_madvise:
        return 0;
    case SYS_mincore:
        return -ENOSYS;
    case SYS_sigaltstack:
        return sigaltstack_((void *)b);
    default:
        unsupported(n);
    }
}
