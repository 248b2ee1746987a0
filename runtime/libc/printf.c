/*
 * printf.c - the printf family.
 *
 * One formatter (format_core) writes into a "sink": either a caller's
 * string (snprintf family) or a local chunk that is flushed to a FILE or
 * a file descriptor.  Floating-point conversions use an exact binary to
 * decimal expansion (doubles are concrete in the engine), rounded
 * half-to-even like glibc.
 */
#include "libc_internal.h"

#define CHUNK 256

struct sink {
    char *dst;     /* string output: at most cap-1 chars plus NUL */
    size_t cap;
    FILE *f;       /* stream output, or */
    int fd;        /* descriptor output (fd >= 0) */
    size_t total;  /* characters produced so far */
    int err;
    size_t blen;
    char buf[CHUNK];
};

static void sink_init_string(struct sink *s, char *dst, size_t cap)
{
    s->dst = dst;
    s->cap = cap;
    s->f = NULL;
    s->fd = -1;
    s->total = 0;
    s->err = 0;
    s->blen = 0;
}

static void sink_flush(struct sink *s)
{
    if (s->blen == 0)
        return;
    if (s->f != NULL) {
        if (__augur_fwrite_bytes(s->f, s->buf, s->blen) != s->blen)
            s->err = 1;
    } else if (write(s->fd, s->buf, s->blen) != (long)s->blen) {
        s->err = 1;
    }
    s->blen = 0;
}

static void put_char(struct sink *s, char c)
{
    if (s->f != NULL || s->fd >= 0) {
        if (s->blen == CHUNK)
            sink_flush(s);
        s->buf[s->blen++] = c;
    } else if (s->total + 1 < s->cap) {
        s->dst[s->total] = c;
    }
    s->total++;
}

static void put_chars(struct sink *s, const char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        put_char(s, p[i]);
}

static void put_pad(struct sink *s, char c, long n)
{
    for (; n > 0; n--)
        put_char(s, c);
}

/* ---- conversion specification -------------------------------------- */

#define FL_LEFT 1
#define FL_PLUS 2
#define FL_SPACE 4
#define FL_ALT 8
#define FL_ZERO 16

struct spec {
    int flags;
    long width;  /* 0 if none */
    long prec;   /* -1 if none */
    char conv;
};

/* The sign a signed conversion prints: '-' for a negative value, else '+' or ' '
 * as the flags ask, else none (0). */
static char sign_of(const struct spec *sp, int neg)
{
    return neg ? '-' : sp->flags & FL_PLUS ? '+' : sp->flags & FL_SPACE ? ' ' : 0;
}

/* ---- integers ---------------------------------------------------------- */

/* How many digits a zero-padded field gives a value that fits it: the precision, or
 * with the 0 flag the width less the sign; 0 for a field padded otherwise (or with a
 * `#` prefix, whose presence depends on the value). */
static long padded_digits(const struct spec *sp, int has_sign)
{
    if (sp->flags & FL_ALT)
        return 0;
    if (sp->prec >= 0)
        return sp->prec;
    if ((sp->flags & FL_ZERO) && !(sp->flags & FL_LEFT))
        return sp->width - has_sign;
    return 0;
}

/* Does `mag` have at most `n` digits in `base`? */
static int fits_digits(unsigned long long mag, unsigned base, long n)
{
    unsigned long long limit = 1;
    long i;
    for (i = 0; i < n; i++) {
        if (limit > ~0ULL / base)
            return 1; /* base^n is past every value */
        limit *= base;
    }
    return mag < limit;
}

/* How many digits `mag` has in `base`, found from the most a value can have down: on a
 * symbolic value each comparison is a branch, and the first ones ask whether it is as
 * large as most values are (a CRC of the input has ten decimal digits for 77% of
 * inputs), where counting up from one digit asked first whether it was below 10, a
 * query on the CRC no solver answers in time, before any path printed it. */
