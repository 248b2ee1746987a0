/* test_dir.c - directories (opendir/readdir), stat of directories, statx and
 * the access variants against glibc, in a real directory holding the files
 * the shim names (as augur replay lays out a test's files). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "model.h"
#include "shim.h"

void *model_opendir(const char *);
struct dirent *model_readdir(void *);
int model_closedir(void *);
void model_rewinddir(void *);
int model_stat(const char *, struct stat *);
int model_lstat(const char *, struct stat *);
int model_statx(int, const char *, int, unsigned int, struct statx *);
int model_euidaccess(const char *, int);
int model_faccessat(int, const char *, int, int);
unsigned int model_gnu_dev_major(unsigned long);
unsigned int model_gnu_dev_minor(unsigned long);
unsigned long model_gnu_dev_makedev(unsigned int, unsigned int);
long model_readlink(const char *, char *, size_t);
void model_explicit_bzero(void *, size_t);

int model_fnmatch(const char *, const char *, int);

/* fnmatch on every pattern, string and flag combination below. */
static void test_fnmatch(void)
{
    static const char *pats[] = {"*", "*~", ".*~", "a?c", "[abc]*", "[!abc]*", "[^a-c]x",
                                 "[]a]", "[!]]", "[a-]", "[", "a[", "\\*", "\\", "*.[ch]",
                                 "[[:digit:]]*", "[[:alpha:][:digit:]]", "[[:bogus:]]", "a*/b",
                                 "*/*", "?", "a/*", "[/]", "a\\/b", "A*", "[A-C]", "*a*b*c",
                                 "**", "[z-a]", "x[:]y", "[\\]]", "a", ""};
    static const char *strs[] = {"", "a", "abc", "a~", ".a~", "x~", "b", "]", "-", "[", "a[",
                                 "*", "\\", "f.c", "f.h", "f.o", "1x", "ax", "dx", "a/b",
                                 "a/.b", ".a", "/", "abc/d", "ABC", "B", "xaybzc", "x:y"};
    static const int flags[] = {0, FNM_NOESCAPE, FNM_PATHNAME, FNM_PERIOD,
                                FNM_PATHNAME | FNM_PERIOD, FNM_LEADING_DIR, FNM_CASEFOLD,
                                FNM_PATHNAME | FNM_LEADING_DIR};
    size_t i, j, k;
    for (i = 0; i < sizeof pats / sizeof pats[0]; i++)
        for (j = 0; j < sizeof strs / sizeof strs[0]; j++)
            for (k = 0; k < sizeof flags / sizeof flags[0]; k++) {
                int m = model_fnmatch(pats[i], strs[j], flags[k]);
                int g = fnmatch(pats[i], strs[j], flags[k]);
                CHECK(m == g, "fnmatch('%s', '%s', %#x): %d vs %d", pats[i], strs[j], flags[k],
                      m, g);
            }
}

/* Device numbers, readlink and lstat, explicit_bzero. */
static void test_misc(void)
{
    static const unsigned int nums[] = {0, 1, 3, 8, 255, 256, 4095, 4096, 1048575, 0x7fffffff};
    char buf[16] = "secret";
    size_t i, j;
    for (i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        for (j = 0; j < sizeof nums / sizeof nums[0]; j++) {
            unsigned long d = makedev(nums[i], nums[j]);
            CHECK(model_gnu_dev_makedev(nums[i], nums[j]) == d &&
                      model_gnu_dev_major(d) == major(d) && model_gnu_dev_minor(d) == minor(d),
                  "makedev(%u, %u)", nums[i], nums[j]);
        }
    }
    {
        /* "L" is a link to "sub/B" (test_directories); a short buffer truncates. */
        const char *paths[] = {"A", "sub", "missing", "L"};
        const size_t sizes[] = {sizeof buf, 3, 0};
        char mb[16], gb[16];
        for (i = 0; i < 4; i++) {
            for (j = 0; j < 3; j++) {
                int me, ge;
                long mr, gr;
                errno = 0; mr = model_readlink(paths[i], mb, sizes[j]); me = errno;
                errno = 0; gr = readlink(paths[i], gb, sizes[j]); ge = errno;
                CHECK(mr == gr && (mr < 0 ? me == ge : memcmp(mb, gb, (size_t)mr) == 0),
                      "readlink('%s', %zu): %ld %d vs %ld %d", paths[i], sizes[j], mr, me, gr,
                      ge);
            }
        }
    }
    {
        struct stat ms, gs;
        int mr = model_lstat("L", &ms), gr = lstat("L", &gs);
        CHECK(mr == 0 && gr == 0 && ms.st_mode == gs.st_mode && ms.st_size == gs.st_size,
              "lstat(link): %o %ld vs %o %ld", ms.st_mode, (long)ms.st_size, gs.st_mode,
              (long)gs.st_size);
        mr = model_stat("L", &ms);
        CHECK(mr == 0 && S_ISREG(ms.st_mode) && ms.st_size == 2, "stat(link)");
    }
    model_explicit_bzero(buf, sizeof buf);
    for (i = 0; i < sizeof buf; i++)
        CHECK(buf[i] == 0, "explicit_bzero");
}

