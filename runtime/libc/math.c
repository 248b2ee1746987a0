/*
 * math.c - <math.h> models.  These only ever see concrete doubles.
 *
 * fabs/floor/ceil/trunc/round use clang builtins, which lower to LLVM
 * intrinsics that the engine evaluates directly.  sqrt is computed bit by
 * bit (correctly rounded): __builtin_sqrt would become a call to sqrt
 * itself because math-errno is on.  exp/log/pow/sin/cos use argument
 * reduction plus series; they are accurate to about 1 ulp for ordinary
 * arguments (pow: ~1e-15 relative, sin/cos: |x| < 1e9).
 */
#include "libc_internal.h"

/* Deterministic results: never fuse a*b+c into an FMA. */
#pragma STDC FP_CONTRACT OFF

#define INF __builtin_inf()
#define NAN_ __builtin_nan("")

union dbits {
    double d;
    uint64_t u;
};

double fabs(double x) { return __builtin_fabs(x); }
double floor(double x) { return __builtin_floor(x); }
double ceil(double x) { return __builtin_ceil(x); }
double trunc(double x) { return __builtin_trunc(x); }
double round(double x) { return __builtin_round(x); }

/* x * 2^e, exact unless the result over/underflows. */
static double scalbn_(double x, int e)
{
    union dbits b;
    while (e > 1023) {
        x *= 0x1p1023;
        e -= 1023;
        if (x == INF || x == -INF)
            return x;
    }
    while (e < -1022) {
        x *= 0x1p-969;   /* keep 53 bits of headroom */
        e += 969;
        if (x == 0.0)
            return x;
    }
    b.u = (uint64_t)(e + 1023) << 52;
    return x * b.d;
}

double sqrt(double x)
{
    union dbits b;
    uint64_t m, rem, res, hi, round_bit;
    int e, i;
    if (x != x || x == INF || x == 0.0)
        return x; /* nan, +inf and +-0 are their own square roots */
    if (x < 0.0) {
        errno = EDOM;
        return NAN_;
    }
    b.d = x;
    e = (int)((b.u >> 52) & 0x7ff);
    m = b.u & ((1ULL << 52) - 1);
    if (e == 0) { /* subnormal: normalise */
        e = 1;
        while (!(m & (1ULL << 52))) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 1ULL << 52;
    }
    e -= 1023; /* x = m * 2^(e-52), m in [2^52, 2^53) */
    if (e & 1) {
        m <<= 1;
        e--;
    }
    /* Digit-by-digit integer square root of R = m * 2^54 (108 bits, fed
     * two bits at a time from hi = R << 20): 54 result bits, i.e. the 53
     * mantissa bits plus a rounding bit; rem is the exact remainder. */
    hi = m << 10;
    rem = 0;
    res = 0;
    for (i = 0; i < 54; i++) {
        uint64_t trial;
        rem = (rem << 2) | (hi >> 62);
        hi <<= 2;
        trial = (res << 2) | 1;
        res <<= 1;
        if (rem >= trial) {
            rem -= trial;
            res |= 1;
        }
    }
    round_bit = res & 1;
    res >>= 1;
    if (round_bit && (rem != 0 || (res & 1)))
        res++;
    /* sqrt(x) = res * 2^(e/2 - 52) */
    b.u = ((uint64_t)(e / 2 + 1023) << 52) + (res - (1ULL << 52));
    return b.d;
}

static const double ln2_hi = 6.93147180369123816490e-01;
static const double ln2_lo = 1.90821492927058770002e-10;

double exp(double x)
{
    double k, r, term, sum;
    int i, n;
    if (x != x)
        return x;
    if (x > 709.782712893384)
        return errno = ERANGE, INF;
    if (x < -745.2)
        return errno = ERANGE, 0.0;
    k = __builtin_floor(x / 0.6931471805599453 + 0.5);
    n = (int)k;
    r = (x - k * ln2_hi) - k * ln2_lo;   /* |r| <= ln2/2 */
    /* e^r - 1 = r(1 + r/2(1 + r/3(1 + ...))), evaluated inside out so
     * that the small terms are summed first; 1 is added last. */
    sum = 0.0;
    for (i = 22; i >= 1; i--)
        sum = (r / i) * (1.0 + sum);
    sum = 1.0 + sum;
    (void)term;
    return scalbn_(sum, n);
}

double log(double x)
{
    union dbits b;
    int e;
    double f, s, s2, term, sum, k;
    int i;
    if (x != x)
        return x;
    if (x < 0.0) {
        errno = EDOM;
        return NAN_;
    }
    if (x == 0.0) {
        errno = ERANGE;
        return -INF;
    }
    if (x == INF)
        return x;
    b.d = x;
    e = (int)((b.u >> 52) & 0x7ff);
    if (e == 0) {               /* subnormal */
        b.d = x * 0x1p54;
        e = (int)((b.u >> 52) & 0x7ff) - 54;
    }
    e -= 1023;
    b.u = (b.u & ((1ULL << 52) - 1)) | (1023ULL << 52); /* m in [1,2) */
    f = b.d;
    if (f > 1.4142135623730951) {
        f *= 0.5;
        e++;
    }
    /* log(f) = 2 atanh(s), s = (f-1)/(f+1), |s| < 0.172 */
    s = (f - 1.0) / (f + 1.0);
    s2 = s * s;
    sum = 0.0;
    term = s;
    for (i = 1; i < 60; i += 2) {
        double t = term / i;
        sum += t;
        if (__builtin_fabs(t) < 1e-20)
            break;
        term *= s2;
    }
    k = (double)e;
    return k * ln2_hi + (2.0 * sum + k * ln2_lo);
}