static long digit_count(unsigned long long mag, unsigned base)
{
    /* The most digits of a 64-bit value and base^(that - 1), for the bases printf uses:
     * constants, not computed at every conversion. */
    long n = base == 8 ? 22 : base == 10 ? 20 : 16;
    unsigned long long power = base == 8    ? 1ULL << 63
                               : base == 10 ? 10000000000000000000ULL
                                            : 1ULL << 60;
    while (n > 1 && mag < power) {
        power /= base;
        n--;
    }
    return n;
}

static void fmt_integer(struct sink *s, const struct spec *sp,
                        unsigned long long mag, int neg, int is_signed,
                        int base, int upper, int pointer)
{
    char digits[24];
    const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char prefix[3];
    int nd = 0, np = 0;
    long zeros = 0, len;
    unsigned long long v = mag;

    long fixed = padded_digits(sp, (is_signed || pointer) && sign_of(sp, neg) != 0);
    if (!(sp->prec == 0 && mag == 0)) {
        /* A zero-padded field the value fits prints all its digits, leading zeros
         * included, with no branch on the value (md5sum's "%02x" of each digest byte);
         * any other field its digit count's. Each digit is an expression of the value,
         * none chosen by a branch. */
        long count = fixed > 0 && fixed < (long)sizeof digits &&
                             fits_digits(mag, (unsigned)base, fixed)
                         ? fixed
                         : digit_count(mag, (unsigned)base);
        while (nd < count) {
            digits[nd++] = dig[v % (unsigned)base];
            v /= (unsigned)base;
        }
    }
    if (sp->prec > nd)
        zeros = sp->prec - nd;
    if (base == 8 && (sp->flags & FL_ALT) && zeros == 0 &&
        (nd == 0 || digits[nd - 1] != '0'))
        zeros = 1;
    if ((is_signed || pointer) && sign_of(sp, neg) != 0)
        prefix[np++] = sign_of(sp, neg);
    if (base == 16 && (sp->flags & FL_ALT) && mag != 0) {
        prefix[np++] = '0';
        prefix[np++] = upper ? 'X' : 'x';
    }
    len = np + zeros + nd;
    if ((sp->flags & FL_ZERO) && !(sp->flags & FL_LEFT) && sp->prec < 0 &&
        sp->width > len) {
        zeros += sp->width - len;
        len = sp->width;
    }
    if (!(sp->flags & FL_LEFT))
        put_pad(s, ' ', sp->width - len);
    put_chars(s, prefix, (size_t)np);
    put_pad(s, '0', zeros);
    while (nd > 0)
        put_char(s, digits[--nd]);
    if (sp->flags & FL_LEFT)
        put_pad(s, ' ', sp->width - len);
}

/* ---- strings ------------------------------------------------------------- */

static void fmt_string(struct sink *s, const struct spec *sp, const char *str,
                       size_t n)
{
    if (!(sp->flags & FL_LEFT))
        put_pad(s, ' ', sp->width - (long)n);
    put_chars(s, str, n);
    if (sp->flags & FL_LEFT)
        put_pad(s, ' ', sp->width - (long)n);
}

/* ---- floating point ------------------------------------------------------ */

#define MAX_FPREC 1100
/* The most digits of an integer part: a double's is below 10^309, an x87 long
 * double's below 10^4933. */
#if __LDBL_MANT_DIG__ == 64
#define INT_DIGITS 4940
#else
#define INT_DIGITS 330
#endif
#define DEC_DIGITS (INT_DIGITS + MAX_FPREC + 2)
/* 32-bit words of the widest integer part or fraction: 2^16384, or 16445 + 64 bits. */
#define FP_WORDS ((INT_DIGITS * 4 + 64) / 32 + 4)

/* A finite binary floating-point number: mant * 2^e2, and its sign. */
struct binary_float {
    uint64_t mant;
    int e2;
    int neg;
    int nan, inf;
};

/* The parts of a double. */
static struct binary_float binary_of_double(double v)
{
    union {
        double d;
        uint64_t u;
    } bits;
    struct binary_float b;
    int biased;
    bits.d = v;
    biased = (int)((bits.u >> 52) & 0x7ff);
    b.neg = (int)(bits.u >> 63);
    b.mant = bits.u & ((1ULL << 52) - 1);
    b.nan = biased == 0x7ff && b.mant != 0;
    b.inf = biased == 0x7ff && b.mant == 0;
    if (biased == 0) {
        b.e2 = 1 - 1075;
    } else {
        b.mant |= 1ULL << 52;
        b.e2 = biased - 1075;
    }
    return b;
}

