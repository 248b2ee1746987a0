/*
 * stdlib.c - <stdlib.h> models, errno, and the number-parsing core shared
 * with scanf.c.
 */
#include "libc_internal.h"

/* ---- errno ---------------------------------------------------------- */

int *__errno_location(void)
{
    return augur_errno_location();
}

/* ---- integer parsing ------------------------------------------------ */

int __augur_digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

int __augur_parse_uint(const char *s, char **end, int base,
                       unsigned long long *mag, int *neg, int *ovf)
{
    const char *p = s;
    const char *digits;
    unsigned long long v = 0;
    int d;

    *mag = 0;
    *neg = 0;
    *ovf = 0;
    if (base < 0 || base == 1 || base > 36) {
        errno = EINVAL;
        return -1;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-') {
        *neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    if (p[0] == '0') {
        if ((base == 0 || base == 16) && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
            base = 16;
        } else if (base == 0) {
            base = 8;
        }
    } else if (base == 0) {
        base = 10;
    }
    digits = p;
    for (;; p++) {
        d = __augur_digit_value((unsigned char)*p);
        if (d >= base)
            break;
        if (v > (ULLONG_MAX - (unsigned long long)d) / (unsigned long long)base)
            *ovf = 1;
        else
            v = v * (unsigned long long)base + (unsigned long long)d;
    }
    if (p == digits) {
        /* No digits.  "0x" followed by a non-hex digit parses as "0" with
         * the end pointing at the 'x' (glibc). */
        if (digits - s >= 2 && (digits[-1] == 'x' || digits[-1] == 'X') &&
            digits[-2] == '0')
            *end = (char *)(digits - 1);
        else
            *end = (char *)s;
        return 0;
    }
    *mag = v;
    *end = (char *)p;
    return 0;
}

static long long strto_signed(const char *s, char **endp, int base,
                              long long min, long long max)
{
    unsigned long long mag;
    int neg, ovf;
    char *e;
    if (__augur_parse_uint(s, &e, base, &mag, &neg, &ovf) < 0)
        return 0;
    if (endp != NULL)
        *endp = e;
    if (neg) {
        if (ovf || mag > (unsigned long long)max + 1) {
            errno = ERANGE;
            return min;
        }
        if (mag == (unsigned long long)max + 1)
            return min;
        return -(long long)mag;
    }
    if (ovf || mag > (unsigned long long)max) {
        errno = ERANGE;
        return max;
    }
    return (long long)mag;
}

static unsigned long long strto_unsigned(const char *s, char **endp, int base,
                                         unsigned long long max)
{
    unsigned long long mag;
    int neg, ovf;
    char *e;
    if (__augur_parse_uint(s, &e, base, &mag, &neg, &ovf) < 0)
        return 0;
    if (endp != NULL)
        *endp = e;
    if (ovf || mag > max) {
        errno = ERANGE;
        return max;
    }
    return neg ? (0 - mag) & max : mag;
}

long strtol(const char *s, char **end, int base)
{
    return (long)strto_signed(s, end, base, LONG_MIN, LONG_MAX);
}

unsigned long strtoul(const char *s, char **end, int base)
{
    return (unsigned long)strto_unsigned(s, end, base, ULONG_MAX);
}

long long strtoll(const char *s, char **end, int base)
{
    return strto_signed(s, end, base, LLONG_MIN, LLONG_MAX);
}

unsigned long long strtoull(const char *s, char **end, int base)
{
    return strto_unsigned(s, end, base, ULLONG_MAX);
}

/* glibc >= 2.38 redirects strto* here in C2x mode. */
long __isoc23_strtol(const char *s, char **end, int base)
{
    return strtol(s, end, base);
}
unsigned long __isoc23_strtoul(const char *s, char **end, int base)
{
    return strtoul(s, end, base);
}
long long __isoc23_strtoll(const char *s, char **end, int base)
{
    return strtoll(s, end, base);
}
unsigned long long __isoc23_strtoull(const char *s, char **end, int base)
{
    return strtoull(s, end, base);
}

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }

