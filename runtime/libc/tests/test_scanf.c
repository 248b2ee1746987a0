#include <stdio.h>
#include <string.h>
#include "model.h"
#include "shim.h"

struct res {
    int ret;
    int next; /* next char left in the input after the call */
    unsigned char mem[6][64];
};

#define ARGS(r) (r).mem[0], (r).mem[1], (r).mem[2], (r).mem[3], (r).mem[4], (r).mem[5]

static void cmp(const char *in, const char *fmt, struct res *a, struct res *b, const char *what)
{
    int k, ok = a->ret == b->ret && a->next == b->next;
    for (k = 0; k < 6; k++)
        ok = ok && memcmp(a->mem[k], b->mem[k], 64) == 0;
    CHECK(ok, "%s('%s', '%s'): glibc ret %d next %d, model ret %d next %d", what, in, fmt,
          a->ret, a->next, b->ret, b->next);
}

static void SF(const char *in, const char *fmt)
{
    struct res a, b;
    size_t chunk;
    memset(&a, 0xAA, sizeof a);
    memset(&b, 0xAA, sizeof b);
    a.next = b.next = 0;
    a.ret = sscanf(in, fmt, ARGS(a));
    b.ret = model_sscanf(in, fmt, ARGS(b));
    cmp(in, fmt, &a, &b, "sscanf");
    /* the same through a stream (stdin), also checking what is left */
    for (chunk = 1; chunk <= 1024; chunk *= 1024) {
        FILE *g = fmemopen((void *)in, strlen(in), "r");
        memset(&a, 0xAA, sizeof a);
        memset(&b, 0xAA, sizeof b);
        if (strlen(in) == 0) {
            fclose(g);
            g = fopen("/dev/null", "r");
        }
        a.ret = fscanf(g, fmt, ARGS(a));
        a.next = fgetc(g);
        fclose(g);
        shim_set_stdin(in);
        shim_stdin_chunk = chunk;
        model_clearerr(model_stdin);
        while (model_getchar() != EOF) /* drain leftovers of the previous test */
            ;
        shim_set_stdin(in);
        model_clearerr(model_stdin);
        b.ret = model_scanf(fmt, ARGS(b));
        b.next = model_getchar();
        cmp(in, fmt, &a, &b, chunk == 1 ? "scanf(stdin, 1-byte reads)" : "scanf(stdin)");
    }
}

void test_scanf(void)
{
    static const char *ints[] = {"42", "-42", "+7", "  123abc", "abc", "", "   ", "-", "+", "- 5",
                                 "0x1f", "0X", "0xg", "017", "089", "0", "00", "-0x10",
                                 "2147483647", "2147483648", "-2147483649", "4294967296",
                                 "99999999999999999999", "-9223372036854775808", "12 34 56",
                                 "1,2,3", "\n\t 7\n", "0x", "1e5"};
    static const char *ifmts[] = {"%d", "%i", "%u", "%x", "%o", "%ld", "%lu", "%lld", "%llu",
                                  "%hd", "%hhd", "%hu", "%hhu", "%3d", "%1d", "%2i", "%2x",
                                  "%d %d", "%d,%d,%d", "%*d %d", "%d%n", "%X", "%zu", "%jd",
                                  "%p", "%d%d", "%1i%i"};
    size_t i, j;
    for (i = 0; i < sizeof ints / sizeof ints[0]; i++)
        for (j = 0; j < sizeof ifmts / sizeof ifmts[0]; j++)
            SF(ints[i], ifmts[j]);

    static const char *flts[] = {"3.14", "-2.5e3", "1e", "1e+", "1e-2x", ".5", "5.", ".", "-.",
                                 "inf", "-INFINITY", "infx", "infinit", "nan", "nanx", "na",
                                 "0x1p3", "0x", "0xg", "1.5.5", "  +7", "abc", "", "1e400",
                                 "123456789.123456789", "0.1 0.2", "e5", "-", "+x", "00.5"};
    static const char *ffmts[] = {"%f", "%lf", "%e", "%g", "%3f", "%4lf", "%lf%n",
                                  "%*f %lf", "%2lf%lf", "%le"};
    for (i = 0; i < sizeof flts / sizeof flts[0]; i++)
        for (j = 0; j < sizeof ffmts / sizeof ffmts[0]; j++)
            SF(flts[i], ffmts[j]);
    /* %Lf as strtold reads it (its limits: README.md) */
    static const char *lflts[] = {"0.1", "-2.5e-3", "123456789.123456789", "1e30", "0x1.8p1",
                                  "3.14159265358979323", "  -0", "x", "1e-5 7", "inf", "-nan"};
    static const char *lfmts[] = {"%Lf", "%Le", "%Lg", "%5Lf", "%*Lf %Lf", "%Lf%n"};
    for (i = 0; i < sizeof lflts / sizeof lflts[0]; i++)
        for (j = 0; j < sizeof lfmts / sizeof lfmts[0]; j++)
            SF(lflts[i], lfmts[j]);

    static const char *strs[] = {"hello world", "  leading", "", "   ", "a", "abc123def",
                                 "x-y]z", "tab\there", "ABCdef", "]abc", "-abc", "^caret"};
    static const char *sfmts[] = {"%s", "%3s", "%s %s", "%c", "%3c", "%5c", " %c", "%c%c",
                                  "%[a-z]", "%[^ ]", "%[^\n]", "%3[a-z]", "%[]a-c]",
                                  "%[^]a]", "%[-a]", "%[a-]", "%[z-a]", "%[a-cx-z]",
                                  "%[0-9]%s", "%*s %s", "%*[a-z]%n", "%*c%c", "%[",
                                  "%[^a-c]", "%[A-Za-z]", "%s%n", "%[^-]"};
    for (i = 0; i < sizeof strs / sizeof strs[0]; i++)
        for (j = 0; j < sizeof sfmts / sizeof sfmts[0]; j++)
            SF(strs[i], sfmts[j]);

    /* literals, white space, %%, %n, return values */
    static const char *mix_in[] = {"a=1,b=2", "a = 1 , b = 2", "a=1", "", "  ", "x", "100%",
                                   "100 %", "5 6", "5", "date: 2024-01-15", "7\n", "  ab",
                                   "1 2 3 4 5 6", "abc"};
    static const char *mix_fmt[] = {"a=%d,b=%d", "a = %d , b = %d", "%d%%", "%d %%", "%d %d",
                                    "%d ", " %d", "date: %d-%d-%d", "%n", " %n", "x%n",
                                    "%*d%d", "%*d", "abc", "ab%d", "%d%d%d%d%d%d", "%s%n %d",
                                    "%2c%n", "%d\n", "%", "%d%", "%q", "%5%"};
    for (i = 0; i < sizeof mix_in / sizeof mix_in[0]; i++)
        for (j = 0; j < sizeof mix_fmt / sizeof mix_fmt[0]; j++)
            SF(mix_in[i], mix_fmt[j]);
}