#if __LDBL_MANT_DIG__ == 64
/* The parts of an x87 long double (its 64-bit significand holds the integer bit). */
static struct binary_float binary_of_ldouble(long double v)
{
    union {
        long double ld;
        struct {
            uint64_t mant;
            uint16_t sign_exp;
        } x;
    } bits;
    struct binary_float b;
    int biased;
    bits.ld = v;
    biased = bits.x.sign_exp & 0x7fff;
    b.neg = bits.x.sign_exp >> 15;
    b.mant = bits.x.mant;
    b.nan = v != v;
    b.inf = biased == 0x7fff && !b.nan;
    b.e2 = (biased != 0 ? biased : 1) - 16383 - 63;
    return b;
}
#endif

/* value = 0.d[0]d[1]...d[n-1] * 10^dp (+ something nonzero if sticky) */
struct decimal {
    int n;
    int dp;
    int sticky;
    char d[DEC_DIGITS];
};

static int dec_digit(const struct decimal *x, int i)
{
    return (i >= 0 && i < x->n) ? x->d[i] : 0;
}

/* Exact expansion of the finite number mant * 2^e2 (its magnitude).
 * frac_limit: stop after this many fraction positions (-1: no limit);
 * sig_limit: stop after this many significant digits (-1: no limit). */
