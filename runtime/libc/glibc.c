/*
 * glibc.c - glibc's own interfaces that musl (runtime/musl) lacks or defines
 * otherwise, for programs built against glibc's headers: dirname (musl's gives
 * "/" for "//"), GNU basename (musl's
 * is POSIX's, which glibc's <libgen.h> names __xpg_basename), glibc's random
 * number generators (rand, random, rand_r: musl's give other sequences, and the
 * native replay runs glibc's), and the malloc tuning calls (mallopt,
 * malloc_trim), which have nothing to tune in the engine's allocator, and
 * strverscmp (musl's orders a digit before any other byte where the strings first
 * differ, "V" < "4.9"; glibc's compares the bytes there, "V" > "4.9": sed's `v`
 * command asks whether its argument is newer than its own version so), and
 * getloadavg (glibc's reads /proc/loadavg, musl's asks sysinfo), and
 * __cmsg_nxthdr, behind glibc's CMSG_NXTHDR macro (musl's macro needs no function).
 */
#include "libc_internal.h"

/* GNU basename (<string.h>): what follows the last '/', "" when the path ends
 * with one; the path is not changed. */
char *basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return (char *)(slash != NULL ? slash + 1 : path);
}

/* POSIX basename (<libgen.h>), as glibc's: the last component, trailing
 * slashes cut off in place; its last slash for a path of slashes only; "."
 * for NULL or "". */
char *__xpg_basename(char *path)
{
    char *p;
    if (path == NULL || path[0] == '\0')
        return ".";
    p = strrchr(path, '/');
    if (p == NULL)
        return path;
    if (p[1] != '\0')
        return p + 1;
    while (p > path && p[-1] == '/')
        p--;
    if (p == path)
        return path + strlen(path) - 1;
    *p = '\0';
    while (p > path && p[-1] != '/')
        p--;
    return p;
}

/* dirname (<libgen.h>), as glibc's: the path up to its last component, cut in
 * place; "." when there is no slash; "/" for a path under the root, except
 * that a path beginning with exactly two slashes keeps both ("//"). */
char *dirname(char *path)
{
    char *slash = path != NULL ? strrchr(path, '/') : NULL;
    char *p;
    if (slash != NULL && slash != path && slash[1] == '\0') {
        /* trailing slashes: the component before them */
        for (p = slash; p != path && p[-1] == '/'; p--)
            ;
        if (p != path) {
            slash = p - 1;
            while (slash != path && *slash != '/')
                slash--;
            if (*slash != '/')
                slash = NULL;
        }
    }
    if (slash == NULL)
        return ".";
    for (p = slash; p != path && p[-1] == '/'; p--)
        ;
    if (p == path)
        p = slash == path + 1 ? path + 2 : path + 1;
    *p = '\0';
    return path;
}

/* mallopt(param, value): accepted (1), as glibc accepts its known parameters. */
int mallopt(int param, int value)
{
    (void)param;
    (void)value;
    return 1;
}

/* malloc_trim(pad): no memory was given back (0). */
int malloc_trim(size_t pad)
{
    (void)pad;
    return 0;
}

/* glibc's random(): the additive feedback generator r[i] = r[i-3] + r[i-31]
 * (TYPE_3), seeded by a Park-Miller sequence and run 310 steps before its
 * first output; rand() is random(), srand() is srandom(). */
static int32_t random_ring[34];
static int random_next = -1; /* ring index (n mod 34) of the next r[n]; -1 unseeded */

void srandom(unsigned seed)
{
    int32_t word = (int32_t)(seed == 0 ? 1 : seed); /* as glibc: a seed above INT_MAX is negative */
    int i;
    random_ring[0] = word;
    for (i = 1; i < 31; i++) {
        int64_t hi = word / 127773, lo = word % 127773;
        word = (int32_t)(16807 * lo - 2836 * hi);
        if (word < 0)
            word += 2147483647;
        random_ring[i] = word;
    }
    for (i = 31; i < 34; i++) /* r[31..33] = r[0..2]; then r[i] = r[i-31] + r[i-3] */
        random_ring[i] = random_ring[i - 31];
    random_next = 0;
    for (i = 0; i < 310; i++)
        (void)random();
}

long random(void)
{
    uint32_t v;
    if (random_next < 0)
        srandom(1);
    v = (uint32_t)random_ring[(random_next + 34 - 31) % 34] +
        (uint32_t)random_ring[(random_next + 34 - 3) % 34];
    random_ring[random_next] = (int32_t)v;
    random_next = (random_next + 1) % 34;
    return (long)(v >> 1);
}

void srand(unsigned seed) { srandom(seed); }

