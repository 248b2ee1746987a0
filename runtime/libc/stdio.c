/*
 * stdio.c - FILE objects and character/block I/O.
 *
 * struct _IO_FILE is our own layout; user programs compiled against glibc's
 * <stdio.h> only ever handle FILE pointers (and the globals stdin, stdout,
 * stderr, which are defined here).
 *
 * Output is unbuffered: every fwrite/fputc/printf call reaches
 * augur_sys_write immediately (printf formats a whole call into a local
 * chunk first), so output is never lost when a path ends abruptly and
 * stdout/stderr interleave in program order.  Input is read through a small
 * per-stream buffer plus an ungetc slot.
 */
#include "libc_internal.h"

#define F_READ 1
#define F_WRITE 2
#define RBUF_SIZE 128

struct _IO_FILE {
    int fd;
    int mode;     /* F_READ | F_WRITE */
    int eof;
    int error;
    int pushback; /* ungetc slot, -1 when empty */
    int is_static;
    size_t rpos, rlen;
    unsigned char rbuf[RBUF_SIZE];
};

static struct _IO_FILE file_stdin = {0, F_READ, 0, 0, -1, 1, 0, 0, {0}};
static struct _IO_FILE file_stdout = {1, F_WRITE, 0, 0, -1, 1, 0, 0, {0}};
static struct _IO_FILE file_stderr = {2, F_WRITE, 0, 0, -1, 1, 0, 0, {0}};

FILE *stdin = &file_stdin;
FILE *stdout = &file_stdout;
FILE *stderr = &file_stderr;

/* ---- opening and closing -------------------------------------------- */

FILE *fopen(const char *path, const char *mode)
{
    int flags, fmode, fd;
    const char *m;
    FILE *f;

    switch (mode[0]) {
    case 'r':
        flags = AUGUR_O_RDONLY;
        fmode = F_READ;
        break;
    case 'w':
        flags = AUGUR_O_WRONLY | AUGUR_O_CREAT | AUGUR_O_TRUNC;
        fmode = F_WRITE;
        break;
    case 'a':
        flags = AUGUR_O_WRONLY | AUGUR_O_CREAT | AUGUR_O_APPEND;
        fmode = F_WRITE;
        break;
    default:
        errno = EINVAL;
        return NULL;
    }
    for (m = mode + 1; *m != '\0'; m++) {
        if (*m == '+') {
            flags = (flags & ~(AUGUR_O_WRONLY | AUGUR_O_RDWR)) | AUGUR_O_RDWR;
            fmode = F_READ | F_WRITE;
        }
    }
    fd = augur_sys_open(path, flags);
    if (fd < 0) {
        errno = ENOENT;
        return NULL;
    }
    f = malloc(sizeof *f);
    if (f == NULL) {
        augur_sys_close(fd);
        errno = ENOMEM;
        return NULL;
    }
    f->fd = fd;
    f->mode = fmode;
    f->eof = 0;
    f->error = 0;
    f->pushback = -1;
    f->is_static = 0;
    f->rpos = 0;
    f->rlen = 0;
    return f;
}

int fclose(FILE *f)
{
    int r = augur_sys_close(f->fd) < 0 ? EOF : 0;
    if (f->is_static) {
        f->fd = -1;
        f->mode = 0;
    } else {
        free(f);
    }
    return r;
}

int fflush(FILE *f)
{
    (void)f; /* writes are unbuffered */
    return 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    (void)f;
    (void)buf;
    (void)mode;
    (void)size;
    return 0;
}

void setbuf(FILE *f, char *buf)
{
    (void)f;
    (void)buf;
}

int fileno(FILE *f) { return f->fd; }
int feof(FILE *f) { return f->eof; }
int ferror(FILE *f) { return f->error; }

void clearerr(FILE *f)
{
    f->eof = 0;
    f->error = 0;
}

/* ---- input ------------------------------------------------------------- */

int fgetc(FILE *f)
{
    long n;
    if (f->pushback >= 0) {
        int c = f->pushback;
        f->pushback = -1;
        return c;
    }
    if (f->rpos < f->rlen)
        return f->rbuf[f->rpos++];
    if (f->eof)
        return EOF; /* EOF is sticky until clearerr (glibc >= 2.28) */
    if (!(f->mode & F_READ)) {
        f->error = 1;
        errno = EBADF;
        return EOF;
    }
    n = augur_sys_read(f->fd, f->rbuf, RBUF_SIZE);
    if (n <= 0) {
        if (n == 0)
            f->eof = 1;
        else
            f->error = 1;
        f->rpos = f->rlen = 0;
        return EOF;
    }
    f->rpos = 1;
    f->rlen = (size_t)n;
    return f->rbuf[0];
}

int getc(FILE *f) { return fgetc(f); }
int _IO_getc(FILE *f) { return fgetc(f); }
int getc_unlocked(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }
int getchar_unlocked(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f)
{
    if (c == EOF)
        return EOF;
    if (f->pushback >= 0) {
        /* Second push-back: use the read buffer if there is room. */
        if (f->rpos == 0)
            return EOF;
        f->rbuf[--f->rpos] = (unsigned char)f->pushback;
    }
    f->pushback = (unsigned char)c;
    f->eof = 0;
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

char *fgets(char *s, int n, FILE *f)
{
    int i = 0, c;
    if (n <= 0)
        return NULL;
    while (i < n - 1) {
        c = fgetc(f);
        if (c == EOF) {
            if (i == 0 || f->error)
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

/* ---- output ------------------------------------------------------------ */

size_t __augur_fwrite_bytes(FILE *f, const char *p, size_t n)
{
    long r;
    if (n == 0)
        return 0;
    if (!(f->mode & F_WRITE)) {
        f->error = 1;
        errno = EBADF;
        return 0;
    }
    r = augur_sys_write(f->fd, p, n);
    if (r < 0) {
        f->error = 1;
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
int putchar(int c) { return fputc(c, stdout); }
int putchar_unlocked(int c) { return fputc(c, stdout); }

int fputs(const char *s, FILE *f)
{
    size_t n = strlen(s);
    if (__augur_fwrite_bytes(f, s, n) != n)
        return EOF;
    return 1; /* glibc returns 1 on success */
}

int puts(const char *s)
{
    size_t n = strlen(s);
    if (__augur_fwrite_bytes(stdout, s, n) != n)
        return EOF;
    if (fputc('\n', stdout) == EOF)
        return EOF;
    return n + 1 > INT_MAX ? INT_MAX : (int)(n + 1);
}
