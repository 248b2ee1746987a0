/*
 * stdio.c - FILE objects and character/block I/O over the descriptor layer
 * (fd.c).
 *
 * struct _IO_FILE has glibc's layout, so code that looks inside a FILE the
 * way gnulib does (freading, freadahead, fseeko, fpending: _flags,
 * _IO_read_ptr/_end/_base, _IO_write_base/_ptr, _fileno, _offset) sees what
 * it would under glibc.  augur's own fields follow glibc's.
 *
 * Output is unbuffered: every fwrite/fputc/printf call reaches write()
 * immediately (printf formats a whole call into a local chunk first), so
 * output is never lost when a path ends abruptly and stdout/stderr
 * interleave in program order; streams carry _IO_UNBUFFERED and
 * __fpending is always 0.  Input is read through a 128-byte buffer with
 * room for 8 bytes pushed back by ungetc in front of it.
 */
#include "libc_internal.h"

#define EISDIR_ 21

/* glibc's _flags bits. */
#define IO_MAGIC 0xFBAD0000
#define IO_UNBUFFERED 0x0002
#define IO_NO_READS 0x0004
#define IO_NO_WRITES 0x0008
#define IO_EOF_SEEN 0x0010
#define IO_ERR_SEEN 0x0020
#define IO_LINE_BUF 0x0200
#define IO_CURRENTLY_PUTTING 0x0800
#define IO_IS_APPENDING 0x1000
#define IO_IS_FILEBUF 0x2000

#define RBUF_SIZE 128
#define PUSHBACK 8

struct _IO_FILE {
    /* glibc's struct _IO_FILE (x86-64), field for field. */
    int _flags;
    char *_IO_read_ptr, *_IO_read_end, *_IO_read_base;
    char *_IO_write_base, *_IO_write_ptr, *_IO_write_end;
    char *_IO_buf_base, *_IO_buf_end;
    char *_IO_save_base, *_IO_backup_base, *_IO_save_end;
    void *_markers;
    struct _IO_FILE *_chain;
    int _fileno;
    int _flags2;
    long _old_offset;
    unsigned short _cur_column;
    signed char _vtable_offset;
    char _shortbuf[1];
    void *_lock;
    long _offset;
    void *_codecvt, *_wide_data;
    struct _IO_FILE *_freeres_list;
    void *_freeres_buf;
    size_t __pad5;
    int _mode;
    char _unused2[20];
    /* augur's fields. */
    int is_static;
    char buf[PUSHBACK + RBUF_SIZE];
};

#define STD_FILE(fd, dir) {IO_MAGIC | IO_IS_FILEBUF | IO_UNBUFFERED | (dir), \
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
    (fd), 0, -1, 0, 0, {0}, NULL, -1, NULL, NULL, NULL, NULL, 0, -1, {0}, 1, {0}}

static struct _IO_FILE file_stdin = STD_FILE(0, IO_NO_WRITES);
static struct _IO_FILE file_stdout = STD_FILE(1, IO_NO_READS);
static struct _IO_FILE file_stderr = STD_FILE(2, IO_NO_READS);

FILE *stdin = &file_stdin;
FILE *stdout = &file_stdout;
FILE *stderr = &file_stderr;

/* ---- opening and closing -------------------------------------------- */

/* open(2) flags and _flags bits for an fopen mode; -1 (EINVAL) if invalid. */
static int parse_mode(const char *mode, int *oflags, int *fflags)
{
    const char *m;
    switch (mode[0]) {
    case 'r':
        *oflags = AUGUR_O_RDONLY;
        *fflags = IO_NO_WRITES;
        break;
    case 'w':
        *oflags = AUGUR_O_WRONLY | AUGUR_O_CREAT | AUGUR_O_TRUNC;
        *fflags = IO_NO_READS;
        break;
    case 'a':
        *oflags = AUGUR_O_WRONLY | AUGUR_O_CREAT | AUGUR_O_APPEND;
        *fflags = IO_NO_READS | IO_IS_APPENDING;
        break;
    default:
        errno = EINVAL;
        return -1;
    }
    for (m = mode + 1; *m != '\0' && m < mode + 7; m++) {
        if (*m == '+') {
            *oflags = (*oflags & ~(AUGUR_O_WRONLY | AUGUR_O_RDWR)) | AUGUR_O_RDWR;
            *fflags &= ~(IO_NO_READS | IO_NO_WRITES);
        } else if (*m == 'x') {
            *oflags |= 0200; /* O_EXCL */
        } else if (*m == 'e') {
            *oflags |= 02000000; /* O_CLOEXEC */
        }
    }
    return 0;
}