/* ---- floating-point parsing ----------------------------------------- */

static int lower_eq(const char *p, const char *word)
{
    size_t i;
    for (i = 0; word[i] != '\0'; i++) {
        if (tolower((unsigned char)p[i]) != word[i])
            return 0;
    }
    return 1;
}

static const double pow10_tab[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Multiply by 2^e exactly (except for over/underflow). */
static double scale2(double x, long e)
{
    while (e > 0) {
        x *= 2.0;
        e--;
    }
    while (e < 0) {
        x *= 0.5;
        e++;
    }
    return x;
}

/* The exponent part after a number's digits ('e' for decimal, 'p' for hex
 * floats), added to f->exp; p itself when there is none. */
static const char *scan_exponent(const char *p, char mark, struct augur_float *f)
{
    const char *q = p + 1;
    int eneg = 0;
    long e = 0;

    if (tolower((unsigned char)*p) != mark)
        return p;
    if (*q == '-' || *q == '+')
        eneg = (*q++ == '-');
    if (!isdigit((unsigned char)*q))
        return p;
    while (isdigit((unsigned char)*q)) {
        if (e < 100000)
            e = e * 10 + (*q - '0');
        q++;
    }
    f->exp += eneg ? -e : e;
    return q;
}

const char *__augur_scan_float(const char *s, struct augur_float *f)
{
    const char *p = s;
    int any = 0;

    f->neg = 0;
    f->kind = AUGUR_FLOAT_FINITE;
    f->hex = 0;
    f->inexact = 0;
    f->m = 0;
    f->exp = 0;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '-') {
        f->neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    if (lower_eq(p, "inf")) {
        f->kind = AUGUR_FLOAT_INF;
        return p + (lower_eq(p, "infinity") ? 8 : 3);
    }
    if (lower_eq(p, "nan")) {
        f->kind = AUGUR_FLOAT_NAN;
        p += 3;
        if (*p == '(') {
            const char *q = p + 1;
            while (__augur_digit_value((unsigned char)*q) < 36 || *q == '_')
                q++;
            if (*q == ')')
                p = q + 1;
        }
        return p;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        (isxdigit((unsigned char)p[2]) ||
         (p[2] == '.' && isxdigit((unsigned char)p[3])))) {
        /* Hexadecimal floating constant. */
        int d, seen_dot = 0;
        f->hex = 1;
        p += 2;
        for (;; p++) {
            if (*p == '.' && !seen_dot) {
                seen_dot = 1;
                continue;
            }
            if (!isxdigit((unsigned char)*p))
                break;
            d = __augur_digit_value((unsigned char)*p);
            if (f->m < (1ULL << 60)) {
                f->m = f->m * 16 + (unsigned long long)d;
                if (seen_dot)
                    f->exp -= 4;
            } else {
                f->m |= (d != 0); /* sticky */
                f->inexact |= (d != 0);
                if (!seen_dot)
                    f->exp += 4;
            }
        }
        return scan_exponent(p, 'p', f);
    }

    /* Decimal: keep up to 19 significant digits. */
    {
        int ndig = 0, seen_dot = 0;
        for (;; p++) {
            if (*p == '.' && !seen_dot) {
                seen_dot = 1;
                continue;
            }
            if (!isdigit((unsigned char)*p))
                break;
            any = 1;
            if (f->m == 0 && *p == '0') {
                if (seen_dot)
                    f->exp--;
                continue;
            }
            if (ndig < 19) {
                f->m = f->m * 10 + (unsigned long long)(*p - '0');
                ndig++;
                if (seen_dot)
                    f->exp--;
            } else {
                f->inexact |= (*p != '0');
                if (!seen_dot)
                    f->exp++;
            }
        }
    }
    if (!any) {
        f->kind = AUGUR_FLOAT_NONE;
        return s;
    }
    return scan_exponent(p, 'e', f);
}

double __augur_float_to_double(const struct augur_float *f)
{
    long exp = f->exp;
    double r;

    switch (f->kind) {
    case AUGUR_FLOAT_NONE:
        return 0.0;
    case AUGUR_FLOAT_INF:
        return f->neg ? -__builtin_inf() : __builtin_inf();
    case AUGUR_FLOAT_NAN:
        return f->neg ? -__builtin_nan("") : __builtin_nan("");
    }
    if (f->hex) {
        r = scale2((double)f->m, exp);
        if (f->m != 0 && (r == 0.0 || r == __builtin_inf()))
            errno = ERANGE;
        return f->neg ? -r : r;
    }
    if (f->m == 0)
        return f->neg ? -0.0 : 0.0;
    r = (double)f->m;
    if (exp > 0) {
        if (exp > 400) {
            r = __builtin_inf();
        } else {
            while (exp > 22) {
                r *= 1e22;
                exp -= 22;
            }
            r *= pow10_tab[exp];
        }
    } else if (exp < 0) {
        if (exp < -400) {
            r = 0.0;
        } else {
            while (exp < -22) {
                r /= 1e22;
                exp += 22;
            }
            r /= pow10_tab[-exp];
        }
    }
    /* glibc reports ERANGE for overflow, underflow and subnormal results */
    if (r < 2.2250738585072014e-308 || r == __builtin_inf())
        errno = ERANGE;
    return f->neg ? -r : r;
}

double __augur_strtod(const char *s, char **end)
{
    struct augur_float f;
    *end = (char *)__augur_scan_float(s, &f);
    return __augur_float_to_double(&f);
}

double strtod(const char *s, char **end)
{
    char *e;
    double d = __augur_strtod(s, &e);
    if (end != NULL)
        *end = e;
    return d;
}

float strtof(const char *s, char **end)
{
    return (float)strtod(s, end);
}

double atof(const char *s)
{
    return strtod(s, NULL);
}

/* ---- arithmetic ----------------------------------------------------- */

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }

typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;

div_t div(int a, int b)
{
    div_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

ldiv_t ldiv(long a, long b)
{
    ldiv_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

lldiv_t lldiv(long long a, long long b)
{
    lldiv_t r;
    r.quot = a / b;
    r.rem = a % b;
    return r;
}

/* ---- sorting and searching ------------------------------------------ */

static void swap_bytes(unsigned char *a, unsigned char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

/* Insertion sort: simple control flow, O(n^2) comparisons. */
void qsort(void *base, size_t n, size_t size,
           int (*cmp)(const void *, const void *))
{
    unsigned char *b = base;
    size_t i, j;
    for (i = 1; i < n; i++) {
        for (j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
            swap_bytes(b + (j - 1) * size, b + j * size, size);
    }
}

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *))
{
    const unsigned char *b = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp(key, b + mid * size);
        if (c == 0)
            return (void *)(b + mid * size);
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* ---- environment ----------------------------------------------------- */

/* The process starts with an empty environment, as `augur replay` starts the native
 * program (runtime/replay/replay.c).  environ holds "NAME=value" strings, as glibc's
 * does: getenv reads it, setenv, putenv and unsetenv change it, clearenv empties it, and
 * a program may walk it or point it at an array of its own (coreutils' `env -i` does). */
static char *no_variables[1];
char **__environ = no_variables;
#ifndef AUGUR_NATIVE_TEST
extern char **environ __attribute__((alias("__environ")));
extern char **_environ __attribute__((alias("__environ")));
#endif

/* The array setenv and putenv last made (environ while the program has not replaced
 * it), with room for `owned_room` pointers. */
static char **owned;
static size_t owned_room;

static int env_name_ok(const char *name)
{
    return name != NULL && name[0] != '\0' && strchr(name, '=') == NULL;
}

static size_t env_count(void)
{
    size_t n = 0;
    while (__environ != NULL && __environ[n] != NULL)
        n++;
    return n;
}

/* The slot of environ holding variable `name` (its first `len` bytes), or NULL. */
static char **env_slot(const char *name, size_t len)
{
    char **e;
    for (e = __environ; e != NULL && *e != NULL; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return e;
    return NULL;
}

char *getenv(const char *name)
{
    size_t len = strlen(name);
    char **slot = env_name_ok(name) ? env_slot(name, len) : NULL;
    return slot == NULL ? NULL : *slot + len + 1;
}

/* environ with `entry` (of variable name length `len`) in it: replacing that variable's
 * entry, or added at the end of an array of the models' own (copied from the program's
 * when it set environ itself); -1 with ENOMEM. */
static int env_put(char *entry, size_t len)
{
    char **slot = env_slot(entry, len);
    size_t n;
    if (slot != NULL) {
        *slot = entry;
        return 0;
    }
    n = env_count();
    if (__environ != owned || n + 2 > owned_room) {
        size_t room = (n + 2) * 2;
        char **grown = malloc(room * sizeof *grown);
        if (grown == NULL) {
            errno = ENOMEM;
            return -1;
        }
        if (n > 0)
            memcpy(grown, __environ, n * sizeof *grown);
        if (__environ == owned)
            free(owned);
        __environ = owned = grown;
        owned_room = room;
    }
    __environ[n] = entry;
    __environ[n + 1] = NULL;
    return 0;
}

int setenv(const char *name, const char *value, int overwrite)
{
    size_t len, vlen;
    char *entry;
    if (!env_name_ok(name)) {
        errno = EINVAL;
        return -1;
    }
    len = strlen(name);
    if (!overwrite && env_slot(name, len) != NULL)
        return 0;
    vlen = strlen(value);
    entry = malloc(len + vlen + 2);
    if (entry == NULL) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(entry, name, len);
    entry[len] = '=';
    memcpy(entry + len + 1, value, vlen + 1);
    if (env_put(entry, len) != 0) {
        free(entry);
        return -1;
    }
    return 0;
}

/* glibc's putenv: the string itself becomes the entry; without '=' it removes the
 * variable. */
int putenv(char *string)
{
    const char *eq = strchr(string, '=');
    if (eq == NULL)
        return unsetenv(string);
    return env_put(string, (size_t)(eq - string));
}

int unsetenv(const char *name)
{
    size_t len;
    char **slot;
    if (!env_name_ok(name)) {
        errno = EINVAL;
        return -1;
    }
    len = strlen(name);
    while ((slot = env_slot(name, len)) != NULL)
        do
            slot[0] = slot[1];
        while (*slot++ != NULL);
    return 0;
}

int clearenv(void)
{
    __environ = NULL;
    return 0;
}

/* ---- atexit ----------------------------------------------------------- */

#define ATEXIT_MAX 32
static void (*atexit_fns[ATEXIT_MAX])(void);
static int atexit_count;

/* Linked whenever atexit is: the engine calls the program's exit with main's return value
 * (returning from main is exit(value) in C), so that the handlers run then too.  Not
 * const: clang folds a const pointer's test in atexit away, and with it the reference
 * that makes `llvm-link --only-needed` link this pointer and exit. */
void (*augur_main_return)(int) = exit;

int atexit(void (*fn)(void))
{
    if (!augur_main_return || atexit_count == ATEXIT_MAX)
        return -1;
    atexit_fns[atexit_count++] = fn;
    return 0;
}

/* Called by the engine when the program exits (exit() or return from
 * main): runs the registered handlers in reverse order of registration. */
void augur_run_atexit(void)
{
    while (atexit_count > 0) {
        void (*fn)(void) = atexit_fns[--atexit_count];
        fn();
    }
}

/* intmax_t and uintmax_t are long and unsigned long on x86-64. */
intmax_t strtoimax(const char *s, char **end, int base) { return strtol(s, end, base); }
uintmax_t strtoumax(const char *s, char **end, int base) { return strtoul(s, end, base); }