static int is_integer(double y)
{
    return __builtin_trunc(y) == y;
}

static int is_odd_integer(double y)
{
    return is_integer(y) && __builtin_fabs(y) < 9007199254740992.0 &&
           __builtin_fmod(y, 2.0) != 0.0;
}

double pow(double x, double y)
{
    double ax, r;
    int neg = 0;
    if (y == 0.0 || x == 1.0)
        return 1.0;
    if (x != x || y != y)
        return x + y;
    if (y == INF || y == -INF) {
        ax = __builtin_fabs(x);
        if (ax == 1.0)
            return 1.0;
        return (ax > 1.0) == (y > 0) ? INF : 0.0;
    }
    if (x == 0.0) {
        int odd = is_odd_integer(y);
        union dbits b;
        b.d = x;
        if (y < 0) {
            errno = ERANGE;
            return (odd && (b.u >> 63)) ? -INF : INF;
        }
        return odd ? x : 0.0;
    }
    if (x == INF || x == -INF) {
        int odd = is_odd_integer(y);
        if (y < 0)
            return (x < 0 && odd) ? -0.0 : 0.0;
        return (x < 0 && odd) ? -INF : INF;
    }
    if (x < 0.0) {
        if (!is_integer(y)) {
            errno = EDOM;
            return NAN_;
        }
        neg = is_odd_integer(y);
        x = -x;
    }
    if (is_integer(y) && __builtin_fabs(y) <= 64.0) {
        /* exact-as-possible repeated squaring */
        long n = (long)__builtin_fabs(y);
        double base = x;
        r = 1.0;
        while (n > 0) {
            if (n & 1)
                r *= base;
            base *= base;
            n >>= 1;
        }
        if (y < 0)
            r = 1.0 / r;
    } else {
        r = exp(y * log(x));
    }
    if (r == INF || r == 0.0)
        errno = ERANGE;
    return neg ? -r : r;
}

double fmod(double x, double y)
{
    double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
    if (x != x || y != y)
        return x + y;
    if (ax == INF || ay == 0.0) {
        errno = EDOM;
        return NAN_;
    }
    if (ax < ay)
        return x;
    while (ax >= ay) {
        double t = ay;
        while (t < 0x1p1022 && t * 2.0 <= ax)
            t *= 2.0;
        ax -= t;   /* exact: ax and t within a factor of 2 */
    }
    return x < 0 ? -ax : ax;
}

/* ---- sin / cos ----------------------------------------------------------- */

static const double pio2_1 = 1.57079632673412561417e+00;  /* first 33 bits */
static const double pio2_2 = 6.07710050630396597660e-11;  /* next 33 bits */
static const double pio2_3 = 2.02226624871116645580e-21;  /* next 33 bits */
static const double pio2_3t = 8.47842766036889956997e-32; /* tail */

/* x = n*pi/2 + (r + rlo), |r| <= ~pi/4, r + rlo a double-double; returns
 * n mod 4.  n*pio2_k is exact for |n| < 2^20 (each constant has 33 bits). */
static int reduce(double x, double *r, double *rlo)
{
    double n = __builtin_round(x * 0.63661977236758134308);
    double y1 = x - n * pio2_1;          /* exact */
    double w = n * pio2_2;               /* exact */
    double y2 = y1 - w;
    double lo = ((y1 - y2) - w) - n * pio2_3 - n * pio2_3t;
    double hi = y2 + lo;
    *r = hi;
    *rlo = (y2 - hi) + lo;
    return (int)((long long)__builtin_fmod(n, 4.0) & 3);
}

/* sin(r + rlo) for |r| <= pi/4: r - r*t with t = r^2/6 (1 - r^2/20 (...)) */
static double ksin(double r, double rlo)
{
    double r2 = r * r, t = 0.0;
    int k;
    for (k = 11; k >= 1; k--)
        t = r2 / (double)((2 * k) * (2 * k + 1)) * (1.0 - t);
    return r + (rlo - r * t);
}

/* cos(r + rlo) for |r| <= pi/4: 1 - t with t = r^2/2 (1 - r^2/12 (...)) */
static double kcos(double r, double rlo)
{
    double r2 = r * r, t = 0.0;
    int k;
    for (k = 11; k >= 1; k--)
        t = r2 / (double)((2 * k - 1) * (2 * k)) * (1.0 - t);
    return 1.0 - (t + r * rlo);
}

double sin(double x)
{
    double r, rlo;
    int q;
    if (x != x)
        return x;
    if (x == INF || x == -INF) {
        errno = EDOM;
        return NAN_;
    }
    if (__builtin_fabs(x) < 0x1p-26)
        return x;
    q = reduce(x, &r, &rlo);
    switch (q) {
    case 0:
        return ksin(r, rlo);
    case 1:
        return kcos(r, rlo);
    case 2:
        return -ksin(r, rlo);
    default:
        return -kcos(r, rlo);
    }
}

double cos(double x)
{
    double r, rlo;
    int q;
    if (x != x)
        return x;
    if (x == INF || x == -INF) {
        errno = EDOM;
        return NAN_;
    }
    q = reduce(x, &r, &rlo);
    switch (q) {
    case 0:
        return kcos(r, rlo);
    case 1:
        return -ksin(r, rlo);
    case 2:
        return -kcos(r, rlo);
    default:
        return ksin(r, rlo);
    }
}
