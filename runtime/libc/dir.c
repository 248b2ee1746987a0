/*
 * dir.c - directories over the modelled files (opendir, readdir, closedir,
 * rewinddir, dirfd; the directory part of stat), statx over the same stat
 * model, the device-number functions, readlink, and the access variants
 * (euidaccess, eaccess, faccessat).
 *
 * The modelled files are what `augur replay` puts in the native program's
 * working directory; a name holding '/' is a file in a subdirectory.  So the
 * directories are the working directory ("."), its parent (".."), /tmp, every
 * leading part of a file's name that ends before a '/', and those mkdir made
 * (augur-env/src/namespace.rs resolves paths from the current directory: the
 * names here are its, relative to the working directory).  A directory lists
 * ".", ".." and then its files and subdirectories in byte order of their names
 * (the native replay lists directories so too, whatever the file system's
 * order).  Directories have the modes chmod gives them (augur-env's
 * modes.rs; 0755 at first, 0111 for "..", 01777 for /tmp), inode numbers
 * in the order they were made (fixed_volume.h).  A stream holds a descriptor of its directory, as glibc's
 * does: opendir opens one (and fstats it), fdopendir takes one, dirfd gives
 * it, closedir closes it; so `--max-fail` makes those system calls fail as
 * they do natively, and descriptors are numbered as they are natively.
 */
#include "libc_internal.h"
#include "../fixed_volume.h"

#define ENOTDIR 20
#define EACCES 13
#define ENAMETOOLONG 36
#define AT_FDCWD (-100)
#define AT_EMPTY_PATH 0x1000
#define DT_FIFO 1
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#define S_IFIFO 0010000
#define S_IFMT 0170000
#define O_DIRECTORY 0200000
#define O_CLOEXEC 02000000
#define PATH_LEN 4096

/* Primitive (engine): the name of file number index, see augur_sys.h. */
long augur_sys_name(unsigned long index, char *buf, unsigned long cap);

/* Inode numbers (fixed_volume.h): a file's is given by its number (fd.c), a directory's
 * by the number of the first entry inside it (its own, for one mkdir made); the working
 * directory, its parent and /tmp have theirs. */
#define CWD_INO AUGUR_FIXED_INO_WORK
#define PARENT_INO AUGUR_FIXED_INO_PARENT
#define TMP_INO AUGUR_FIXED_INO_TMP
/* The temporary directory (augur-env's namespace.rs): made files live there too. */
#define TMP_DIR "/tmp"
/* The working directory's absolute name (augur-env's namespace.rs). */
#define WORK_DIR "/augur/work"

/* The name path gives inside the working directory, into out: "" is the
 * working directory.  1 for its parent, -1 for a path outside it; 0 otherwise
 * (the engine resolves it from the current directory, see augur_sys.h). */
static int canonical(const char *path, char *out)
{
    return (int)augur_sys_path(path, out, PATH_LEN);
}

/* Is name inside directory dir ("" for the working directory)?  Returns the
 * part of name after "dir/", or NULL. */
static const char *inside(const char *name, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 0)
        return name;
    if (strncmp(name, dir, n) == 0 && name[n] == '/')
        return name + n + 1;
    return NULL;
}

/* The name of file number i into buf: its length, 0 for an unlinked file,
 * -1 past the last one. */
static long file_name(unsigned long i, char *buf)
{
    long n = augur_sys_name(i, buf, PATH_LEN);
    return n >= PATH_LEN ? 0 : n;
}

/* Number of the first file inside dir, -1 if there is none. */
static long first_inside(const char *dir)
{
    char name[PATH_LEN];
    long i, n;
    for (i = 0; (n = file_name((unsigned long)i, name)) >= 0; i++) {
        if (n > 0 && inside(name, dir) != NULL)
            return i;
    }
    return -1;
}

/* The inode number of the directory dir (canonical: "" the working directory), 0 when
 * nothing is inside it (no such directory): a directory mkdir made has its marker's
 * number, one that is only the leading part of file names that of its first file. One
 * pass over the files: the first inside comes no later than the marker. */
