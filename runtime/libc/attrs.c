/*
 * attrs.c - what files are beyond their contents: modes (umask, chmod and its
 * f/at forms), owners (chown and its f/l/at forms), times (utimensat, which
 * musl's futimens, utimes and utime call), and the file system they are on
 * (statfs, fstatfs, and statvfs and fstatvfs as glibc derives them).
 *
 * - Modes are kept by the engine (augur-env/src/modes.rs): chmod's bits are
 *   what stat reports after; open's and mkdir's modes pass through the
 *   creation mask.  They are not enforced (the user may read and write what
 *   exists, as root does natively).
 * - The user owns every file (process.c's user 1000, group 1000) and, not
 *   being root, may only "give" a file to itself: chown to any other owner or
 *   group fails with EPERM, as it does natively for a user who is not root.
 * - Times are not kept: stat reports the models' fixed time for every file
 *   (time.c's clock), so utimensat checks its arguments and the file only.
 * - The file system is one ext4 volume of 1 GiB, half free; `augur replay`
 *   makes the native statfs answer the same (runtime/replay/replay.c).
 */
#include "libc_internal.h"
#include "../fixed_user.h"
#include "../fixed_volume.h"

#define EPERM 1
#define EBADF 9
#define ENOTDIR 20
#define EFAULT 14
#define EINVAL 22
#define EOPNOTSUPP 95
#define S_IFMT 0170000
#define S_IFLNK 0120000
#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH 0x1000
#define USER_ID AUGUR_USER_ID
#define NO_CHANGE ((unsigned)-1)


unsigned umask(unsigned mask) { return augur_sys_umask(mask); }

int chmod(const char *path, unsigned mode) { return augur_sys_chmod(-1, path, mode); }

/* A directory's descriptor changes the directory, by its name. */
int fchmod(int fd, unsigned mode)
{
    char name[AUGUR_PATH_MAX];
    if (augur_sys_fd_dir(fd, name, sizeof name) > 0)
        return chmod(name, mode);
    return augur_sys_chmod(fd, NULL, mode);
}

/* Is path's last component a symbolic link? */
static int is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK;
}

int fchmodat(int dirfd, const char *path, unsigned mode, int flags)
{
    char buf[AUGUR_PATH_MAX];
    if (flags & ~AT_SYMLINK_NOFOLLOW) {
        errno = EINVAL;
        return -1;
    }
    if ((path = __augur_at(dirfd, path, buf)) == NULL)
        return -1;
    /* A link's own mode cannot be changed on Linux (glibc: EOPNOTSUPP). */
    if ((flags & AT_SYMLINK_NOFOLLOW) && is_link(path)) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return chmod(path, mode);
}

/* The user may keep the owner and group as they are (each -1 or the user's). */
static int owners(unsigned uid, unsigned gid)
{
    if ((uid != NO_CHANGE && uid != USER_ID) || (gid != NO_CHANGE && gid != USER_ID)) {
        errno = EPERM;
        return -1;
    }
    return 0;
}

int chown(const char *path, unsigned uid, unsigned gid)
{
    struct stat st;
    return stat(path, &st) < 0 ? -1 : owners(uid, gid);
}

/* The link itself (a dangling one too), not what it names. */
int lchown(const char *path, unsigned uid, unsigned gid)
{
    struct stat st;
    return lstat(path, &st) < 0 ? -1 : owners(uid, gid);
}

int fchown(int fd, unsigned uid, unsigned gid)
{
    struct stat st;
    return fstat(fd, &st) < 0 ? -1 : owners(uid, gid);
}

int fchownat(int dirfd, const char *path, unsigned uid, unsigned gid, int flags)
{
    char buf[AUGUR_PATH_MAX];
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
        errno = EINVAL;
        return -1;
    }
    if (path[0] == '\0' && (flags & AT_EMPTY_PATH))
        return fchown(dirfd, uid, gid);
    if ((path = __augur_at(dirfd, path, buf)) == NULL)
        return -1;
    return (flags & AT_SYMLINK_NOFOLLOW) ? lchown(path, uid, gid) : chown(path, uid, gid);
}

/* utimensat's special nanosecond values: the current time, or no change. */
#define UTIME_NOW ((1L << 30) - 1)
#define UTIME_OMIT ((1L << 30) - 2)

struct utime_spec {
    long sec, nsec;
};

/* Linux's utimensat: path NULL (or empty, with AT_EMPTY_PATH) stands for dirfd's
 * own file; with both times UTIME_OMIT nothing is looked at. */
int utimensat(int dirfd, const char *path, const struct utime_spec times[2], int flags)
{
    struct stat st;
    int i;
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
        errno = EINVAL;
        return -1;
    }
    for (i = 0; times != NULL && i < 2; i++)
        if (times[i].nsec != UTIME_NOW && times[i].nsec != UTIME_OMIT &&
            (times[i].nsec < 0 || times[i].nsec > 999999999L)) {
            errno = EINVAL;
            return -1;
        }
    if (times != NULL && times[0].nsec == UTIME_OMIT && times[1].nsec == UTIME_OMIT)
        return 0;
    if (path == NULL && dirfd == AT_FDCWD) {
        errno = EFAULT;
        return -1;
    }
    if (path == NULL || (path[0] == '\0' && (flags & AT_EMPTY_PATH)))
        return fstat(dirfd, &st);
    return fstatat(dirfd, path, &st, flags & AT_SYMLINK_NOFOLLOW);
}

/* The kernel's struct statfs on x86-64 (glibc's and musl's). */
struct statfs {
    long f_type, f_bsize;
    unsigned long f_blocks, f_bfree, f_bavail, f_files, f_ffree;
    int f_fsid[2];
    long f_namelen, f_frsize, f_flags, f_spare[4];
};

/* The one modelled volume (replay.c's native statfs answers the same). */
static int volume(struct statfs *out)
{
    AUGUR_FIXED_VOLUME(out);
    return 0;
}

int statfs(const char *path, struct statfs *out)
{
    struct stat st;
    return stat(path, &st) < 0 ? -1 : volume(out);
}

int fstatfs(int fd, struct statfs *out)
{
    struct stat st;
    return fstat(fd, &st) < 0 ? -1 : volume(out);
}

int statfs64(const char *path, struct statfs *out) { return statfs(path, out); }
int fstatfs64(int fd, struct statfs *out) { return fstatfs(fd, out); }

/* glibc's struct statvfs on x86-64. */
struct statvfs {
    unsigned long f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree, f_favail;
    unsigned long f_fsid, f_flag, f_namemax;
    int f_spare[6];
};

/* statvfs from statfs, as glibc makes it. */
static int as_vfs(int r, const struct statfs *fs, struct statvfs *out)
{
    if (r < 0)
        return r;
    AUGUR_VOLUME_AS_VFS(fs, out);
    return 0;
}

int statvfs(const char *path, struct statvfs *out)
{
    struct statfs fs;
    return as_vfs(statfs(path, &fs), &fs, out);
}

int fstatvfs(int fd, struct statvfs *out)
{
    struct statfs fs;
    return as_vfs(fstatfs(fd, &fs), &fs, out);
}

int statvfs64(const char *path, struct statvfs *out) { return statvfs(path, out); }
int fstatvfs64(int fd, struct statvfs *out) { return fstatvfs(fd, out); }
