/*
 * ldouble.c - long double functions: strtold.
 *
 * augur compiles C for analysis with -mlong-double-64, and the models with
 * it: long double is then double and strtold is strtod.  A program built
 * elsewhere (wllvm, plain clang) keeps x87 long doubles (x86_fp80); augur then
 * links the models compiled with -mlong-double-80, and strtold builds the
 * 80-bit value itself: correctly rounded (to nearest, ties to even) like
 * glibc's when the number has at most 19 significant digits and a decimal
 * exponent within -19..38 (or is a hex float of at most 15 digits), otherwise
 * the double nearest the number, widened.
 */
#include "libc_internal.h"

#if __LDBL_MANT_DIG__ == 64

typedef unsigned __int128 u128;

/* The long double mant * 2^e, mant normalised (bit 63 set); 0 if mant is 0. */
static long double ld_make(int neg, uint64_t mant, long e)
{
    union {
        long double ld;
        struct {
            uint64_t mant;
            uint16_t sign_exp;
        } bits;
    } u = {0};
    u.bits.mant = mant;
    u.bits.sign_exp = (uint16_t)((neg ? 0x8000 : 0) | (mant ? e + 63 + 16383 : 0));
    return u.ld;
}

static int clz128(u128 q)
{
    uint64_t hi = (uint64_t)(q >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)q);
}

/* q * 2^e (q nonzero) rounded to 64 significant bits, ties to even; inexact
 * says the true value is a little above q * 2^e (q then has more than 64
 * bits).  Returns 0 and leaves *out alone outside the normal range. */
static int ld_round(int neg, u128 q, int inexact, long e, long double *out)
{
    int shift = 64 - clz128(q);
    uint64_t mant;

    if (shift <= 0) {
        mant = (uint64_t)q << -shift;
    } else {
        u128 rest = q & (((u128)1 << shift) - 1);
        u128 half = (u128)1 << (shift - 1);
        mant = (uint64_t)(q >> shift);
        if (rest > half || (rest == half && (inexact || (mant & 1)))) {
            mant++;
            if (mant == 0) {
                mant = 1ULL << 63;
                shift++;
            }
        }
    }
    e += shift;
    if (e + 63 + 16383 < 1 || e + 63 + 16383 > 0x7ffe)
        return 0;
    *out = ld_make(neg, mant, e);
    return 1;
}

/* The exactly rounded value of a finite scanned number, if within the range
 * described above. */
static int ld_exact(const struct augur_float *f, long double *out)
{
    u128 p10 = 1;
    long i;

    if (f->inexact)
        return 0;
    if (f->m == 0) {
        *out = ld_make(f->neg, 0, 0);
        return 1;
    }
    if (f->hex)
        return f->exp > -20000 && f->exp < 20000 && ld_round(f->neg, f->m, 0, f->exp, out);
    if (f->exp >= 0) {
        if (f->exp > 38)
            return 0;
        for (i = 0; i < f->exp; i++)
            p10 *= 10;
        if (f->m > ~(u128)0 / p10)
            return 0;
        return ld_round(f->neg, f->m * p10, 0, 0, out);
    }
    if (f->exp < -19)
        return 0;
    for (i = 0; i < -f->exp; i++)
        p10 *= 10;
    {
        /* m / 10^k as (m << 64) / d, with 64 more quotient bits when the
         * first division gives fewer than 65. */
        u128 num = (u128)f->m << 64;
        u128 q = num / p10, r = num % p10;
        long e = -64;
        if ((q >> 64) == 0) {
            u128 num2 = r << 64;
            q = (q << 64) | (num2 / p10);
            r = num2 % p10;
            e -= 64;
        }
        return ld_round(f->neg, q, r != 0, e, out);
    }
}

/* v itself.  augur computes floating point on concrete values, so these exact
 * conversions fix v to one of its possible values, as strtod's conversion of
 * its digits to double does: the 128-bit arithmetic that follows then works
 * on constants instead of building symbolic divisions the solver must
 * bit-blast (natively they change nothing). */
static uint64_t settle(uint64_t v)
{
    uint64_t hi = (uint64_t)(double)(uint32_t)(v >> 32);
    uint64_t lo = (uint64_t)(double)(uint32_t)v;
    return hi << 32 | lo;
}

long double strtold(const char *s, char **end)
{
    struct augur_float f;
    long double r;
    const char *e = __augur_scan_float(s, &f);

    if (end != NULL)
        *end = (char *)e;
    if (f.kind == AUGUR_FLOAT_FINITE) {
        f.m = settle(f.m);
        f.exp = (long)(double)f.exp; /* |exp| < 2^53: exact */
        if (ld_exact(&f, &r))
            return r;
    }
    return (long double)__augur_float_to_double(&f);
}

#else

double strtod(const char *s, char **end);

long double strtold(const char *s, char **end)
{
    return strtod(s, end);
}

#endif