static unsigned long dir_ino(const char *dir)
{
    char name[PATH_LEN];
    size_t len = strlen(dir);
    long i, n, first = -1;
    if (len == 0)
        return CWD_INO;
    if (strcmp(dir, TMP_DIR) == 0)
        return TMP_INO;
    for (i = 0; (n = file_name((unsigned long)i, name)) >= 0; i++) {
        if (n == 0 || inside(name, dir) == NULL)
            continue;
        if ((size_t)n == len + 1) /* its marker */
            return AUGUR_FIXED_INO(i);
        if (first < 0)
            first = i;
    }
    return first < 0 ? 0 : AUGUR_FIXED_INO(first);
}

/* The inode number of dir's parent (canonical, as dir_ino's). */
static unsigned long parent_ino(const char *dir)
{
    char parent[PATH_LEN];
    const char *slash = strrchr(dir, '/');
    if (dir[0] == '\0' || slash == dir) /* the working directory, or /tmp */
        return PARENT_INO;
    if (slash == NULL)
        return CWD_INO;
    memcpy(parent, dir, (size_t)(slash - dir));
    parent[slash - dir] = '\0';
    return dir_ino(parent);
}

/* Number of subdirectories directly in dir (for its link count). */
static unsigned long subdirectories(const char *dir)
{
    char name[PATH_LEN], sub[PATH_LEN];
    unsigned long count = 0;
    long i, n;
    for (i = 0; (n = file_name((unsigned long)i, name)) >= 0; i++) {
        const char *rest = n > 0 ? inside(name, dir) : NULL;
        const char *slash = rest ? strchr(rest, '/') : NULL;
        size_t len;
        if (slash == NULL)
            continue;
        /* Count each subdirectory at its first file. */
        len = (size_t)(rest - name) + (size_t)(slash - rest);
        memcpy(sub, name, len);
        sub[len] = '\0';
        if (first_inside(sub) == i)
            count++;
    }
    return count;
}

int __augur_directory(const char *path, unsigned long info[3])
{
    char dir[PATH_LEN];
    unsigned long ino;
    int c = path[0] == '\0' ? -1 : canonical(path, dir);

    if (c < 0)
        return 0;
    if (c == 1) {
        info[0] = 3;
        info[1] = PARENT_INO;
        info[2] = 0111; /* passed through, never listed (the replay makes it so) */
        return 1;
    }
    ino = dir_ino(dir); /* /tmp's and the working directory's: always there */
    if (ino == 0)
        return 0;
    info[0] = 2 + subdirectories(dir);
    info[1] = ino;
    info[2] = strcmp(dir, TMP_DIR) == 0 ? 01777 : (unsigned long)augur_sys_mode(-1, path);
    return 1;
}

/* ---- directory streams ------------------------------------------------ */