FILE *fdopen(int fd, const char *mode)
{
    int oflags, fflags;
    FILE *f;
    if (parse_mode(mode, &oflags, &fflags) < 0)
        return NULL;
    if (fcntl(fd, 3 /* F_GETFL */) < 0)
        return NULL;
    f = malloc(sizeof *f);
    if (f == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    memset(f, 0, sizeof *f);
    f->_flags = IO_MAGIC | IO_IS_FILEBUF | IO_UNBUFFERED | fflags;
    f->_fileno = fd;
    f->_offset = -1;
    f->_old_offset = -1;
    f->_mode = -1;
    return f;
}

FILE *fopen(const char *path, const char *mode)
{
    int oflags, fflags, fd;
    FILE *f;
    if (parse_mode(mode, &oflags, &fflags) < 0)
        return NULL;
    fd = open(path, oflags, 0666);
    if (fd < 0)
        return NULL;
    f = fdopen(fd, mode);
    if (f == NULL)
        close(fd);
    return f;
}

FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

/* Reopen f on path (on its own descriptor, with a new mode, when path is NULL), keeping
 * its descriptor number as glibc does (freopen(..., stdin) stays descriptor 0). */
FILE *freopen(const char *path, const char *mode, FILE *f)
{
    int oflags, fflags, fd = f->_fileno;
    if (parse_mode(mode, &oflags, &fflags) < 0) {
        fclose(f);
        return NULL;
    }
    if (path != NULL) {
        int nfd;
        close(fd);
        nfd = open(path, oflags, 0666);
        if (nfd < 0) {
            f->_fileno = -1;
            fclose(f);
            return NULL;
        }
        if (fd < 0)
            fd = nfd;
        else if (nfd != fd) {
            dup2(nfd, fd);
            close(nfd);
        }
    }
    f->_flags = IO_MAGIC | IO_IS_FILEBUF | IO_UNBUFFERED | fflags;
    f->_fileno = fd;
    f->_IO_read_ptr = f->_IO_read_end = f->_IO_read_base = NULL;
    return f;
}

FILE *freopen64(const char *path, const char *mode, FILE *f) { return freopen(path, mode, f); }

/* glibc's remove: a directory is removed by rmdir. */
int remove(const char *path)
{
    int e;
    if (unlink(path) == 0)
        return 0;
    e = errno;
    if (e != EISDIR_)
        return -1;
    return rmdir(path);
}

int fclose(FILE *f)
{
    int r;
    /* A standard stream closed already: EOF, errno as it was (glibc's; coreutils' comm
     * closes stdin twice for `comm - -` and reports the second). */
    if (f->is_static && f->_fileno < 0)
        return EOF;
    r = f->_fileno >= 0 && close(f->_fileno) < 0 ? EOF : 0;
    if (f->is_static) {
        f->_fileno = -1;
        f->_flags |= IO_NO_READS | IO_NO_WRITES;
        f->_IO_read_ptr = f->_IO_read_end = f->_IO_read_base = NULL;
    } else {
        free(f);
    }
    return r;
}

/* Drop buffered input (fpurge); output is unbuffered. */
void __fpurge(FILE *f) { f->_IO_read_ptr = f->_IO_read_end; }

int fpurge(FILE *f)
{
    __fpurge(f);
    return 0;
}

int fflush(FILE *f)
{
    (void)f; /* writes are unbuffered; glibc keeps unread input of a pipe too */
    return 0;
}

int fflush_unlocked(FILE *f) { return fflush(f); }

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    (void)f;
    (void)buf;
    (void)size;
    if (mode < 0 || mode > 2) { /* _IOFBF, _IOLBF, _IONBF */
        errno = EINVAL;
        return EOF;
    }
    return 0; /* the stream stays unbuffered */
}

void setbuf(FILE *f, char *buf)
{
    (void)f;
    (void)buf;
}

int fileno(FILE *f)
{
    if (f->_fileno < 0)
        errno = EBADF;
    return f->_fileno;
}

int fileno_unlocked(FILE *f) { return fileno(f); }
int feof(FILE *f) { return (f->_flags & IO_EOF_SEEN) != 0; }
int feof_unlocked(FILE *f) { return feof(f); }
int ferror(FILE *f) { return (f->_flags & IO_ERR_SEEN) != 0; }
int ferror_unlocked(FILE *f) { return ferror(f); }
void clearerr(FILE *f) { f->_flags &= ~(IO_EOF_SEEN | IO_ERR_SEEN); }
void clearerr_unlocked(FILE *f) { clearerr(f); }

