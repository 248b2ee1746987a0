/* test_files.c - the descriptor layer, stdio positioning and <stdio_ext.h>,
 * and the GNU string variants against glibc on real files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model.h"

int model_open(const char *, int, ...);
int model_creat(const char *, mode_t);
long model_read(int, void *, size_t);
long model_write(int, const void *, size_t);
int model_close(int);
off_t model_lseek(int, off_t, int);
int model_fstat(int, struct stat *);
int model_stat(const char *, struct stat *);
int model_dup(int);
int model_dup2(int, int);
int model_fcntl(int, int, ...);
int model_ioctl(int, unsigned long, ...);
int model_isatty(int);
int model_posix_fadvise(int, off_t, off_t, int);
int model_access(const char *, int);
MFILE *model_fdopen(int, const char *);
size_t model___fpending(MFILE *);
int model___freading(MFILE *);
int model___fwriting(MFILE *);
size_t model___freadahead(MFILE *);
off_t model_ftello(MFILE *);
int model_fseeko(MFILE *, off_t, int);
void model_rewind(MFILE *);
ssize_t model_getline(char **, size_t *, MFILE *);
ssize_t model_getdelim(char **, size_t *, int, MFILE *);
char *model_stpcpy(char *, const char *);
char *model_stpncpy(char *, const char *, size_t);
void *model_mempcpy(void *, const void *, size_t);
void *model_memrchr(const void *, int, size_t);
void *model_rawmemchr(const void *, int);
char *model_strchrnul(const char *, int);
intmax_t model_strtoimax(const char *, char **, int);
uintmax_t model_strtoumax(const char *, char **, int);
size_t model_strxfrm(char *, const char *, size_t);

/* Run the same descriptor calls on glibc and on the models: same results, same errno. */
#define SAME(call_g, call_m, what)                                                        \
    do {                                                                                  \
        long rg_, rm_;                                                                    \
        int eg_, em_;                                                                     \
        errno = 0;                                                                        \
        rg_ = (long)(call_g);                                                             \
        eg_ = errno;                                                                      \
        errno = 0;                                                                        \
        rm_ = (long)(call_m);                                                             \
        em_ = errno;                                                                      \
        CHECK(rg_ == rm_ && (rg_ >= 0 || eg_ == em_), "%s: %ld (errno %d) vs %ld (%d)",   \
              what, rg_, eg_, rm_, em_);                                                  \
    } while (0)

