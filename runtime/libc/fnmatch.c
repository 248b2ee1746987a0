/*
 * fnmatch.c - shell wildcard matching (fnmatch) in the C locale: '*', '?',
 * bracket expressions ('!' or '^' negation, ranges in byte order, the
 * [:class:] names), backslash escapes, and the flags FNM_NOESCAPE,
 * FNM_PATHNAME, FNM_PERIOD, FNM_LEADING_DIR and FNM_CASEFOLD.  glibc's
 * FNM_EXTMATCH patterns are not supported (matched as plain patterns).
 */
#include "libc_internal.h"

#define FNM_NOMATCH 1
#define FNM_NOESCAPE (1 << 1)
#define FNM_PATHNAME (1 << 0)
#define FNM_PERIOD (1 << 2)
#define FNM_LEADING_DIR (1 << 3)
#define FNM_CASEFOLD (1 << 4)

static int fold(int c, int flags)
{
    return (flags & FNM_CASEFOLD) ? tolower(c) : c;
}

static int in_class(const char *name, size_t len, int c)
{
    static const struct {
        const char *name;
        int (*test)(int);
    } classes[] = {{"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank},
                   {"cntrl", iscntrl}, {"digit", isdigit}, {"graph", isgraph},
                   {"lower", islower}, {"print", isprint}, {"punct", ispunct},
                   {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit}};
    size_t i;
    for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (strlen(classes[i].name) == len && strncmp(classes[i].name, name, len) == 0)
            return classes[i].test(c) != 0;
    }
    return -1;
}

/* Match the bracket expression at p (just after '[') against c.  Returns the
 * pattern after the closing ']' and sets *matched, or NULL if the bracket is
 * not closed (then '[' is an ordinary character). */
static const char *bracket(const char *p, int c, int flags, int *matched)
{
    int negate = 0, found = 0, first = 1;
    if (*p == '!' || *p == '^') {
        negate = 1;
        p++;
    }
    for (;; first = 0) {
        int lo, hi;
        if (*p == '\0')
            return NULL;
        if (*p == ']' && !first)
            break;
        if (*p == '[' && p[1] == ':') {
            const char *end = p + 2;
            int r;
            while (*end != '\0' && !(end[0] == ':' && end[1] == ']'))
                end++;
            r = *end ? in_class(p + 2, (size_t)(end - p - 2), c) : -1;
            if (r < 0)
                return NULL;
            found |= r;
            p = end + 2;
            continue;
        }
        if (*p == '\\' && !(flags & FNM_NOESCAPE) && p[1] != '\0')
            p++;
        if ((flags & FNM_PATHNAME) && *p == '/')
            return NULL;
        lo = (unsigned char)*p++;
        hi = lo;
        if (*p == '-' && p[1] != ']' && p[1] != '\0') {
            p++;
            if (*p == '\\' && !(flags & FNM_NOESCAPE) && p[1] != '\0')
                p++;
            hi = (unsigned char)*p++;
        }
        if (lo <= hi && ((c >= lo && c <= hi) ||
                         ((flags & FNM_CASEFOLD) && tolower(c) >= tolower(lo) &&
                          tolower(c) <= tolower(hi))))
            found = 1;
    }
    *matched = found != negate;
    return p + 1;
}

/* A leading period of s (at the start, or after '/' with FNM_PATHNAME) must
 * be matched by a period in the pattern under FNM_PERIOD. */
static int hidden(const char *s, const char *start, int flags)
{
    return *s == '.' && (flags & FNM_PERIOD) &&
           (s == start || ((flags & FNM_PATHNAME) && s[-1] == '/'));
}

static int match(const char *p, const char *s, const char *start, int flags)
{
    for (;;) {
        int c = (unsigned char)*p++;
        switch (c) {
        case '\0':
            if (*s == '\0' || ((flags & FNM_LEADING_DIR) && *s == '/'))
                return 0;
            return FNM_NOMATCH;
        case '?':
            if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/') || hidden(s, start, flags))
                return FNM_NOMATCH;
            s++;
            break;
        case '*':
            if (hidden(s, start, flags))
                return FNM_NOMATCH;
            while (*p == '*')
                p++;
            for (;; s++) {
                if (match(p, s, start, flags) == 0)
                    return 0;
                if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/'))
                    return FNM_NOMATCH;
            }
        case '[': {
            int matched;
            const char *after;
            if (*s == '\0' || ((flags & FNM_PATHNAME) && *s == '/') || hidden(s, start, flags))
                return FNM_NOMATCH;
            after = bracket(p, (unsigned char)*s, flags, &matched);
            if (after == NULL) {
                if (*s != '[')
                    return FNM_NOMATCH;
            } else {
                if (!matched)
                    return FNM_NOMATCH;
                p = after;
            }
            s++;
            break;
        }
        case '\\':
            if (!(flags & FNM_NOESCAPE)) {
                if (*p == '\0')
                    return FNM_NOMATCH; /* a trailing escape matches nothing */
                c = (unsigned char)*p++;
            }
            /* fall through */
        default:
            if (fold(c, flags) != fold((unsigned char)*s, flags))
                return FNM_NOMATCH;
            s++;
        }
    }
}

int fnmatch(const char *pattern, const char *string, int flags)
{
    return match(pattern, string, string, flags);
}