static void dec_expand(struct decimal *x, uint64_t mant, int e2, int frac_limit,
                       int sig_limit)
{
    int i, nw, pos;
    static uint32_t w[FP_WORDS];
    static char tmp[INT_DIGITS + 10];
    int tn = 0;

    x->n = 0;
    x->dp = 0;
    x->sticky = 0;
    if (mant == 0)
        return;

    /* Integer part into 32-bit words (little endian). */
    for (i = 0; i < (e2 >= 0 ? e2 / 32 + 3 : 2); i++)
        w[i] = 0;
    if (e2 >= 0) {
        int q = e2 / 32, r = e2 % 32;
        w[q] = (uint32_t)(mant << r);
        w[q + 1] = (uint32_t)(mant >> (32 - r));
        w[q + 2] = r == 0 ? 0 : (uint32_t)(mant >> (64 - r));
        nw = q + 3;
    } else if (e2 > -64) {
        uint64_t ip = mant >> -e2;
        w[0] = (uint32_t)ip;
        w[1] = (uint32_t)(ip >> 32);
        nw = 2;
    } else {
        nw = 0;
    }
    while (nw > 0 && w[nw - 1] == 0)
        nw--;
    /* Base 1e9 chunks, least significant first, digits reversed in tmp. */
    while (nw > 0) {
        uint64_t rem = 0;
        int k;
        for (i = nw - 1; i >= 0; i--) {
            uint64_t cur = (rem << 32) | w[i];
            w[i] = (uint32_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        while (nw > 0 && w[nw - 1] == 0)
            nw--;
        for (k = 0; k < 9 && (nw > 0 || rem != 0); k++) {
            tmp[tn++] = (char)(rem % 10);
            rem /= 10;
        }
    }
    while (tn > 0)
        x->d[x->n++] = tmp[--tn];
    x->dp = x->n;

    /* Fraction: fixed point with the binary point above word nw-1. */
    if (e2 < 0) {
        int k = -e2;            /* number of fraction bits */
        int s;
        uint64_t fr = k >= 64 ? mant : (mant & ((1ULL << k) - 1));
        int nonzero;
        nw = (k + 31) / 32;
        s = nw * 32 - k;
        for (i = 0; i < nw; i++)
            w[i] = 0;
        w[0] = (uint32_t)(fr << s);
        if (nw > 1)
            w[1] = (uint32_t)(fr >> (32 - s));
        if (nw > 2 && s > 0)
            w[2] = (uint32_t)(fr >> (64 - s));
        nonzero = fr != 0;
        pos = 0;
        while (nonzero) {
            uint64_t carry = 0;
            if (frac_limit >= 0 && pos >= frac_limit)
                break;
            if (sig_limit >= 0 && x->n >= sig_limit)
                break;
            if (x->n >= DEC_DIGITS)
                break;
            nonzero = 0;
            for (i = 0; i < nw; i++) {
                uint64_t p = (uint64_t)w[i] * 10 + carry;
                w[i] = (uint32_t)p;
                carry = p >> 32;
                nonzero |= w[i] != 0;
            }
            pos++;
            if (x->n == 0 && carry == 0)
                x->dp--;            /* leading zero of a value < 1 */
            else
                x->d[x->n++] = (char)carry;
        }
        x->sticky = nonzero;
    }
}

/* Round to 'keep' digits (half to even on the exact value). */
static void dec_round(struct decimal *x, int keep)
{
    int up, i, rest = 0;
    if (keep >= x->n)
        return;
    if (keep < 0) {
        x->n = 0;
        x->sticky = 0;
        return;
    }
    for (i = keep + 1; i < x->n; i++)
        rest |= x->d[i] != 0;
    rest |= x->sticky;
    up = x->d[keep] > 5 ||
         (x->d[keep] == 5 && (rest || (keep > 0 && (x->d[keep - 1] & 1))));
    x->n = keep;
    x->sticky = 0;
    if (!up)
        return;
    for (i = keep - 1; i >= 0; i--) {
        if (x->d[i] < 9) {
            x->d[i]++;
            return;
        }
        x->d[i] = 0;
    }
    /* Carry out of the first digit (or keep == 0): value is 10^dp. */
    x->d[0] = 1;
    x->n = keep > 0 ? keep : 1;
    x->dp++;
}

/* Emit the body (no sign, no padding) into out; returns its length. */
static int body_fixed(char *out, const struct decimal *x, long prec, int alt)
{
    int n = 0, i;
    if (x->dp > 0) {
        for (i = 0; i < x->dp; i++)
            out[n++] = (char)('0' + dec_digit(x, i));
    } else {
        out[n++] = '0';
    }
    if (prec > 0 || alt)
        out[n++] = '.';
    for (i = 0; i < prec; i++)
        out[n++] = (char)('0' + dec_digit(x, x->dp + i));
    return n;
}

static int body_exp(char *out, const struct decimal *x, long prec, int alt,
                    int upper)
{
    int n = 0, i, e, ed = 0;
    char edig[8];
    out[n++] = (char)('0' + dec_digit(x, 0));
    if (prec > 0 || alt)
        out[n++] = '.';
    for (i = 1; i <= prec; i++)
        out[n++] = (char)('0' + dec_digit(x, i));
    e = x->n == 0 ? 0 : x->dp - 1;
    out[n++] = upper ? 'E' : 'e';
    out[n++] = e < 0 ? '-' : '+';
    if (e < 0)
        e = -e;
    do {
        edig[ed++] = (char)('0' + e % 10);
        e /= 10;
    } while (e != 0);
    if (ed < 2)
        edig[ed++] = '0';
    while (ed > 0)
        out[n++] = edig[--ed];
    return n;
}

static void fmt_float(struct sink *s, const struct spec *sp, struct binary_float v)
{
    static struct decimal x;      /* large: keep it off the stack */
    static char body[DEC_DIGITS + 16];
    char conv = sp->conv;
    int upper = conv == 'F' || conv == 'E' || conv == 'G';
    int blen, alt = (sp->flags & FL_ALT) != 0;
    long prec = sp->prec < 0 ? 6 : sp->prec, len;
    char sign = sign_of(sp, v.neg);
    int zero_pad = (sp->flags & FL_ZERO) && !(sp->flags & FL_LEFT);

    if (prec > MAX_FPREC)
        prec = MAX_FPREC;

    if (v.nan || v.inf) {
        const char *t = v.nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        memcpy(body, t, 3);
        blen = 3;
        zero_pad = 0;
    } else if (conv == 'f' || conv == 'F') {
        dec_expand(&x, v.mant, v.e2, (int)prec + 1, -1);
        dec_round(&x, x.dp + (int)prec);
        blen = body_fixed(body, &x, prec, alt);
    } else if (conv == 'e' || conv == 'E') {
        dec_expand(&x, v.mant, v.e2, -1, (int)prec + 2);
        dec_round(&x, (int)prec + 1);
        blen = body_exp(body, &x, prec, alt, upper);
    } else { /* g, G */
        long P = prec == 0 ? 1 : prec;
        int X;
        dec_expand(&x, v.mant, v.e2, -1, (int)P + 1);
        dec_round(&x, (int)P);
        X = x.n == 0 ? 0 : x.dp - 1;
        if (P > X && X >= -4)
            blen = body_fixed(body, &x, P - 1 - X, alt);
        else
            blen = body_exp(body, &x, P - 1, alt, upper);
        if (!alt) {
            /* Strip trailing zeros of the fraction, then a bare point. */
            int epos = 0, i, j;
            while (epos < blen && body[epos] != 'e' && body[epos] != 'E')
                epos++;
            for (i = 0; i < epos && body[i] != '.'; i++)
                ;
            if (i < epos) {
                j = epos;
                while (j > i + 1 && body[j - 1] == '0')
                    j--;
                if (j == i + 1)
                    j = i;
                memmove(body + j, body + epos, (size_t)(blen - epos));
                blen -= epos - j;
            }
        }
    }

    len = blen + (sign != 0);
    if (!(sp->flags & FL_LEFT) && !zero_pad)
        put_pad(s, ' ', sp->width - len);
    if (sign)
        put_char(s, sign);
    if (zero_pad)
        put_pad(s, '0', sp->width - len);
    put_chars(s, body, (size_t)blen);
    if (sp->flags & FL_LEFT)
        put_pad(s, ' ', sp->width - len);
}

/* ---- hexadecimal floating point (%a, %A) ------------------------------------ */

/* A finite number as %a shows it: `lead`, then the hex digits `digit[0..count)`
 * after the point, times 2 to the power `exp`. */
struct hex_float {
    int neg;
    unsigned lead;
    unsigned char digit[16];
    int count;
    long exp;
};

/* Round h to `prec` digits after the point (to nearest, ties to even), as glibc
 * does; a carry out of the digits goes into the leading digit, which is not
 * normalised again ("%.0a" of 1.9 is "0x2p+0") unless it overflows a hex digit
 * (a long double's "%.0La" of 0xf.8p+0 is "0x1p+4"). */
static void hex_round(struct hex_float *h, int prec)
{
    int i, up, rest = 0;
    if (prec >= h->count)
        return;
    for (i = prec + 1; i < h->count; i++)
        rest |= h->digit[i];
    if (h->digit[prec] != 8)
        up = h->digit[prec] > 8;
    else
        up = rest != 0 || ((prec > 0 ? h->digit[prec - 1] : h->lead) & 1);
    h->count = prec;
    for (i = prec - 1; up && i >= 0; i--) {
        up = h->digit[i] == 15;
        h->digit[i] = (unsigned char)((h->digit[i] + 1) & 15);
    }
    if (up && ++h->lead == 16) {
        h->lead = 1;
        h->exp += 4;
    }
}

/* Print h under the spec's flags, width and precision (-1: every digit but
 * trailing zeros; digits asked for beyond those the number has are zeros). */
static void put_hex_float(struct sink *s, const struct spec *sp, struct hex_float *h)
{
    const char *hex = sp->conv == 'A' ? "0123456789ABCDEF" : "0123456789abcdef";
    char sign = sign_of(sp, h->neg);
    char mant[24], power[8];
    int m = 0, p = 0, i, zeros;
    long e, len;
    if (sp->prec < 0)
        while (h->count > 0 && h->digit[h->count - 1] == 0)
            h->count--;
    else
        hex_round(h, sp->prec);
    e = h->exp < 0 ? -h->exp : h->exp;
    zeros = sp->prec > h->count ? sp->prec - h->count : 0;
    mant[m++] = hex[h->lead];
    if (h->count > 0 || zeros > 0 || (sp->flags & FL_ALT))
        mant[m++] = '.';
    for (i = 0; i < h->count; i++)
        mant[m++] = hex[h->digit[i]];
    do { /* the exponent's decimal digits, last first */
        power[p++] = (char)('0' + e % 10);
        e /= 10;
    } while (e != 0);
    len = (sign != 0) + 2 + m + zeros + 2 + p;
    if (!(sp->flags & (FL_LEFT | FL_ZERO)))
        put_pad(s, ' ', sp->width - len);
    if (sign)
        put_char(s, sign);
    put_char(s, '0');
    put_char(s, sp->conv == 'A' ? 'X' : 'x');
    if ((sp->flags & FL_ZERO) && !(sp->flags & FL_LEFT))
        put_pad(s, '0', sp->width - len);
    put_chars(s, mant, (size_t)m);
    put_pad(s, '0', zeros);
    put_char(s, sp->conv == 'A' ? 'P' : 'p');
    put_char(s, h->exp < 0 ? '-' : '+');
    while (p > 0)
        put_char(s, power[--p]);
    if (sp->flags & FL_LEFT)
        put_pad(s, ' ', sp->width - len);
}

/* Split `bits` (the fraction, `count` hex digits of it, the first the highest)
 * into h's digits. */
static void hex_digits(struct hex_float *h, uint64_t bits, int count)
{
    int i;
    h->count = count;
    for (i = 0; i < count; i++)
        h->digit[i] = (unsigned char)((bits >> (4 * (count - 1 - i))) & 15);
}

/* %a of a finite or non-finite number whose significand has `point` bits after
 * its leading digit, as glibc prints it: a double (point 52) as 0x1.<13 hex
 * digits>p<exp> when normal, 0x0.<digits>p-1022 when subnormal; an x87 long
 * double (point 60: its 64-bit significand's top four bits lead, 0x8p-3 is 1.0)
 * with 15 hex digits; zero as 0x0p+0. */
static void fmt_hex(struct sink *s, const struct spec *sp, struct binary_float v, int point)
{
    struct hex_float h;
    if (v.nan || v.inf) {
        struct spec f = *sp;
        f.conv = sp->conv == 'A' ? 'F' : 'f';
        fmt_float(s, &f, v);
        return;
    }
    h.neg = v.neg;
    h.lead = (unsigned)(v.mant >> point);
    hex_digits(&h, v.mant & ((1ULL << point) - 1), point / 4);
    h.exp = v.mant == 0 ? 0 : v.e2 + point;
    put_hex_float(s, sp, &h);
}

/* ---- the formatter --------------------------------------------------------- */

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_LD, LEN_Z, LEN_J, LEN_T };

/* Returns the number of characters produced, or -1 on error. */
static int format_core(struct sink *s, const char *fmt, va_list ap)
{
    const char *p = fmt;
    while (*p != '\0') {
        const char *start;
        struct spec sp;
        int len = LEN_NONE;

        if (*p != '%') {
            put_char(s, *p++);
            continue;
        }
        start = p++;
        sp.flags = 0;
        sp.width = 0;
        sp.prec = -1;
        for (;; p++) {
            if (*p == '-')
                sp.flags |= FL_LEFT;
            else if (*p == '+')
                sp.flags |= FL_PLUS;
            else if (*p == ' ')
                sp.flags |= FL_SPACE;
            else if (*p == '#')
                sp.flags |= FL_ALT;
            else if (*p == '0')
                sp.flags |= FL_ZERO;
            else if (*p == '\'' || *p == 'I')
                ; /* grouping / locale digits: no effect in the C locale */
            else
                break;
        }
        if (*p == '*') {
            int w = va_arg(ap, int);
            p++;
            if (w < 0) {
                sp.flags |= FL_LEFT;
                sp.width = -(long)w;
            } else {
                sp.width = w;
            }
        } else {
            while (isdigit((unsigned char)*p))
                sp.width = sp.width * 10 + (*p++ - '0');
        }
        if (*p == '.') {
            p++;
            if (*p == '*') {
                int pr = va_arg(ap, int);
                p++;
                sp.prec = pr < 0 ? -1 : pr;
            } else {
                sp.prec = 0;
                while (isdigit((unsigned char)*p))
                    sp.prec = sp.prec * 10 + (*p++ - '0');
            }
        }
        for (;; p++) {
            if (*p == 'h')
                len = len == LEN_H ? LEN_HH : LEN_H;
            else if (*p == 'l')
                len = len == LEN_L ? LEN_LL : LEN_L;
            else if (*p == 'q')
                len = LEN_LL;
            else if (*p == 'L')
                len = LEN_LD;
            else if (*p == 'z' || *p == 'Z')
                len = LEN_Z;
            else if (*p == 'j')
                len = LEN_J;
            else if (*p == 't')
                len = LEN_T;
            else
                break;
        }
        sp.conv = *p;
        if (*p == '\0') {
            errno = EINVAL;
            return -1;
        }
        p++;
        switch (sp.conv) {
        case 'd':
        case 'i': {
            long long v;
            if (len == LEN_NONE)
                v = va_arg(ap, int);
            else if (len == LEN_HH)
                v = (signed char)va_arg(ap, int);
            else if (len == LEN_H)
                v = (short)va_arg(ap, int);
            else
                v = va_arg(ap, long long);
            fmt_integer(s, &sp,
                        v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v,
                        v < 0, 1, 10, 0, 0);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            unsigned long long v;
            if (len == LEN_NONE)
                v = va_arg(ap, unsigned int);
            else if (len == LEN_HH)
                v = (unsigned char)va_arg(ap, unsigned int);
            else if (len == LEN_H)
                v = (unsigned short)va_arg(ap, unsigned int);
            else
                v = va_arg(ap, unsigned long long);
            fmt_integer(s, &sp, v, 0, 0,
                        sp.conv == 'u' ? 10 : sp.conv == 'o' ? 8 : 16,
                        sp.conv == 'X', 0);
            break;
        }
        case 'p': {
            void *v = va_arg(ap, void *);
            if (v == NULL) {
                fmt_string(s, &sp, "(nil)", 5);
            } else {
                sp.flags |= FL_ALT;
                fmt_integer(s, &sp, (unsigned long long)(uintptr_t)v, 0, 0, 16,
                            0, 1);
            }
            break;
        }
        case 'c': {
            char c;
            c = (char)va_arg(ap, int);
            fmt_string(s, &sp, &c, 1);
            break;
        }
        case 's': {
            const char *str = va_arg(ap, const char *);
            size_t n;
            if (len == LEN_L && str != NULL) {
                /* wide string: narrow each character (ASCII only) */
                const int *ws = (const int *)(const void *)str;
                char c;
                size_t i;
                for (n = 0; ws[n] != 0 && (sp.prec < 0 || (long)n < sp.prec); n++)
                    ;
                if (!(sp.flags & FL_LEFT))
                    put_pad(s, ' ', sp.width - (long)n);
                for (i = 0; i < n; i++) {
                    c = (char)ws[i];
                    put_char(s, c);
                }
                if (sp.flags & FL_LEFT)
                    put_pad(s, ' ', sp.width - (long)n);
                break;
            }
            if (str == NULL) {
                if (sp.prec >= 0 && sp.prec < 6)
                    str = "";
                else
                    str = "(null)";
            }
            n = sp.prec >= 0 ? strnlen(str, (size_t)sp.prec) : strlen(str);
            fmt_string(s, &sp, str, n);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
            double v;
            if (len == LEN_LD) {
#if __LDBL_MANT_DIG__ == 64
                struct binary_float ld = binary_of_ldouble(va_arg(ap, long double));
                if (sp.conv == 'a' || sp.conv == 'A')
                    fmt_hex(s, &sp, ld, 60);
                else
                    fmt_float(s, &sp, ld);
                break;
#else
                v = (double)va_arg(ap, long double);
#endif
            } else {
                v = va_arg(ap, double);
            }
            if (sp.conv == 'a' || sp.conv == 'A')
                fmt_hex(s, &sp, binary_of_double(v), 52);
            else
                fmt_float(s, &sp, binary_of_double(v));
            break;
        }
        case 'n': {
            void *ptr = va_arg(ap, void *);
            if (len == LEN_HH)
                *(signed char *)ptr = (signed char)s->total;
            else if (len == LEN_H)
                *(short *)ptr = (short)s->total;
            else if (len == LEN_NONE)
                *(int *)ptr = (int)s->total;
            else
                *(long long *)ptr = (long long)s->total;
            break;
        }
        case '%':
            put_char(s, '%');
            break;
        default:
            /* Unknown conversion: copy the specification verbatim. */
            put_chars(s, start, (size_t)(p - start));
            break;
        }
    }
    return 0;
}

static int finish(struct sink *s, int r)
{
    if (s->f != NULL || s->fd >= 0)
        sink_flush(s);
    else if (s->cap > 0)
        s->dst[s->total < s->cap ? s->total : s->cap - 1] = '\0';
    if (r < 0 || s->err)
        return -1;
    if (s->total > INT_MAX) {
        errno = 75; /* EOVERFLOW */
        return -1;
    }
    return (int)s->total;
}

/* ---- public entry points ----------------------------------------------- */

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    struct sink s;
    sink_init_string(&s, buf, n);
    return finish(&s, format_core(&s, fmt, ap));
}