static void test_descriptors(const char *gp, const char *mp)
{
    char gb[32], mb[32];
    struct stat gs, ms;
    int g, m, g2, m2;
    g = creat(gp, 0644);
    m = model_creat(mp, 0644);
    CHECK(g >= 0 && m >= 0, "creat");
    SAME(write(g, "hello world\n", 12), model_write(m, "hello world\n", 12), "write");
    SAME(read(g, gb, 4), model_read(m, mb, 4), "read of a write-only fd");
    SAME(fcntl(g, F_GETFL) & O_ACCMODE, model_fcntl(m, F_GETFL) & O_ACCMODE, "F_GETFL");
    SAME(lseek(g, 0, SEEK_CUR), model_lseek(m, 0, SEEK_CUR), "lseek cur");
    SAME(lseek(g, -20, SEEK_CUR), model_lseek(m, -20, SEEK_CUR), "lseek negative");
    SAME(lseek(g, 0, 7), model_lseek(m, 0, 7), "lseek bad whence");
    SAME(close(g), model_close(m), "close");
    SAME(close(g), model_close(m), "close twice");
    g = open(gp, O_RDWR | O_APPEND);
    m = model_open(mp, O_RDWR | O_APPEND);
    SAME(fcntl(g, F_GETFL), model_fcntl(m, F_GETFL), "F_GETFL rw");
    SAME(write(g, "more\n", 5), model_write(m, "more\n", 5), "append");
    SAME(lseek(g, 6, SEEK_SET), model_lseek(m, 6, SEEK_SET), "lseek set");
    SAME(read(g, gb, 32), model_read(m, mb, 32), "read back");
    CHECK(memcmp(gb, mb, 11) == 0, "read back bytes");
    SAME(fstat(g, &gs), model_fstat(m, &ms), "fstat");
    CHECK(S_ISREG(ms.st_mode) && ms.st_size == gs.st_size && ms.st_size == 17
              && ms.st_blocks == 8 /* one 4 KiB block of the fixed volume */,
          "fstat fields: size %ld", (long)ms.st_size);
    SAME(stat(gp, &gs), model_stat(mp, &ms), "stat");
    CHECK(ms.st_size == gs.st_size, "stat size");
    SAME(stat("/nonexistent/x", &gs), model_stat("/nonexistent/x", &ms), "stat missing");
    SAME(access(gp, R_OK), model_access(mp, R_OK), "access");
    SAME(access("/nonexistent/x", R_OK), model_access("/nonexistent/x", R_OK), "access missing");
    SAME(fcntl(g, F_GETFD), model_fcntl(m, F_GETFD), "F_GETFD");
    SAME(fcntl(g, F_SETFD, FD_CLOEXEC), model_fcntl(m, F_SETFD, FD_CLOEXEC), "F_SETFD");
    SAME(fcntl(g, F_GETFD), model_fcntl(m, F_GETFD), "F_GETFD after");
    SAME(fcntl(g, F_SETFL, O_NONBLOCK), model_fcntl(m, F_SETFL, O_NONBLOCK), "F_SETFL");
    SAME(fcntl(g, F_GETFL), model_fcntl(m, F_GETFL),
         "F_GETFL after F_SETFL");
    g2 = dup(g);
    m2 = model_dup(m);
    CHECK(g2 >= 0 && m2 >= 0, "dup");
    SAME(fcntl(g2, F_GETFD), model_fcntl(m2, F_GETFD), "dup clears FD_CLOEXEC");
    CHECK(dup2(g, g2) == g2 && model_dup2(m, m2) == m2, "dup2 onto an open fd");
    CHECK(dup2(g, g) == g && model_dup2(m, m) == m, "dup2 onto itself");
    SAME(dup2(999, 998), model_dup2(999, 998), "dup2 of a closed fd");
    SAME(ioctl(g, TCGETS, gb), model_ioctl(m, TCGETS, mb), "ioctl");
    SAME(ioctl(999, TCGETS, gb), model_ioctl(999, TCGETS, mb), "ioctl closed");
    SAME(isatty(g), model_isatty(m), "isatty");
    SAME(posix_fadvise(g, 0, 0, POSIX_FADV_SEQUENTIAL),
         model_posix_fadvise(m, 0, 0, POSIX_FADV_SEQUENTIAL), "fadvise");
    SAME(posix_fadvise(999, 0, 0, 2), model_posix_fadvise(999, 0, 0, 2), "fadvise closed");
    SAME(posix_fadvise(g, 0, 0, 99), model_posix_fadvise(m, 0, 0, 99), "fadvise bad");
    SAME(fcntl(999, F_GETFL), model_fcntl(999, F_GETFL), "fcntl closed");
    SAME(fcntl(g, 12345), model_fcntl(m, 12345), "fcntl bad cmd");
    close(g2);
    model_close(m2);
    close(g);
    model_close(m);
    SAME(open(gp, O_WRONLY | O_CREAT | O_EXCL, 0644), model_open(mp, O_WRONLY | O_CREAT | O_EXCL),
         "O_EXCL on an existing file");
    SAME(open("/nonexistent/x", O_RDONLY), model_open("/nonexistent/x", O_RDONLY), "ENOENT");
    SAME(read(999, gb, 1), model_read(999, mb, 1), "read closed");
    SAME(write(-1, gb, 1), model_write(-1, mb, 1), "write bad fd");
}