/* ---- <stdio_ext.h> --------------------------------------------------------- */

size_t __fpending(FILE *f) { return (size_t)(f->_IO_write_ptr - f->_IO_write_base); }

int __freading(FILE *f)
{
    return (f->_flags & IO_NO_WRITES) != 0
           || ((f->_flags & (IO_NO_READS | IO_CURRENTLY_PUTTING)) == 0
               && f->_IO_read_base != NULL);
}

int __fwriting(FILE *f) { return (f->_flags & (IO_NO_READS | IO_CURRENTLY_PUTTING)) != 0; }
int __freadable(FILE *f) { return (f->_flags & IO_NO_READS) == 0; }
int __fwritable(FILE *f) { return (f->_flags & IO_NO_WRITES) == 0; }
int __flbf(FILE *f) { return (f->_flags & IO_LINE_BUF) != 0; }
size_t __fbufsize(FILE *f) { return f->_IO_read_base != NULL ? RBUF_SIZE : 0; }

/* gnulib's name (musl provides it): bytes buffered for reading. */
size_t __freadahead(FILE *f) { return (size_t)(f->_IO_read_end - f->_IO_read_ptr); }

int __fsetlocking(FILE *f, int type)
{
    (void)f;
    (void)type;
    return 1; /* FSETLOCKING_INTERNAL: there is one thread */
}

/* ---- positioning ----------------------------------------------------------- */

long ftello(FILE *f)
{
    long pos = lseek(f->_fileno, 0, 1);
    if (pos < 0)
        return -1;
    return pos - (f->_IO_read_end - f->_IO_read_ptr);
}

int fseeko(FILE *f, long off, int whence)
{
    long pos;
    if (whence == 1) /* SEEK_CUR counts from the stream's position, not the fd's */
        off -= f->_IO_read_end - f->_IO_read_ptr;
    pos = lseek(f->_fileno, off, whence);
    if (pos < 0)
        return -1;
    f->_IO_read_ptr = f->_IO_read_end = f->_IO_read_base;
    f->_flags &= ~(IO_EOF_SEEN | IO_CURRENTLY_PUTTING);
    f->_offset = pos;
    return 0;
}

long ftell(FILE *f) { return ftello(f); }
long ftello64(FILE *f) { return ftello(f); }
int fseek(FILE *f, long off, int whence) { return fseeko(f, off, whence); }
int fseeko64(FILE *f, long off, int whence) { return fseeko(f, off, whence); }

void rewind(FILE *f)
{
    fseeko(f, 0, 0);
    f->_flags &= ~IO_ERR_SEEN;
}

/* fpos_t is glibc's { __off_t; __mbstate_t } (16 bytes): only the offset is used. */
typedef struct {
    long pos;
    mbstate_t state;
} fpos_t;

int fgetpos(FILE *f, fpos_t *p)
{
    long pos = ftello(f);
    if (pos < 0)
        return -1;
    memset(p, 0, sizeof *p);
    p->pos = pos;
    return 0;
}

int fsetpos(FILE *f, const fpos_t *p) { return fseeko(f, p->pos, 0); }
int fgetpos64(FILE *f, fpos_t *p) { return fgetpos(f, p); }
int fsetpos64(FILE *f, const fpos_t *p) { return fsetpos(f, p); }

/* ---- input ------------------------------------------------------------- */

/* Refill the read buffer; the next byte, or EOF (setting the EOF or error flag). */
static int refill(FILE *f)
{
    long n;
    if (f->_flags & IO_EOF_SEEN)
        return EOF; /* EOF is sticky until clearerr (glibc >= 2.28) */
    if (f->_flags & IO_NO_READS) {
        f->_flags |= IO_ERR_SEEN;
        errno = EBADF;
        return EOF;
    }
    f->_flags &= ~IO_CURRENTLY_PUTTING;
    f->_IO_read_base = f->buf + PUSHBACK;
    n = read(f->_fileno, f->_IO_read_base, RBUF_SIZE);
    f->_IO_read_ptr = f->_IO_read_base;
    f->_IO_read_end = f->_IO_read_base + (n > 0 ? n : 0);
    if (n <= 0) {
        f->_flags |= n == 0 ? IO_EOF_SEEN : IO_ERR_SEEN;
        return EOF;
    }
    return (unsigned char)*f->_IO_read_ptr++;
}

int fgetc(FILE *f)
{
    if (f->_IO_read_ptr < f->_IO_read_end)
        return (unsigned char)*f->_IO_read_ptr++;
    return refill(f);
}

