/*
 * scanf.c - the scanf family.
 *
 * One engine (scan_core) reads from a "source" with get/unget, so scanf on
 * a FILE and sscanf on a string behave identically.  The control flow
 * follows glibc's vfscanf: white space in the format is skipped lazily,
 * EOF is sticky within one call, an input failure before any assignment
 * returns EOF, numeric fields are collected into a buffer and converted
 * with the strto* routines shared with stdlib.c.
 */
#include "libc_internal.h"

struct source {
    FILE *f;          /* stream, or */
    const char *str;  /* string */
    size_t nread;     /* characters consumed (for %n) */
    int at_eof;       /* EOF seen: further reads return EOF */
};

static int in_get(struct source *s)
{
    int c;
    if (s->at_eof)
        return EOF;
    if (s->f != NULL) {
        c = fgetc(s->f);
    } else {
        c = (unsigned char)*s->str;
        if (c == 0)
            c = EOF;
        else
            s->str++;
    }
    if (c == EOF)
        s->at_eof = 1;
    else
        s->nread++;
    return c;
}

static void in_unget(struct source *s, int c)
{
    if (c == EOF)
        return;
    s->nread--;
    if (s->f != NULL)
        ungetc(c, s->f);
    else
        s->str--;
}

/* Is c in the scanset spec[0..len)?  Same rules as glibc: the first
 * character is always literal; "x-y" with x <= y is a range. */
static int in_scanset(int c, const char *spec, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)spec[i];
        if (i > 0 && ch == '-' && i + 1 < len &&
            (unsigned char)spec[i - 1] <= (unsigned char)spec[i + 1]) {
            if (c >= (unsigned char)spec[i - 1] && c < (unsigned char)spec[i + 1])
                return 1;
        } else if (c == ch) {
            return 1;
        }
    }
    return 0;
}

#define NUMBUF 400

/* Append to the numeric buffer (excess characters are dropped). */
static void buf_add(char *buf, int *n, int c)
{
    if (*n < NUMBUF - 1)
        buf[(*n)++] = (char)c;
}

enum { SZ_INT, SZ_CHAR, SZ_SHORT, SZ_LONG, SZ_LONGLONG };