static void test_streams(const char *gp, const char *mp)
{
    FILE *g = fopen(gp, "r+");
    MFILE *m = model_fopen(mp, "r+");
    char *gl = NULL, *ml = NULL;
    size_t gc = 0, mc = 0;
    CHECK(g && m, "fopen r+");
    CHECK(__freading(g) == model___freading(m), "freading before");
    CHECK(!!__fwriting(g) == !!model___fwriting(m), "fwriting before");
    CHECK(fgetc(g) == model_fgetc(m), "fgetc");
    CHECK(!!__freading(g) == !!model___freading(m), "freading after a read");
    CHECK(ftello(g) == model_ftello(m), "ftello after a read");
    CHECK(ungetc('X', g) == model_ungetc('X', m), "ungetc");
    CHECK(ftello(g) == model_ftello(m), "ftello after ungetc: %ld vs %ld", (long)ftello(g),
          (long)model_ftello(m));
    CHECK(getline(&gl, &gc, g) == model_getline(&ml, &mc, m) && strcmp(gl, ml) == 0,
          "getline: %s vs %s", gl, ml);
    CHECK(fseeko(g, 2, SEEK_SET) == model_fseeko(m, 2, SEEK_SET), "fseeko");
    CHECK(fgetc(g) == model_fgetc(m), "fgetc after fseeko");
    CHECK(fseeko(g, 3, SEEK_CUR) == model_fseeko(m, 3, SEEK_CUR), "fseeko cur");
    CHECK(ftello(g) == model_ftello(m), "ftello after seek cur");
    CHECK(fputs("ZZ", g) >= 0 && model_fputs("ZZ", m) >= 0, "fputs in r+");
    CHECK(!!__fwriting(g) == !!model___fwriting(m), "fwriting after a write");
    fflush(g);
    CHECK(__fpending(g) == model___fpending(m), "fpending after flush");
    CHECK(ftello(g) == model_ftello(m), "ftello after write");
    model_rewind(m);
    rewind(g);
    CHECK(getdelim(&gl, &gc, ' ', g) == model_getdelim(&ml, &mc, ' ', m) && strcmp(gl, ml) == 0,
          "getdelim after rewind: %s vs %s", gl, ml);
    CHECK(fseeko(g, 0, SEEK_END) == model_fseeko(m, 0, SEEK_END), "fseeko end");
    CHECK(fgetc(g) == model_fgetc(m) && feof(g) && model_feof(m), "EOF at end");
    CHECK(getline(&gl, &gc, g) == model_getline(&ml, &mc, m), "getline at EOF");
    CHECK(model___freadahead(m) == 0, "freadahead at EOF");
    free(gl);
    free(ml);
    fclose(g);
    model_fclose(m);
    {
        int fd = model_open(mp, O_RDONLY);
        MFILE *f = model_fdopen(fd, "r");
        CHECK(f != NULL && model_fgetc(f) == 'h' && model___freadahead(f) == 16,
              "fdopen reads the descriptor");
        model_fclose(f);
        CHECK(model_fdopen(999, "r") == NULL && errno == EBADF, "fdopen of a closed fd");
    }
}

int model_unlink(const char *);
ssize_t model_pread(int, void *, size_t, off_t);
ssize_t model_pwrite(int, const void *, size_t, off_t);
int model_ftruncate(int, off_t);
int model_fsync(int);
int model_mkstemp(char *);
int model_mkstemps(char *, int);
int model_remove(const char *);
MFILE *model_freopen(const char *, const char *, MFILE *);

