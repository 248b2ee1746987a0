#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include "model.h"
#include "shim.h"

#define PF(...)                                                                  \
    do {                                                                         \
        char a_[2048], b_[2048];                                                 \
        int ra_ = snprintf(a_, sizeof a_, __VA_ARGS__);                          \
        int rb_ = model_snprintf(b_, sizeof b_, __VA_ARGS__);                    \
        CHECK(ra_ == rb_ && strcmp(a_, b_) == 0, "printf(%s): glibc [%s] %d, model [%s] %d", \
              #__VA_ARGS__, a_, ra_, b_, rb_);                                   \
    } while (0)

static void float_cases(double v)
{
    char f[32];
    int p;
    static const char *conv = "feEgG";
    for (p = -1; p <= 17; p++) {
        const char *c;
        for (c = conv; *c; c++) {
            if (p < 0)
                snprintf(f, sizeof f, "%%%c", *c);
            else
                snprintf(f, sizeof f, "%%.%d%c", p, *c);
            PF(f, v);
        }
    }
    if (v != 999999.5) /* glibc prints "1.e+06" for %#g here (a glibc quirk) */
        PF("%#g|%#.0f|%#.0e|%#.3g", v, v, v, v);
    PF("%+f|% e|%015.4f|%-15.3e|%+015g|%15g", v, v, v, v, v, v);
    PF("%020.10f|%-+12.2f|%012e", v, v, v);
    for (p = -1; p <= 15; p++) {
        if (p < 0) {
            PF("%a|%A", v, v);
        } else {
            snprintf(f, sizeof f, "%%.%da|%%.%dA", p, p);
            PF(f, v, v);
        }
    }
    PF("%#a|%#.0a|%+a|% A|%025a|%-25a|%25.3A|%+030.20a", v, v, v, v, v, v, v, v);
}

/* x87 long doubles: %La at every precision up to and past their 15 hex digits, and
 * %Lf, %Le, %Lg exactly, up to and past their 21 significant digits. */
static void long_double_cases(long double v)
{
    char f[32];
    int p;
    const char *c;
    PF("%La|%LA|%#La|%+035.20La|%-30La|", v, v, v, v, v);
    PF("%Lf|%Le|%Lg|%#Lg|%+025.10Le|%-30.25Lg|", v, v, v, v, v, v);
    for (p = 0; p <= 24; p++) {
        snprintf(f, sizeof f, "%%.%dLa", p);
        PF(f, v);
        for (c = "feg"; *c; c++) {
            snprintf(f, sizeof f, "%%.%dL%c", p, *c);
            PF(f, v);
        }
    }
}

int model_asprintf(char **, const char *, ...);

/* asprintf allocates exactly the formatted string (seq formats with it). */
static void test_asprintf(void)
{
    char *m = NULL, *g = NULL;
    int mr = model_asprintf(&m, "%0.Lf|%s|%5d", 12.5L, "seq", 42);
    int gr = asprintf(&g, "%0.Lf|%s|%5d", 12.5L, "seq", 42);
    CHECK(mr == gr && m != NULL && g != NULL && strcmp(m, g) == 0, "asprintf: %d [%s] vs %d [%s]",
          mr, m ? m : "", gr, g ? g : "");
    free(m);
    free(g);
}

void test_printf(void)
{
    test_asprintf();
    int i, n1 = 0, n2 = 0;
    void *p = (void *)0x7ffd1234abcdULL;
    PF("hello");
    PF("%d %i %u %x %X %o", 42, -42, 42u, 255u, 255u, 8u);
    PF("%d|%d|%d", INT_MIN, INT_MAX, 0);
    {
        /* Every flag, width and precision of the integer conversions, on values at the
         * edges of their digit counts (zero-padded fields print their digits at once). */
        static const char *const flags[] = {"", "0", "-", "+", " ", "#", "0#", "+0", " 0", "-0"};
        static const char *const precs[] = {"", ".", ".0", ".1", ".2", ".3", ".5", ".12", ".25"};
        static const unsigned long long vals[] = {0, 1, 7, 8, 9, 10, 15, 16, 99, 100, 255,
                                                  256, 4095, 65535, 65536, 99999, 2147483647,
                                                  4294967295ULL, 0x8000000000000000ULL,
                                                  ~0ULL, (unsigned long long)-1 / 10};
        const char *convs = "diuxXo";
        size_t fi, w, pi, ci, vi;
        for (fi = 0; fi < sizeof flags / sizeof flags[0]; fi++)
            for (w = 0; w < 8; w++)
                for (pi = 0; pi < sizeof precs / sizeof precs[0]; pi++)
                    for (ci = 0; convs[ci]; ci++)
                        for (vi = 0; vi < sizeof vals / sizeof vals[0]; vi++) {
                            char f[32];
                            char wd[4] = "";
                            if (w > 0)
                                snprintf(wd, sizeof wd, "%zu", w * 3 - 2);
                            snprintf(f, sizeof f, "%%%s%s%sll%c|%%%s%s%s%c", flags[fi], wd,
                                     precs[pi], convs[ci], flags[fi], wd, precs[pi], convs[ci]);
                            PF(f, (long long)vals[vi], (int)vals[vi]);
                        }
    }
    PF("%ld|%ld|%lu", LONG_MIN, LONG_MAX, ULONG_MAX);
    PF("%lld|%lld|%llu|%llx", LLONG_MIN, LLONG_MAX, ULLONG_MAX, ULLONG_MAX);
    PF("%zu|%zd|%zx", (size_t)12345, (ssize_t)-5, (size_t)255);
    PF("%hd|%hd|%hu|%hhd|%hhu|%hhx", 70000, -32769, 70000, 200, 300, 255);
    PF("%jd|%td|%qd", (intmax_t)-9, (ptrdiff_t)77, 5LL);
    PF("%.0d|%.0i|%.0u|%.0x|%.0o|%#.0o|%#.0x|%5.0d|", 0, 0, 0u, 0u, 0u, 0u, 0u, 0);
    PF("%.0d|%.3d|%.3d|%3.1d|%-5d|%05d|%+d|%+d|% d|% d", 1, 7, -7, 5, 42, 42, 42, -42, 42, -42);
    PF("%-5d|%05d|%5d|%-05d|%+05d|% 05d|%05.3d|%-+8.4d|", -3, -3, -3, 3, 3, 3, 3, 3);
    PF("%x|%X|%#x|%#X|%#o|%#o|%#x|%#10x|%#-10x|%#010x|%#.5x", -1, -255, 255, 255, 8, 0, 0, 255,
       255, 255, 255);
    PF("%o|%#5o|%#.3o|%#.1o|%.5o", 0777u, 8u, 8u, 8u, 8u);
    PF("%s|%.3s|%10.4s|%-10s|%-10.2s|%s", "hello", "hello", "hello", "hi", "hello", "");
    PF("%.0s|%5s|%.10s", "abc", "toolongstring", "ab");
    PF("%c|%c|%5c|%-5c|", 'a', 'Z', 'x', 'y');
    PF("%c%c", 0, 'b');
    PF("%%|%5%|%-5%|");
    PF("%p|%p|%20p|%-20p|", (void *)0, p, p, (void *)0);
    PF("%5p|%-8p|%.2p|", (void *)0, (void *)0, (void *)0);
    PF("%*d|%-*d|%*d|%.*d|%*.*d|%.*d", 5, 42, 5, 42, -5, 42, 4, 42, 8, 3, 42, -1, 42);
    PF("%*s|%.*s|%-*.*s|", 6, "ab", 2, "abcdef", 7, 3, "abcdef");
    PF("%s", (char *)NULL);
    PF("%.3s|%.6s|%10s|", (char *)NULL, (char *)NULL, (char *)NULL);
    PF("%05s|%05c|", "ab", 'c');
    PF("%y|%k");
    PF("%lc|%ls", (wint_t)'A', L"wide");
    PF("a%nb%hhnc", &n1, (signed char *)&n2);
    PF("%'d|%I d", 1234567, 5);
    PF("%-#8o|%+u|% u|%+x", 9u, 5u, 5u, 5u);
    PF("%lx|%lX|%#lo", 0xdeadbeefcafeUL, 0xdeadbeefcafeUL, 0777UL);
    /* floats */
    {
        static const double vals[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0.125, 0.15, 0.25, 0.35, 2.5,
                                      1.5, 3.14159265358979, 2.718281828459045, 123456.789,
                                      1e-5, 1e-4, 9.9999e-5, 0.0001, 99999.95, 999999.5,
                                      1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1.7976931348623157e308,
                                      2.2250738585072014e-308, 4.9406564584124654e-324, 1e-300,
                                      123.456, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 9.5, 10.5, 0.05,
                                      0.005, 0.0005, 5e-5, 0.95, 0.995, 9.995, 99.5, 1e100,
                                      -123.456e-10, 4294967296.0, 9007199254740993.0, 65536.0};
        for (i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++)
            float_cases(vals[i]);
    }
    {
        unsigned long long seed = 88172645463325252ULL;
        for (i = 0; i < 3000; i++) {
            union { double d; unsigned long long u; } b;
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            b.u = seed;
            if (i % 3 == 0) /* moderate magnitudes */
                b.d = (double)(long long)(seed % 2000000000) / (double)(1 + (seed >> 40) % 100000);
            if (b.d != b.d) continue;
            {
                char f[16];
                int pr = (int)((seed >> 20) % 18);
                const char *c = "feg";
                snprintf(f, sizeof f, "%%.%d%c", pr, c[(seed >> 30) % 3]);
                PF(f, b.d);
            }
        }
    }
    {
        static const long double lvals[] = {0.0L, -0.0L, 1.0L, -1.0L, 2.5L, 0.1L, 1.0L / 3,
                                            1e4000L, 1e-4000L, 3.6e-4951L, 1.9999999999999999999L,
                                            15.999999999999999999L, 0x1.fffffffffffffffep+3L,
                                            0xf.ffffffffffffff8p+0L, 0x8.0000000000000008p+0L,
                                            123456789.123456789L, -7.25e-300L};
        for (i = 0; i < (int)(sizeof lvals / sizeof lvals[0]); i++)
            long_double_cases(lvals[i]);
    }
    PF("%a|%A|%La|%10a|%-10A|%010a", INFINITY, -INFINITY, (long double)NAN, NAN, -NAN, INFINITY);
    PF("%a|%a|%.1a|%.0a|%.2a", 0x1.f8p+0, 0x1.08p+0, 0x1.18p+0, 0x1.8p+0, 0x1.ffffp+0);
    PF("%f|%e|%g|%F|%E|%G", INFINITY, -INFINITY, NAN, INFINITY, -NAN, -INFINITY);
    PF("%5f|%-6f|%+f|%05f|% f|%010.3e", INFINITY, NAN, INFINITY, -INFINITY, NAN, NAN);
    PF("%Lf|%Le", 1.5L, 2.25L);
    PF("%.60f", 0.1);
    PF("%.70Lf|%.1100Lf", 0.1L, 1e-4950L);
    PF("%Lf", 1e4900L);
    PF("%.40e", 1.0 / 3);
    PF("%f", 1e300);
    PF("%.20g|%.17g|%.30g", 0.1, 1.0 / 3, 1e-300);
    /* snprintf truncation and n == 0 */
    {
        char b1[8], b2[8];
        int r1 = snprintf(b1, 5, "%s-%d", "abcdef", 12), r2 = model_snprintf(b2, 5, "%s-%d", "abcdef", 12);
        CHECK(r1 == r2 && strcmp(b1, b2) == 0, "snprintf truncation [%s] [%s]", b1, b2);
        memset(b2, 'Q', sizeof b2);
        CHECK(model_snprintf(b2, 0, "%d", 12345) == 5 && b2[0] == 'Q', "snprintf n=0");
        CHECK(model_snprintf(NULL, 0, "%s", "xyz") == 3, "snprintf NULL");
        CHECK(model_sprintf(b2, "%d%s", 7, "ab") == 3 && strcmp(b2, "7ab") == 0, "sprintf");
    }
    /* stream variants through the captured stdout */
    shim_reset_out();
    CHECK(model_printf("x=%d %s\n", 5, "ok") == 7, "printf return");
    CHECK(model_fprintf(model_stderr, "[%5.1f]", 2.25) == 7, "fprintf return");
    CHECK(model_puts("line") == 5, "puts return");
    CHECK(model_putchar('Z') == 'Z' && model_putchar(0x141) == 0x41, "putchar");
    CHECK(model_fputs("fp", model_stdout) == 1, "fputs return");
    CHECK(model_fputc('!', model_stdout) == '!' && model_putc('?', model_stdout) == '?', "fputc");
    CHECK(model_dprintf(1, "%03d", 9) == 3, "dprintf");
    CHECK(strcmp(shim_out, "x=5 ok\n[  2.2]line\nZAfp!?009") == 0, "stream output [%s]", shim_out);
    {
        /* long output crosses the chunk size */
        char big[1000];
        memset(big, 'a', sizeof big - 1); big[sizeof big - 1] = 0;
        shim_reset_out();
        CHECK(model_printf("<%s>%d", big, 1) == 1002 && shim_out_len == 1002 && shim_out[1000] == '>',
              "long printf");
    }
}