/* glibc's struct dirent (and dirent64) on x86-64. */
struct dirent {
    unsigned long d_ino;
    long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

typedef struct augur_dir {
    int fd;                /* the directory's descriptor */
    char path[PATH_LEN];   /* canonical */
    long next;             /* 0 ".", 1 "..", then 2 + k: the k-th of `listed` */
    struct dirent *listed; /* the other entries, by name */
    long count;            /* how many `listed` holds; -1 until they are read */
    struct dirent entry;
} DIR;

/* A stream over the directory descriptor fd (checked by fstat), or NULL with
 * errno. */
static DIR *stream(int fd)
{
    struct stat st;
    char name[PATH_LEN];
    DIR *d;

    if (fstat(fd, &st) < 0)
        return NULL;
    if ((st.st_mode & S_IFMT) != S_IFDIR) {
        errno = ENOTDIR;
        return NULL;
    }
    d = malloc(sizeof *d);
    if (d == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    if (augur_sys_fd_dir(fd, name, sizeof name) < 0 || canonical(name, d->path) != 0) {
        /* The ancestors of the working directory are not listed. */
        free(d);
        errno = EACCES;
        return NULL;
    }
    d->fd = fd;
    d->next = 0;
    d->listed = NULL;
    d->count = -1;
    return d;
}

DIR *opendir(const char *path)
{
    DIR *d;
    int fd = open(path, AUGUR_O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    d = stream(fd);
    if (d == NULL) {
        int e = errno;
        close(fd); /* as glibc, ignoring a failure */
        errno = e;
    }
    return d;
}

DIR *fdopendir(int fd) { return stream(fd); }

static struct dirent *entry(DIR *d, unsigned long ino, unsigned char type, const char *name,
                            size_t len)
{
    if (len > 255)
        len = 255;
    d->entry.d_ino = ino;
    d->entry.d_off = d->next;
    d->entry.d_type = type;
    memcpy(d->entry.d_name, name, len);
    d->entry.d_name[len] = '\0';
    d->entry.d_reclen = (unsigned short)((offsetof(struct dirent, d_name) + len + 8) & ~7UL);
    return &d->entry;
}

/* The entry of the file named `name` (inside the tree) listed as `rest`: its number
 * and type are stat's (a hard link has the number of the file it names), a symbolic
 * link's its own. */
static struct dirent *file_entry(DIR *d, const char *name, const char *rest)
{
    char path[PATH_LEN + sizeof WORK_DIR];
    unsigned long info[2] = {0, 0};
    size_t n = name[0] == '/' ? 0 : sizeof WORK_DIR;
    unsigned char type = DT_REG;
    memcpy(path, WORK_DIR "/", n);
    memcpy(path + n, name, strlen(name) + 1);
    if (augur_sys_readlink(path, NULL, 0, &info[1]) >= 0)
        type = DT_LNK;
    else if (augur_sys_stat(-1, path, info) == 5)
        type = info[0] == S_IFIFO ? DT_FIFO : DT_SOCK;
    return entry(d, AUGUR_FIXED_INO(info[1]), type, rest, strlen(rest));
}

/* The entries of d's directory but "." and ".." into d->listed, in file-number
 * order (a subdirectory at its first file); -1 (ENOMEM) if they do not fit. */
static int scan(DIR *d)
{
    char name[PATH_LEN], sub[PATH_LEN];
    long n, cap = 0;
    unsigned long i;

    d->count = 0;
    for (i = 0; (n = file_name(i, name)) >= 0; i++) {
        const char *rest = n > 0 ? inside(name, d->path) : NULL;
        const char *slash;
        if (rest == NULL || rest[0] == '\0') /* not here, or this directory's mkdir marker */
            continue;
        slash = strchr(rest, '/');
        if (slash == NULL) {
            file_entry(d, name, rest);
        } else {
            /* A subdirectory: listed at its first file. */
            memcpy(sub, name, (size_t)(slash - name));
            sub[slash - name] = '\0';
            if (first_inside(sub) != (long)i)
                continue;
            entry(d, dir_ino(sub), DT_DIR, rest, (size_t)(slash - rest));
        }
        if (d->count == cap) {
            struct dirent *more;
            cap = cap ? 2 * cap : 8;
            more = realloc(d->listed, (size_t)cap * sizeof *more);
            if (more == NULL) {
                d->count = -1;
                errno = ENOMEM;
                return -1;
            }
            d->listed = more;
        }
        d->listed[d->count++] = d->entry;
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct dirent *)a)->d_name, ((const struct dirent *)b)->d_name);
}

/* ".", "..", then the other entries in byte order of their names (the fixed world's
 * order: `augur replay` lists the native directories so, whatever the file system's
 * order, and `ls -f` agrees). */
struct dirent *readdir(DIR *d)
{
    long k = d->next - 2;

    if (d->next == 0) {
        d->next = 1;
        return entry(d, dir_ino(d->path), DT_DIR, ".", 1);
    }
    if (d->next == 1) {
        d->next = 2;
        return entry(d, parent_ino(d->path), DT_DIR, "..", 2);
    }
    if (d->count < 0) {
        if (scan(d) < 0)
            return NULL;
        if (d->count > 1)
            qsort(d->listed, (size_t)d->count, sizeof *d->listed, by_name);
    }
    if (k >= d->count)
        return NULL;
    d->entry = d->listed[k];
    d->entry.d_off = ++d->next;
    return &d->entry;
}

struct dirent *readdir64(DIR *d) { return readdir(d); }

int closedir(DIR *d)
{
    int fd = d->fd;
    free(d->listed);
    free(d);
    return close(fd);
}

/* From the start again, listing what is there now. */
void rewinddir(DIR *d)
{
    free(d->listed);
    d->listed = NULL;
    d->count = -1;
    d->next = 0;
}

int dirfd(DIR *d) { return d->fd; }

/* ---- statx ------------------------------------------------------------- */

struct statx_timestamp {
    long tv_sec;
    unsigned int tv_nsec;
    int reserved;
};

/* Linux's struct statx. */
struct statx {
    unsigned int stx_mask, stx_blksize;
    unsigned long stx_attributes;
    unsigned int stx_nlink, stx_uid, stx_gid;
    unsigned short stx_mode, spare0;
    unsigned long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
    struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
    unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
    unsigned long stx_mnt_id, spare2, spare3[12];
};

#define STATX_BASIC_STATS 0x7ffU

static struct statx_timestamp stamp(long sec, long nsec)
{
    struct statx_timestamp t;
    t.tv_sec = sec;
    t.tv_nsec = (unsigned int)nsec;
    t.reserved = 0;
    return t;
}

/* <sys/sysmacros.h>'s functions (major(), minor() and makedev() call them at -O0). */
unsigned int gnu_dev_major(unsigned long dev)
{
    return (unsigned int)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffUL));
}