static void test_names_and_lengths(const char *gp, const char *mp)
{
    struct stat gs, ms;
    char gb[8], mb[8];
    char gt[] = "/tmp/augur_libc_tXXXXXX", mt[] = "/tmp/augur_libc_tXXXXXX.s";
    int g = open(gp, O_RDWR), m = model_open(mp, O_RDWR);
    MFILE *f;
    SAME(ftruncate(g, 3), model_ftruncate(m, 3), "ftruncate shrink");
    SAME(ftruncate(g, 6), model_ftruncate(m, 6), "ftruncate grow");
    SAME(ftruncate(g, -1), model_ftruncate(m, -1), "ftruncate negative");
    fstat(g, &gs);
    model_fstat(m, &ms);
    CHECK(gs.st_size == ms.st_size, "size after ftruncate");
    SAME(pread(g, gb, 6, 0), model_pread(m, mb, 6, 0), "pread");
    CHECK(memcmp(gb, mb, 6) == 0, "ftruncate zero-fills");
    SAME(fsync(g), model_fsync(m), "fsync");
    SAME(unlink(gp), model_unlink(mp), "unlink");
    SAME(stat(gp, &gs), model_stat(mp, &ms), "stat after unlink");
    SAME(pread(g, gb, 2, 0), model_pread(m, mb, 2, 0), "an unlinked file stays readable");
    SAME(lseek(g, 0, SEEK_CUR), model_lseek(m, 0, SEEK_CUR), "pread keeps the offset");
    SAME(pwrite(g, "zz", 2, 1), model_pwrite(m, "zz", 2, 1), "pwrite");
    SAME(pread(g, gb, 3, -1), model_pread(m, mb, 3, -1), "pread at a negative offset");
    SAME(unlink(gp), model_unlink(mp), "unlink twice");
    close(g);
    model_close(m);
    SAME(mkstemp(gt) >= 0, model_mkstemps(mt, 2) >= 0, "mkstemp");
    CHECK(strncmp(mt, "/tmp/augur_libc_t", 17) == 0 && strcmp(mt + 23, ".s") == 0
              && strchr(mt, 'X') == NULL,
          "mkstemps name %s", mt);
    SAME(access(gt, F_OK), model_access(mt, F_OK), "the temporary file exists");
    {
        char bad[] = "/tmp/noX";
        CHECK(model_mkstemp(bad) == -1 && errno == EINVAL, "mkstemp without XXXXXX");
    }
    f = model_fopen(mt, "w");
    model_fputs("reopened\n", f);
    f = model_freopen(mt, "r", f);
    CHECK(f != NULL && model_fgetc(f) == 'r', "freopen reads the file");
    model_fclose(f);
    SAME(remove(gt), model_remove(mt), "remove");
    SAME(remove(gt), model_remove(mt), "remove twice");
}

static void test_string_variants(void)
{
    char g[16], m[16];
    const char *s = "abcabc";
    memset(g, 'x', sizeof g);
    memset(m, 'x', sizeof m);
    CHECK(stpcpy(g, "hey") - g == model_stpcpy(m, "hey") - m && memcmp(g, m, 16) == 0,
          "stpcpy");
    CHECK(stpncpy(g, "ab", 6) - g == model_stpncpy(m, "ab", 6) - m && memcmp(g, m, 16) == 0,
          "stpncpy pads");
    CHECK(stpncpy(g, "abcdefgh", 4) - g == model_stpncpy(m, "abcdefgh", 4) - m
              && memcmp(g, m, 16) == 0, "stpncpy truncates");
    CHECK((char *)mempcpy(g, "12", 2) - g == (char *)model_mempcpy(m, "12", 2) - m, "mempcpy");
    CHECK(memrchr(s, 'b', 6) == model_memrchr(s, 'b', 6), "memrchr");
    CHECK(memrchr(s, 'z', 6) == model_memrchr(s, 'z', 6), "memrchr absent");
    CHECK(memrchr(s, 'a', 0) == model_memrchr(s, 'a', 0), "memrchr empty");
    CHECK(rawmemchr(s, 'c') == model_rawmemchr(s, 'c'), "rawmemchr");
    CHECK(strchrnul(s, 'c') == model_strchrnul(s, 'c'), "strchrnul");
    CHECK(strchrnul(s, 'z') == model_strchrnul(s, 'z'), "strchrnul absent");
    memset(g, 'x', sizeof g);
    memset(m, 'x', sizeof m);
    CHECK(strxfrm(g, "abc", 16) == model_strxfrm(m, "abc", 16) && memcmp(g, m, 16) == 0,
          "strxfrm");
    CHECK(strxfrm(g, "abcdef", 3) == model_strxfrm(m, "abcdef", 3), "strxfrm too small");
    CHECK(strxfrm(NULL, "abcdef", 0) == model_strxfrm(NULL, "abcdef", 0), "strxfrm length");
    CHECK(strtoimax("-42x", NULL, 10) == model_strtoimax("-42x", NULL, 10), "strtoimax");
    CHECK(strtoumax("0x1F", NULL, 0) == model_strtoumax("0x1F", NULL, 0), "strtoumax");
}

void test_files(void)
{
    char gp[] = "/tmp/augur_libc_g_XXXXXX", mp[] = "/tmp/augur_libc_m_XXXXXX";
    close(mkstemp(gp));
    close(mkstemp(mp));
    test_descriptors(gp, mp);
    test_streams(gp, mp);
    test_names_and_lengths(gp, mp);
    test_string_variants();
}