static int scan_core(struct source *s, const char *fmt, va_list ap)
{
    const unsigned char *f = (const unsigned char *)fmt;
    int done = 0, skip_space = 0;
    int c;
    char buf[NUMBUF];

    while (*f != '\0') {
        int fc = *f++;
        int suppress = 0, size = SZ_INT, width = 0, base = 0, is_signed = 0;
        int n = 0;

        if (fc != '%') {
            if (isspace(fc)) {
                skip_space = 1;
                continue;
            }
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            if (skip_space) {
                while (isspace(c)) {
                    c = in_get(s);
                    if (c == EOF)
                        goto input_error;
                }
                skip_space = 0;
            }
            if (c != fc) {
                in_unget(s, c);
                goto conv_error;
            }
            continue;
        }

        while (*f == '*' || *f == '\'' || *f == 'I') {
            if (*f == '*')
                suppress = 1;
            f++;
        }
        while (isdigit(*f))
            width = width * 10 + (*f++ - '0');
        if (width == 0)
            width = -1;
        switch (*f) {
        case 'h':
            f++;
            if (*f == 'h') {
                f++;
                size = SZ_CHAR;
            } else {
                size = SZ_SHORT;
            }
            break;
        case 'l':
            f++;
            if (*f == 'l') {
                f++;
                size = SZ_LONGLONG;
            } else {
                size = SZ_LONG;
            }
            break;
        case 'q':
        case 'L':
            f++;
            size = SZ_LONGLONG;
            break;
        case 'z':
        case 'j':
        case 't':
            f++;
            size = SZ_LONG;
            break;
        default:
            break;
        }
        if (*f == '\0')
            goto conv_error;
        fc = *f++;

        if (skip_space || (fc != '[' && fc != 'c' && fc != 'n')) {
            do
                c = in_get(s);
            while (isspace(c));
            in_unget(s, c);
            skip_space = 0;
        }

        switch (fc) {
        case '%':
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            if (c != '%') {
                in_unget(s, c);
                goto conv_error;
            }
            break;

        case 'n':
            if (!suppress) {
                void *p = va_arg(ap, void *);
                if (size == SZ_CHAR)
                    *(signed char *)p = (signed char)s->nread;
                else if (size == SZ_SHORT)
                    *(short *)p = (short)s->nread;
                else if (size == SZ_INT)
                    *(int *)p = (int)s->nread;
                else
                    *(long *)p = (long)s->nread;
            }
            break;

        case 'c': {
            char *str = suppress ? NULL : va_arg(ap, char *);
            if (width == -1)
                width = 1;
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            do {
                if (str != NULL)
                    *str++ = (char)c;
            } while (--width > 0 && (c = in_get(s)) != EOF);
            if (!suppress)
                done++;
            break;
        }

        case 's': {
            char *str = suppress ? NULL : va_arg(ap, char *);
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            do {
                if (isspace(c)) {
                    in_unget(s, c);
                    break;
                }
                if (str != NULL)
                    *str++ = (char)c;
            } while ((width <= 0 || --width > 0) && (c = in_get(s)) != EOF);
            if (!suppress) {
                *str = '\0';
                done++;
            }
            break;
        }

        case '[': {
            char *str = suppress ? NULL : va_arg(ap, char *);
            const char *spec;
            size_t speclen;
            int negate = 0;
            size_t start;
            if (*f == '^') {
                negate = 1;
                f++;
            }
            spec = (const char *)f;
            if (*f == ']' || *f == '-')
                f++;
            while (*f != '\0' && *f != ']')
                f++;
            if (*f == '\0')
                goto conv_error;
            speclen = (size_t)((const char *)f - spec);
            f++;
            if (width == -1)
                width = INT_MAX;
            start = s->nread;
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            do {
                if (in_scanset(c, spec, speclen) == negate) {
                    in_unget(s, c);
                    break;
                }
                if (str != NULL)
                    *str++ = (char)c;
            } while (--width > 0 && (c = in_get(s)) != EOF);
            if (s->nread == start)
                goto conv_error;
            if (!suppress) {
                *str = '\0';
                done++;
            }
            break;
        }

        case 'p':
            size = SZ_LONG;
            base = 16;
            goto number;
        case 'x':
        case 'X':
            base = 16;
            goto number;
        case 'o':
            base = 8;
            goto number;
        case 'u':
            base = 10;
            goto number;
        case 'd':
            base = 10;
            is_signed = 1;
            goto number;
        case 'i':
            base = 0;
            is_signed = 1;
        number: {
            char *end;
            c = in_get(s);
            if (c == EOF)
                goto input_error;
            if (c == '-' || c == '+') {
                buf_add(buf, &n, c);
                if (width > 0)
                    width--;
                c = in_get(s);
            }
            if (width != 0 && c == '0') {
                if (width > 0)
                    width--;
                buf_add(buf, &n, c);
                c = in_get(s);
                if (width != 0 && tolower(c) == 'x') {
                    if (base == 0)
                        base = 16;
                    if (base == 16) {
                        if (width > 0)
                            width--;
                        c = in_get(s);
                    }
                } else if (base == 0) {
                    base = 8;
                }
            }
            if (base == 0)
                base = 10;
            while (c != EOF && width != 0) {
                if (base == 16 ? !isxdigit(c) : (!isdigit(c) || c - '0' >= base))
                    break;
                buf_add(buf, &n, c);
                if (width > 0)
                    width--;
                c = in_get(s);
            }
            in_unget(s, c);
            if (n == 0 || (n == 1 && (buf[0] == '+' || buf[0] == '-')))
                goto conv_error;
            buf[n] = '\0';
            if (is_signed) {
                long long v = strtoll(buf, &end, base);
                if (end == buf)
                    goto conv_error;
                if (!suppress) {
                    void *p = va_arg(ap, void *);
                    if (size == SZ_CHAR)
                        *(signed char *)p = (signed char)v;
                    else if (size == SZ_SHORT)
                        *(short *)p = (short)v;
                    else if (size == SZ_INT)
                        *(int *)p = (int)v;
                    else
                        *(long long *)p = v;
                }
            } else {
                unsigned long long v = strtoull(buf, &end, base);
                if (end == buf)
                    goto conv_error;
                if (!suppress) {
                    void *p = va_arg(ap, void *);
                    if (size == SZ_CHAR)
                        *(unsigned char *)p = (unsigned char)v;
                    else if (size == SZ_SHORT)
                        *(unsigned short *)p = (unsigned short)v;
                    else if (size == SZ_INT)
                        *(unsigned int *)p = (unsigned int)v;
                    else
                        *(unsigned long long *)p = v;
                }
            }
            if (!suppress)
                done++;
            break;
        }

        case 'e':
        case 'E':
        case 'f':
        case 'F':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            int got_digit = 0, got_dot = 0, got_e = 0, negative = 0, hex = 0;
            char exp_char = 'e';
            char *end;
            double d;
            c = in_get(s);
            if (width > 0)
                width--;
            if (c == EOF)
                goto input_error;
            if (c == '-' || c == '+') {
                negative = c == '-';
                if (width == 0 || (c = in_get(s)) == EOF)
                    goto conv_error;
                if (width > 0)
                    width--;
            }
            if (tolower(c) == 'n' || tolower(c) == 'i') {
                const char *word = tolower(c) == 'n' ? "nan" : "infinity";
                int i;
                buf_add(buf, &n, c);
                for (i = 1; i < 3; i++) {
                    if (width == 0 || (c = in_get(s)) == EOF || tolower(c) != word[i])
                        goto conv_error;
                    if (width > 0)
                        width--;
                    buf_add(buf, &n, c);
                }
                if (word[1] == 'n' && width != 0 && (c = in_get(s)) != EOF) {
                    if (tolower(c) == 'i') {
                        if (width > 0)
                            width--;
                        buf_add(buf, &n, c);
                        for (i = 4; i < 8; i++) {
                            if (width == 0 || (c = in_get(s)) == EOF ||
                                tolower(c) != word[i])
                                goto conv_error;
                            if (width > 0)
                                width--;
                            buf_add(buf, &n, c);
                        }
                    } else {
                        in_unget(s, c);
                    }
                }
                goto scan_float;
            }
            if (width != 0 && c == '0') {
                buf_add(buf, &n, c);
                c = in_get(s);
                if (width > 0)
                    width--;
                if (width != 0 && tolower(c) == 'x') {
                    buf_add(buf, &n, c);
                    hex = 1;
                    exp_char = 'p';
                    c = in_get(s);
                    if (width > 0)
                        width--;
                } else {
                    got_digit = 1;
                }
            }
            for (;;) {
                if (isdigit(c)) {
                    buf_add(buf, &n, c);
                    got_digit = 1;
                } else if (!got_e && hex && isxdigit(c)) {
                    buf_add(buf, &n, c);
                    got_digit = 1;
                } else if (got_e && n > 0 && buf[n - 1] == exp_char &&
                           (c == '-' || c == '+')) {
                    buf_add(buf, &n, c);
                } else if (got_digit && !got_e && tolower(c) == exp_char) {
                    buf_add(buf, &n, exp_char);
                    got_e = got_dot = 1;
                } else if (!got_dot && c == '.') {
                    buf_add(buf, &n, c);
                    got_dot = 1;
                } else {
                    in_unget(s, c);
                    break;
                }
                if (width == 0 || (c = in_get(s)) == EOF)
                    break;
                if (width > 0)
                    width--;
            }
            if (n == 0 || (hex && n == 2))
                goto conv_error;
        scan_float:
            buf[n] = '\0';
            if (size == SZ_LONGLONG) { /* %Lf: as strtold reads it (x87: 64 bits) */
                long double ld = strtold(buf, &end);
                if (end == buf)
                    goto conv_error;
                if (!suppress) {
                    *va_arg(ap, long double *) = negative ? -ld : ld;
                    done++;
                }
                break;
            }
            d = __augur_strtod(buf, &end);
            if (end == buf)
                goto conv_error;
            if (negative)
                d = -d;
            if (!suppress) {
                if (size == SZ_LONG)
                    *va_arg(ap, double *) = d;
                else
                    *va_arg(ap, float *) = (float)d;
                done++;
            }
            break;
        }

        default:
            goto conv_error;
        }
    }
    if (skip_space) {
        do
            c = in_get(s);
        while (isspace(c));
        in_unget(s, c);
    }
    return done;