/* "name/type" of every entry, sorted, joined by spaces. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void listing(int model, const char *path, char *out, size_t cap)
{
    char *names[64];
    int n = 0, i;
    struct dirent *e;
    void *md = model ? model_opendir(path) : NULL;
    DIR *gd = model ? NULL : opendir(path);
    out[0] = '\0';
    if (md == NULL && gd == NULL) {
        snprintf(out, cap, "error %d", errno);
        return;
    }
    while (n < 64 && (e = model ? model_readdir(md) : readdir(gd)) != NULL) {
        names[n] = malloc(strlen(e->d_name) + 4);
        sprintf(names[n++], "%s/%c", e->d_name, e->d_type == DT_DIR ? 'd' : 'f');
    }
    if (model)
        model_closedir(md);
    else
        closedir(gd);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (i = 0; i < n; i++) {
        strncat(out, names[i], cap - strlen(out) - 2);
        strcat(out, " ");
        free(names[i]);
    }
}

void test_dir(void)
{
    static const char *const names[] = {"A", "sub/B", "sub/deeper/C", "sub/D", "E", NULL};
    char root[] = "/tmp/augur_libc_dXXXXXX", old[4096], m[512], g[512];
    const char *paths[] = {".", "./", "sub", "sub/", "./sub//deeper", "sub/deeper", "A",
                           "missing", "sub/missing", ""};
    size_t i;
    int fd;

    if (getcwd(old, sizeof old) == NULL || mkdtemp(root) == NULL || chdir(root) != 0) {
        CHECK(0, "cannot set up a directory");
        return;
    }
    mkdir("sub", 0755);
    mkdir("sub/deeper", 0755);
    for (i = 0; names[i] != NULL; i++) {
        fd = open(names[i], O_CREAT | O_WRONLY, 0644);
        if (write(fd, "xy", 2) != 2)
            CHECK(0, "write");
        close(fd);
    }
    shim_names = names;

    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        listing(1, paths[i], m, sizeof m);
        listing(0, paths[i], g, sizeof g);
        CHECK(strcmp(m, g) == 0, "readdir('%s'): %s vs %s", paths[i], m, g);
    }
    {
        /* A directory stream can be read again. */
        void *d = model_opendir("sub");
        int first = 0, second = 0;
        while (model_readdir(d) != NULL)
            first++;
        model_rewinddir(d);
        while (model_readdir(d) != NULL)
            second++;
        model_closedir(d);
        CHECK(first == 5 && second == 5, "rewinddir: %d %d", first, second);
    }
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        struct stat ms, gs;
        int mr, gr, me, ge;
        errno = 0; mr = model_stat(paths[i], &ms); me = errno;
        errno = 0; gr = stat(paths[i], &gs); ge = errno;
        CHECK(mr == gr && (mr < 0 ? me == ge
                                  : (ms.st_mode & S_IFMT) == (gs.st_mode & S_IFMT) &&
                                        ms.st_nlink == gs.st_nlink),
              "stat('%s'): %d %d %o %lu vs %d %d %o %lu", paths[i], mr, me, ms.st_mode,
              (unsigned long)ms.st_nlink, gr, ge, gs.st_mode, (unsigned long)gs.st_nlink);
        errno = 0; mr = model_euidaccess(paths[i], R_OK); me = errno;
        errno = 0; gr = euidaccess(paths[i], R_OK); ge = errno;
        CHECK(mr == gr && (mr == 0 || me == ge), "euidaccess('%s'): %d %d vs %d %d", paths[i],
              mr, me, gr, ge);
        errno = 0; mr = model_faccessat(AT_FDCWD, paths[i], W_OK, 0); me = errno;
        errno = 0; gr = faccessat(AT_FDCWD, paths[i], W_OK, 0); ge = errno;
        CHECK(mr == gr && (mr == 0 || me == ge), "faccessat('%s')", paths[i]);
    }
    {
        /* statx agrees with stat, field by field. */
        struct statx mx, gx;
        int mr = model_statx(AT_FDCWD, "sub/B", 0, STATX_BASIC_STATS, &mx);
        int gr = statx(AT_FDCWD, "sub/B", 0, STATX_BASIC_STATS, &gx);
        CHECK(mr == 0 && gr == 0 && mx.stx_mode == gx.stx_mode && mx.stx_size == gx.stx_size &&
                  mx.stx_nlink == gx.stx_nlink && mx.stx_blksize == 4096 &&
                  (mx.stx_mask & gx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS,
              "statx(file): %o %llu vs %o %llu", mx.stx_mode,
              (unsigned long long)mx.stx_size, gx.stx_mode, (unsigned long long)gx.stx_size);
        mr = model_statx(AT_FDCWD, "sub", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &mx);
        gr = statx(AT_FDCWD, "sub", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &gx);
        CHECK(mr == 0 && gr == 0 && mx.stx_mode == gx.stx_mode && mx.stx_nlink == gx.stx_nlink,
              "statx(dir): %o %u vs %o %u", mx.stx_mode, mx.stx_nlink, gx.stx_mode,
              gx.stx_nlink);
        errno = 0;
        mr = model_statx(AT_FDCWD, "missing", 0, STATX_BASIC_STATS, &mx);
        CHECK(mr == -1 && errno == ENOENT, "statx(missing)");
    }

    if (symlink("sub/B", "L") != 0) /* not among the names: made after the listings */
        CHECK(0, "symlink");
    test_misc();
    test_fnmatch();
    shim_names = NULL;
    unlink("L");
    for (i = 0; names[i] != NULL; i++)
        unlink(names[i]);
    rmdir("sub/deeper");
    rmdir("sub");
    if (chdir(old) != 0 || rmdir(root) != 0)
        CHECK(0, "cannot clean up");
}