int vsprintf(char *buf, const char *fmt, va_list ap)
{
    return vsnprintf(buf, (size_t)INT_MAX + 1, fmt, ap);
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
    struct sink s;
    sink_init_string(&s, NULL, 0);
    s.f = f;
    return finish(&s, format_core(&s, fmt, ap));
}

int vprintf(const char *fmt, va_list ap)
{
    return vfprintf(stdout, fmt, ap);
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
    struct sink s;
    sink_init_string(&s, NULL, 0);
    s.fd = fd;
    return finish(&s, format_core(&s, fmt, ap));
}

int vasprintf(char **out, const char *fmt, va_list ap)
{
    va_list again;
    int n;
    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n >= 0 && (*out = malloc((size_t)n + 1)) == NULL) {
        errno = ENOMEM;
        n = -1;
    }
    if (n >= 0)
        vsnprintf(*out, (size_t)n + 1, fmt, again);
    va_end(again);
    return n;
}

int asprintf(char **out, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vasprintf(out, fmt, ap);
    va_end(ap);
    return r;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int sprintf(char *buf, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}

int fprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int printf(const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return r;
}

int dprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}

/* _FORTIFY_SOURCE variants (the flag and object size are not checked). */
int __vsnprintf_chk(char *buf, size_t n, int flag, size_t slen,
                    const char *fmt, va_list ap)
{
    (void)flag;
    (void)slen;
    return vsnprintf(buf, n, fmt, ap);
}

int __vsprintf_chk(char *buf, int flag, size_t slen, const char *fmt,
                   va_list ap)
{
    (void)flag;
    (void)slen;
    return vsprintf(buf, fmt, ap);
}

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
    (void)flag;
    return vfprintf(f, fmt, ap);
}

int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
    (void)flag;
    return vfprintf(stdout, fmt, ap);
}

int __snprintf_chk(char *buf, size_t n, int flag, size_t slen,
                   const char *fmt, ...)
{
    va_list ap;
    int r;
    (void)flag;
    (void)slen;
    va_start(ap, fmt);
    r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int __sprintf_chk(char *buf, int flag, size_t slen, const char *fmt, ...)
{
    va_list ap;
    int r;
    (void)flag;
    (void)slen;
    va_start(ap, fmt);
    r = vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
    va_list ap;
    int r;
    (void)flag;
    va_start(ap, fmt);
    r = vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int __printf_chk(int flag, const char *fmt, ...)
{
    va_list ap;
    int r;
    (void)flag;
    va_start(ap, fmt);
    r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return r;
}
