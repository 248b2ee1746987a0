/*
 * shim.c - host implementations of the augur_sys_* primitives for the
 * native test build.  Output to fds 1 and 2 can be captured into a buffer;
 * stdin (fd 0) can be fed from a string; other fds are real files.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "shim.h"

char shim_out[1 << 16];
size_t shim_out_len;
int shim_capture = 1;
const char *shim_stdin_data = "";
size_t shim_stdin_pos;
size_t shim_stdin_chunk = 1 << 20; /* max bytes returned per read */

long augur_sys_write(int fd, const void *buf, unsigned long n)
{
    if ((fd == 1 || fd == 2) && shim_capture) {
        if (shim_out_len + n < sizeof shim_out) {
            memcpy(shim_out + shim_out_len, buf, n);
            shim_out_len += n;
            shim_out[shim_out_len] = 0;
        }
        return (long)n;
    }
    return write(fd, buf, n);
}

long augur_sys_read(int fd, void *buf, unsigned long n)
{
    if (fd == 0) {
        size_t left = strlen(shim_stdin_data) - shim_stdin_pos;
        if (n > left)
            n = left;
        if (n > shim_stdin_chunk)
            n = shim_stdin_chunk;
        memcpy(buf, shim_stdin_data + shim_stdin_pos, n);
        shim_stdin_pos += n;
        return (long)n;
    }
    return read(fd, buf, n);
}

/* The name each directory descriptor was opened by (the tests never change
 * directory, so it names the same directory as the engine's absolute name). */
static char shim_dir_names[64][256];

int augur_sys_open(const char *path, int flags, unsigned mode)
{
    struct stat st;
    int fd = open(path, flags, mode);
    if (fd >= 0 && fd < 64 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(shim_dir_names[fd], sizeof shim_dir_names[fd], "%s", path);
    return fd;
}

long augur_sys_fd_dir(int fd, char *buf, unsigned long size)
{
    struct stat st;
    size_t n;
    if (fstat(fd, &st) < 0)
        return -1;
    if (!S_ISDIR(st.st_mode) || fd >= 64) {
        errno = ENOTDIR;
        return -1;
    }
    n = strlen(shim_dir_names[fd]) + 1;
    if (n > size) {
        errno = ERANGE;
        return -1;
    }
    memcpy(buf, shim_dir_names[fd], n);
    return (long)n;
}

int augur_sys_mode(int fd, const char *path)
{
    struct stat st;
    if ((path != NULL ? stat(path, &st) : fstat(fd, &st)) < 0)
        return -1;
    return (int)(st.st_mode & 07777);
}

int augur_sys_close(int fd)
{
    if (fd <= 2)
        return 0;
    return close(fd);
}

long augur_sys_lseek(int fd, long off, int whence)
{
    return lseek(fd, off, whence);
}

int augur_sys_dup(int fd, int min)
{
    return fcntl(fd, F_DUPFD, min);
}

int augur_sys_stat(int fd, const char *path, unsigned long out[2])
{
    struct stat st;
    if ((path != NULL ? stat(path, &st) : fstat(fd, &st)) < 0)
        return -1;
    if (path != NULL && S_ISDIR(st.st_mode)) {
        /* As the engine's: the primitive knows files only (dir.c does directories). */
        errno = ENOENT;
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return 3;
    if (!S_ISREG(st.st_mode))
        return 2;
    out[0] = (unsigned long)st.st_size;
    out[1] = (unsigned long)st.st_ino;
    return 1;
}

int augur_sys_unlink(const char *path)
{
    return unlink(path);
}

int augur_sys_link(const char *from, const char *to, int follow)
{
    return linkat(AT_FDCWD, from, AT_FDCWD, to, follow ? AT_SYMLINK_FOLLOW : 0);
}

int augur_sys_symlink(const char *target, const char *path)
{
    return symlink(target, path);
}

long augur_sys_readlink(const char *path, char *buf, unsigned long cap, unsigned long *number)
{
    char target[4096];
    struct stat st;
    long n;
    if (lstat(path, &st) < 0 || (n = readlink(path, target, sizeof target)) < 0)
        return -1;
    if (cap > 0)
        memcpy(buf, target, (unsigned long)n < cap ? (size_t)n : cap);
    *number = (unsigned long)st.st_ino;
    return n;
}

int augur_sys_mknod(const char *path, unsigned mode)
{
    return mknod(path, mode, 0);
}

int augur_sys_truncate(int fd, long len)
{
    return ftruncate(fd, len);
}

void augur_sys_unsupported(const char *what)
{
    write(2, what, strlen(what));
    _exit(125);
}

void augur_sys_signalled(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);
}

int augur_sys_fail(int kind)
{
    (void)kind;
    return 0;
}

int *augur_errno_location(void)
{
    return &errno;
}

void shim_reset_out(void)
{
    shim_out_len = 0;
    shim_out[0] = 0;
}

void shim_set_stdin(const char *s)
{
    shim_stdin_data = s;
    shim_stdin_pos = 0;
}

const char *const *shim_names = NULL;

long augur_sys_name(unsigned long index, char *buf, unsigned long cap)
{
    unsigned long i;
    size_t n;
    for (i = 0; shim_names != NULL && shim_names[i] != NULL; i++) {
        if (i < index)
            continue;
        n = strlen(shim_names[i]);
        if (cap > 0) {
            size_t k = n < cap - 1 ? n : cap - 1;
            memcpy(buf, shim_names[i], k);
            buf[k] = '\0';
        }
        return (long)n;
    }
    return -1;
}

/* As the engine's augur_sys_path, from the test's directory (it never changes):
 * "./" components, repeated and trailing slashes taken out; 1 for ".." alone,
 * -1 for other paths leaving the directory (absolute, through ".."). */
long augur_sys_path(const char *path, char *out, unsigned long cap)
{
    size_t n = 0;
    const char *p = path;

    if (strcmp(path, "..") == 0 || strcmp(path, "../") == 0)
        return 1;
    if (*p == '/')
        return -1;
    while (*p) {
        const char *c = p;
        size_t len;
        while (*p && *p != '/')
            p++;
        len = (size_t)(p - c);
        while (*p == '/')
            p++;
        if (len == 0 || (len == 1 && c[0] == '.'))
            continue;
        if (len == 2 && c[0] == '.' && c[1] == '.')
            return -1;
        if (n + len + 2 > cap)
            return -1;
        if (n > 0)
            out[n++] = '/';
        memcpy(out + n, c, len);
        n += len;
    }
    out[n] = '\0';
    return 0;
}

/* As the engine's augur_sys_pipe: a real pipe. */
int augur_sys_pipe(int fds[2])
{
    return pipe(fds);
}