int rand(void) { return (int)random(); }

/* glibc's rand_r: three steps of the ANSI C generator, 11 + 10 + 10 bits. */
int rand_r(unsigned *seed)
{
    unsigned next = *seed;
    int result;
    next = next * 1103515245u + 12345u;
    result = (int)((next / 65536) % 2048);
    next = next * 1103515245u + 12345u;
    result = (int)(((unsigned)result << 10) ^ ((next / 65536) % 1024));
    next = next * 1103515245u + 12345u;
    result = (int)(((unsigned)result << 10) ^ ((next / 65536) % 1024));
    *seed = next;
    return result;
}

/* ---- strverscmp ---------------------------------------------------------- */

/* Where the common prefix of two strings ends, seen by strverscmp: outside a
 * number, inside an integer (a digit run not begun by '0'), inside leading zeros
 * only, or inside a fraction (leading zeros, then other digits). */
enum version_part { OUTSIDE, INTEGER, ZEROS, FRACTION };

/* The part a digit run is in after one more byte `c`, having been in `part`. */
static enum version_part version_step(enum version_part part, unsigned char c)
{
    if (!isdigit(c))
        return OUTSIDE;
    switch (part) {
    case OUTSIDE:
        return c == '0' ? ZEROS : INTEGER;
    case ZEROS:
        return c == '0' ? ZEROS : FRACTION;
    default:
        return part;
    }
}

/* The longer of the digit runs at l and r is greater; of equal ones, `diff`
 * tells. */
static int version_longer(const unsigned char *l, const unsigned char *r, int diff)
{
    for (; isdigit(*l); l++, r++)
        if (!isdigit(*r))
            return 1;
    return isdigit(*r) ? -1 : diff;
}

/* strverscmp (<string.h>), as glibc's: the strings compare as strcmp's except
 * where they first differ inside digits: integers by their value (a longer run
 * of digits is greater), leading zeros as fractions (one that ends first is
 * greater: "00" < "0"), fractions byte by byte. */
int strverscmp(const char *s1, const char *s2)
{
    const unsigned char *l = (const unsigned char *)s1;
    const unsigned char *r = (const unsigned char *)s2;
    enum version_part part = OUTSIDE;
    size_t i;
    int diff, ld, rd;
    for (i = 0; l[i] == r[i]; i++) {
        if (l[i] == '\0')
            return 0;
        part = version_step(part, l[i]);
    }
    diff = l[i] - r[i];
    ld = isdigit(l[i]) != 0;
    rd = isdigit(r[i]) != 0;
    switch (part) {
    case OUTSIDE: /* two integers begin here: their lengths first */
        return ld && rd && l[i] != '0' && r[i] != '0'
                   ? version_longer(l + i + 1, r + i + 1, diff)
                   : diff;
    case INTEGER: /* the integer that goes on is the greater */
        if (ld && rd)
            return version_longer(l + i + 1, r + i + 1, diff);
        return ld ? 1 : rd ? -1 : diff;
    case ZEROS: /* a fraction that goes on is the smaller */
        return ld == rd ? diff : ld ? -1 : 1;
    default:
        return diff;
    }
}

/* getloadavg(loads, n), as glibc's in the models' world: glibc reads /proc/loadavg,
 * which that world lacks (and `augur replay` makes the native run's lack), so it fails
 * as the open does: -1, ENOENT. */
int getloadavg(double *loads, int n)
{
    (void)loads;
    (void)n;
    errno = ENOENT;
    return -1;
}

/* A control message's header and a message's, in glibc's x86-64 layout. */
struct cmsg_header {
    size_t len;
    int level;
    int type;
};

struct msg_header {
    void *name;
    unsigned name_len;
    void *iov;
    size_t iov_len;
    unsigned char *control;
    size_t control_len;
    int flags;
};

/* The header after `c` in `m`'s control buffer: NULL when `c`'s length is shorter than
 * a header, or when `c` rounded up to a multiple of 8 (CMSG_ALIGN) and a whole header
 * after it do not fit in the buffer. The next header's own length is not checked, as
 * glibc 2.36 does not. */
struct cmsg_header *__cmsg_nxthdr(struct msg_header *m, struct cmsg_header *c)
{
    const size_t align = sizeof(size_t) - 1;
    if (c->len < sizeof *c)
        return NULL;
    size_t room = (size_t)(m->control + m->control_len - (unsigned char *)c);
    size_t padded = (c->len + align) & ~align;
    if (padded < c->len || room < padded || room - padded < sizeof *c)
        return NULL;
    return (struct cmsg_header *)((unsigned char *)c + padded);
}
