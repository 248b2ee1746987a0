/*
 * regex.c - POSIX regular expressions with glibc's types, over musl's engine
 * (runtime/musl builds it as __musl_regcomp, __musl_regexec, __musl_regfree).
 * A program built against glibc's <regex.h> has glibc's regex_t (64 bytes,
 * re_nsub at offset 48) and an int regoff_t, where musl's has re_nsub first
 * and a long regoff_t: called directly, musl's regexec would write twice the
 * program's regmatch_t array.  Here glibc's regex_t holds musl's, and the
 * match offsets are copied across.  Flags and error codes are the same in
 * both; regerror gives glibc's messages; REG_STARTEND is glibc's.
 */
#include "libc_internal.h"

#define REG_NOTBOL 1
#define REG_NOTEOL 2
#define REG_STARTEND 4
#define REG_NOMATCH 1
#define REG_ESPACE 12
#define REG_BADRPT 13
#define REG_EXTENDED 1

/* musl's regex_t and regmatch_t. */
struct musl_regex {
    size_t re_nsub;
    void *opaque, *padding[4];
    size_t nsub2;
    char padding2;
};
struct musl_match {
    long so, eo;
};

int __musl_regcomp(struct musl_regex *preg, const char *pattern, int cflags);
int __musl_regexec(const struct musl_regex *preg, const char *string, size_t nmatch,
                   struct musl_match *pmatch, int eflags);
void __musl_regfree(struct musl_regex *preg);

/* glibc's regex_t (struct re_pattern_buffer) and regmatch_t on x86-64. */
struct glibc_regex {
    struct musl_regex *buffer; /* glibc's DFA; here musl's compiled pattern */
    unsigned long allocated, used, syntax;
    char *fastmap;
    unsigned char *translate;
    size_t re_nsub;
    unsigned flags; /* glibc's bit-fields */
};
struct glibc_match {
    int rm_so, rm_eo;
};

/* The end of the bracket expression opened at p[-1] ('['): just past its ']', or NULL
 * when it is not closed (musl then reports it). */
static const char *bracket_end(const char *p)
{
    if (*p == '^')
        p++;
    if (*p == ']')
        p++;
    for (; *p != '\0' && *p != ']'; p++) {
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            char kind = p[1];
            for (p += 2; *p != '\0' && !(p[0] == kind && p[1] == ']'); p++)
                ;
            if (*p == '\0')
                return NULL;
            p++;
        }
    }
    return *p == ']' ? p + 1 : NULL;
}

/* Whether the extended pattern has a repetition (*, +, ?, {) where glibc's regcomp wants
 * an atom: at the start, after '(', '|' or an anchor ('^', '$'). glibc refuses it
 * (REG_BADRPT: egrep '^*' fails), musl takes it as a literal; the program must see
 * glibc's answer, which its native run gets. */
static int repeats_nothing(const char *p)
{
    int want_atom = 1;
    while (*p != '\0') {
        char c = *p++;
        switch (c) {
        case '*':
        case '+':
        case '?':
        case '{':
            if (want_atom)
                return 1;
            if (c == '{') {
                while (*p != '\0' && *p != '}')
                    p++;
                if (*p == '\0')
                    return 0;
                p++;
            }
            break;
        case '(':
        case '|':
        case '^':
        case '$':
            want_atom = 1;
            break;
        case '[':
            p = bracket_end(p);
            if (p == NULL)
                return 0;
            want_atom = 0;
            break;
        case '\\':
            if (*p == '\0')
                return 0;
            p++;
            want_atom = 0;
            break;
        default:
            want_atom = 0;
        }
    }
    return 0;
}

int regcomp(struct glibc_regex *preg, const char *pattern, int cflags)
{
    struct musl_regex *m;
    int r;
    if ((cflags & REG_EXTENDED) && repeats_nothing(pattern))
        return REG_BADRPT;
    m = malloc(sizeof *m);
    if (m == NULL)
        return REG_ESPACE;
    r = __musl_regcomp(m, pattern, cflags);
    if (r != 0) {
        free(m);
        return r;
    }
    memset(preg, 0, sizeof *preg);
    preg->buffer = m;
    preg->allocated = preg->used = sizeof *m;
    preg->re_nsub = m->re_nsub;
    return 0;
}

int regexec(const struct glibc_regex *preg, const char *string, size_t nmatch,
            struct glibc_match *pmatch, int eflags)
{
    struct musl_match small[16], *m = small;
    const char *from = string;
    char *copy = NULL;
    int r;
    size_t i;
    if (pmatch == NULL)
        nmatch = 0;
    if (eflags & REG_STARTEND) {
        /* Match within [rm_so, rm_eo) of string, offsets from string's start. */
        size_t len = (size_t)(pmatch[0].rm_eo - pmatch[0].rm_so);
        copy = malloc(len + 1);
        if (copy == NULL)
            return REG_ESPACE;
        memcpy(copy, string + pmatch[0].rm_so, len);
        copy[len] = '\0';
        from = copy;
    }
    if (nmatch > sizeof small / sizeof small[0]) {
        m = malloc(nmatch * sizeof *m);
        if (m == NULL) {
            free(copy);
            return REG_ESPACE;
        }
    }
    r = __musl_regexec(preg->buffer, from, nmatch, m, eflags & (REG_NOTBOL | REG_NOTEOL));
    for (i = 0; r == 0 && i < nmatch; i++) {
        long shift = copy != NULL && m[i].so >= 0 ? pmatch[0].rm_so : 0;
        pmatch[i].rm_so = (int)(m[i].so + shift);
        pmatch[i].rm_eo = (int)(m[i].eo + shift);
    }
    if (m != small)
        free(m);
    free(copy);
    return r;
}

void regfree(struct glibc_regex *preg)
{
    if (preg->buffer != NULL) {
        __musl_regfree(preg->buffer);
        free(preg->buffer);
    }
    preg->buffer = NULL;
}

/* glibc's messages, by error code. */
static const char *const messages[] = {
    "Success",
    "No match",
    "Invalid regular expression",
    "Invalid collation character",
    "Invalid character class name",
    "Trailing backslash",
    "Invalid back reference",
    "Unmatched [, [^, [:, [., or [=",
    "Unmatched ( or \\(",
    "Unmatched \\{",
    "Invalid content of \\{\\}",
    "Invalid range end",
    "Memory exhausted",
    "Invalid preceding regular expression",
    "Premature end of regular expression",
    "Regular expression too big",
    "Unmatched ) or \\)",
};

size_t regerror(int code, const struct glibc_regex *preg, char *buf, size_t size)
{
    const char *msg;
    size_t len;
    (void)preg;
    if (code < 0 || (size_t)code >= sizeof messages / sizeof messages[0])
        abort(); /* as glibc's */
    msg = messages[code];
    len = strlen(msg) + 1;
    if (size > 0) {
        size_t n = len <= size ? len : size;
        memcpy(buf, msg, n - 1);
        buf[n - 1] = '\0';
    }
    return len;
}