unsigned int gnu_dev_minor(unsigned long dev)
{
    return (unsigned int)((dev & 0xff) | ((dev >> 12) & ~0xffUL));
}

unsigned long gnu_dev_makedev(unsigned int major, unsigned int minor)
{
    return ((unsigned long)(major & 0xfff) << 8) | ((unsigned long)(major & ~0xfffU) << 32) |
           (minor & 0xff) | ((unsigned long)(minor & ~0xffU) << 12);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *out)
{
    struct stat st;
    int r;

    (void)mask; /* every basic field is always known */
    if (path[0] == '\0' && (flags & AT_EMPTY_PATH))
        r = fstat(dirfd, &st);
    else
        r = fstatat(dirfd, path, &st, flags);
    if (r < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->stx_mask = STATX_BASIC_STATS;
    out->stx_blksize = (unsigned int)st.st_blksize;
    out->stx_nlink = (unsigned int)st.st_nlink;
    out->stx_uid = st.st_uid;
    out->stx_gid = st.st_gid;
    out->stx_mode = (unsigned short)st.st_mode;
    out->stx_ino = st.st_ino;
    out->stx_size = (unsigned long)st.st_size;
    out->stx_blocks = (unsigned long)st.st_blocks;
    out->stx_atime = stamp(st.st_atime_sec, st.st_atime_nsec);
    out->stx_ctime = stamp(st.st_ctime_sec, st.st_ctime_nsec);
    out->stx_mtime = stamp(st.st_mtime_sec, st.st_mtime_nsec);
    out->stx_rdev_major = gnu_dev_major(st.st_rdev);
    out->stx_rdev_minor = gnu_dev_minor(st.st_rdev);
    out->stx_dev_major = gnu_dev_major(st.st_dev);
    out->stx_dev_minor = gnu_dev_minor(st.st_dev);
    return 0;
}

/* ---- symbolic links ------------------------------------------------------ */

/* One stat for --max-fail (the native run's seccomp filter counts readlink so). */
long readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
    char at[PATH_LEN];
    unsigned long number;
    long n;
    int e = augur_sys_fail(AUGUR_FAIL_STAT);
    if (e != 0) {
        errno = e;
        return -1;
    }
    if ((path = __augur_at(dirfd, path, at)) == NULL)
        return -1;
    if ((long)len <= 0) {
        errno = EINVAL;
        return -1;
    }
    n = augur_sys_readlink(path, buf, len, &number);
    return n < 0 ? -1 : n < (long)len ? n : (long)len;
}

long readlink(const char *path, char *buf, size_t len)
{
    return readlinkat(AT_FDCWD, path, buf, len);
}

/* ---- access variants ---------------------------------------------------- */

/* The process's real and effective ids are the same user, who owns every
 * modelled file and directory: any existing path grants every access. */
int faccessat(int dirfd, const char *path, int mode, int flags)
{
    struct stat st;
    (void)mode;
    (void)flags;
    return fstatat(dirfd, path, &st, 0) < 0 ? -1 : 0;
}

int euidaccess(const char *path, int mode) { return faccessat(AT_FDCWD, path, mode, 0); }
int eaccess(const char *path, int mode) { return euidaccess(path, mode); }
