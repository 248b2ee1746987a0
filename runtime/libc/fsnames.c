/*
 * fsnames.c - the calls that change names in the modelled file system: mkdir,
 * rmdir, rename, link, symlink, mknod, chdir, getcwd (and their *at and f* forms; musl's
 * link, symlink, mknod and mkfifo reach these through their system calls), over the engine's
 * primitives (augur-env/src/namespace.rs), which resolve paths from the
 * current directory as Linux does.  The working directory's absolute name is
 * /augur/work (`augur replay` shows the native one by that name).  mkdir's
 * mode passes through the creation mask (augur-env/src/modes.rs).
 */
#include "libc_internal.h"

#define EBADF 9
#define ENOTDIR 20
#define EINVAL 22
#define ERANGE 34
#define EEXIST 17
#define ENOMEM 12
#define AT_FDCWD (-100)
#define F_GETFD 1
#define RENAME_NOREPLACE 1
#define AT_SYMLINK_FOLLOW 0x400
#define AT_EMPTY_PATH 0x1000

int mkdir(const char *path, unsigned mode)
{
    return augur_sys_mkdir(path, mode);
}

int mkdirat(int dirfd, const char *path, unsigned mode)
{
    char buf[AUGUR_PATH_MAX];
    return (path = __augur_at(dirfd, path, buf)) ? mkdir(path, mode) : -1;
}

int rmdir(const char *path) { return augur_sys_rmdir(path); }

int rename(const char *from, const char *to) { return augur_sys_rename(from, to); }

int renameat(int fromfd, const char *from, int tofd, const char *to)
{
    char a[AUGUR_PATH_MAX], b[AUGUR_PATH_MAX];
    if ((from = __augur_at(fromfd, from, a)) == NULL || (to = __augur_at(tofd, to, b)) == NULL)
        return -1;
    return rename(from, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned flags)
{
    struct stat st;
    if (flags & ~(unsigned)RENAME_NOREPLACE) {
        errno = EINVAL;
        return -1;
    }
    if (flags == RENAME_NOREPLACE && fstatat(tofd, to, &st, 0) == 0) {
        errno = EEXIST;
        return -1;
    }
    return renameat(fromfd, from, tofd, to);
}

/* link() does not follow a symbolic link in `from`'s last place (Linux); AT_SYMLINK_FOLLOW
 * does.  A descriptor's file cannot be linked by an empty path without
 * CAP_DAC_READ_SEARCH (the engine's empty path names nothing). */
int linkat(int fromfd, const char *from, int tofd, const char *to, int flags)
{
    char a[AUGUR_PATH_MAX], b[AUGUR_PATH_MAX];
    if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH)) {
        errno = EINVAL;
        return -1;
    }
    if ((from = __augur_at(fromfd, from, a)) == NULL || (to = __augur_at(tofd, to, b)) == NULL)
        return -1;
    return augur_sys_link(from, to, (flags & AT_SYMLINK_FOLLOW) != 0);
}

/* A symbolic link at path to target (any text; the link may dangle). */
int symlinkat(const char *target, int dirfd, const char *path)
{
    char buf[AUGUR_PATH_MAX];
    return (path = __augur_at(dirfd, path, buf)) ? augur_sys_symlink(target, path) : -1;
}

int symlink(const char *target, const char *path)
{
    return symlinkat(target, AT_FDCWD, path);
}

/* The device number matters to devices only, which the user may not make. */
int mknodat(int dirfd, const char *path, unsigned mode, unsigned long dev)
{
    char buf[AUGUR_PATH_MAX];
    (void)dev;
    return (path = __augur_at(dirfd, path, buf)) ? augur_sys_mknod(path, mode) : -1;
}

int chdir(const char *path) { return augur_sys_chdir(path); }

int fchdir(int fd)
{
    char name[AUGUR_PATH_MAX];
    return augur_sys_fd_dir(fd, name, sizeof name) < 0 ? -1 : chdir(name);
}

/* glibc's getcwd: with buf NULL, a new buffer of size bytes (or just enough, for 0). */
char *getcwd(char *buf, size_t size)
{
    char name[4096];
    long n;
    if (buf != NULL && size == 0) {
        errno = EINVAL;
        return NULL;
    }
    n = augur_sys_getcwd(name, sizeof name);
    if (n < 0)
        return NULL;
    if (size != 0 && (size_t)n > size) {
        errno = ERANGE;
        return NULL;
    }
    if (buf == NULL) {
        buf = malloc(size != 0 ? size : (size_t)n);
        if (buf == NULL) {
            errno = ENOMEM;
            return NULL;
        }
    }
    memcpy(buf, name, (size_t)n);
    return buf;
}