input_error:
    return done == 0 ? EOF : done;
conv_error:
    return done;
}

/* ---- public entry points ------------------------------------------------ */

int vsscanf(const char *str, const char *fmt, va_list ap)
{
    struct source s;
    s.f = NULL;
    s.str = str;
    s.nread = 0;
    s.at_eof = 0;
    return scan_core(&s, fmt, ap);
}

int vfscanf(FILE *f, const char *fmt, va_list ap)
{
    struct source s;
    s.f = f;
    s.str = NULL;
    s.nread = 0;
    s.at_eof = 0;
    return scan_core(&s, fmt, ap);
}

int vscanf(const char *fmt, va_list ap)
{
    return vfscanf(stdin, fmt, ap);
}

int sscanf(const char *str, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsscanf(str, fmt, ap);
    va_end(ap);
    return r;
}

int fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfscanf(f, fmt, ap);
    va_end(ap);
    return r;
}

int scanf(const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}

/* glibc's <stdio.h> redirects the scanf family to these names in C99+
 * mode (no %a-as-malloc GNU extension). */
int __isoc99_vsscanf(const char *str, const char *fmt, va_list ap)
{
    return vsscanf(str, fmt, ap);
}

int __isoc99_vfscanf(FILE *f, const char *fmt, va_list ap)
{
    return vfscanf(f, fmt, ap);
}

int __isoc99_vscanf(const char *fmt, va_list ap)
{
    return vfscanf(stdin, fmt, ap);
}

int __isoc99_sscanf(const char *str, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsscanf(str, fmt, ap);
    va_end(ap);
    return r;
}

int __isoc99_fscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfscanf(f, fmt, ap);
    va_end(ap);
    return r;
}

int __isoc99_scanf(const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfscanf(stdin, fmt, ap);
    va_end(ap);
    return r;
}