int getc(FILE *f) { return fgetc(f); }
int _IO_getc(FILE *f) { return fgetc(f); }
int getc_unlocked(FILE *f) { return fgetc(f); }
int fgetc_unlocked(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }
int getchar_unlocked(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f)
{
    if (c == EOF)
        return EOF;
    if (f->_IO_read_ptr == NULL)
        f->_IO_read_ptr = f->_IO_read_end = f->_IO_read_base = f->buf + PUSHBACK;
    if (f->_IO_read_ptr == f->buf)
        return EOF; /* PUSHBACK bytes already pushed back */
    *--f->_IO_read_ptr = (char)c;
    f->_flags &= ~IO_EOF_SEEN;
    return (unsigned char)c;
}

size_t fread(void *ptr, size_t size, size_t n, FILE *f)
{
    unsigned char *p = ptr;
    size_t total, i;
    int c;
    if (size == 0 || n == 0)
        return 0;
    total = size * n;
    for (i = 0; i < total; i++) {
        c = fgetc(f);
        if (c == EOF)
            break;
        p[i] = (unsigned char)c;
    }
    return i / size;
}

size_t fread_unlocked(void *ptr, size_t size, size_t n, FILE *f)
{
    return fread(ptr, size, n, f);
}

char *fgets(char *s, int n, FILE *f)
{
    int i = 0, c;
    if (n <= 0)
        return NULL;
    while (i < n - 1) {
        c = fgetc(f);
        if (c == EOF) {
            if (i == 0 || ferror(f))
                return NULL;
            break;
        }
        s[i++] = (char)c;
        if (c == '\n')
            break;
    }
    s[i] = '\0';
    return s;
}

char *fgets_unlocked(char *s, int n, FILE *f) { return fgets(s, n, f); }

long getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    size_t len = 0;
    int c;
    if (line == NULL || cap == NULL) {
        errno = EINVAL;
        return -1;
    }
    for (;;) {
        if (*line == NULL || len + 1 >= *cap) {
            size_t ncap = *cap < 60 ? 120 : *cap * 2;
            char *p = realloc(*line, ncap);
            if (p == NULL) {
                errno = ENOMEM;
                return -1;
            }
            *line = p;
            *cap = ncap;
        }
        c = fgetc(f);
        if (c == EOF)
            break;
        (*line)[len++] = (char)c;
        if (c == delim)
            break;
    }
    (*line)[len] = '\0';
    return len == 0 || ferror(f) ? -1 : (long)len;
}

long getline(char **line, size_t *cap, FILE *f) { return getdelim(line, cap, '\n', f); }

/* ---- output ------------------------------------------------------------ */

size_t __augur_fwrite_bytes(FILE *f, const char *p, size_t n)
{
    long r;
    if (n == 0)
        return 0;
    if (f->_flags & IO_NO_WRITES) {
        f->_flags |= IO_ERR_SEEN;
        errno = EBADF;
        return 0;
    }
    if (f->_IO_read_ptr != f->_IO_read_end) /* drop read-ahead: write where the stream is */
        fseeko(f, 0, 1);
    f->_flags |= IO_CURRENTLY_PUTTING;
    r = write(f->_fileno, p, n);
    if (r < 0) {
        f->_flags |= IO_ERR_SEEN;
        return 0;
    }
    return (size_t)r;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
    if (size == 0 || n == 0)
        return 0;
    return __augur_fwrite_bytes(f, p, size * n) / size;
}

size_t fwrite_unlocked(const void *p, size_t size, size_t n, FILE *f)
{
    return fwrite(p, size, n, f);
}

int fputc(int c, FILE *f)
{
    char ch = (char)c;
    if (__augur_fwrite_bytes(f, &ch, 1) != 1)
        return EOF;
    return (unsigned char)ch;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int _IO_putc(int c, FILE *f) { return fputc(c, f); }
int putc_unlocked(int c, FILE *f) { return fputc(c, f); }
int fputc_unlocked(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }
int putchar_unlocked(int c) { return fputc(c, stdout); }

int fputs(const char *s, FILE *f)
{
    size_t n = strlen(s);
    if (__augur_fwrite_bytes(f, s, n) != n)
        return EOF;
    return 1; /* glibc returns 1 on success */
}

int fputs_unlocked(const char *s, FILE *f) { return fputs(s, f); }

int puts(const char *s)
{
    size_t n = strlen(s);
    if (__augur_fwrite_bytes(stdout, s, n) != n)
        return EOF;
    if (fputc('\n', stdout) == EOF)
        return EOF;
    return n + 1 > INT_MAX ? INT_MAX : (int)(n + 1);
}
