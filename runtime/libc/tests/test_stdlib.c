#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static const char *num_inputs[] = {
    "0", "1", "-1", "+1", "  42", "\t\n\v\f\r 42x", "42abc", "abc", "", " ", "-", "+",
    "0x", "0X1f", "0xg", "-0x10", "0x1G", "017", "08", "0b101", "z", "Z9", "7fffffff",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "-18446744073709551615", "-18446744073709551616", "99999999999999999999999",
    "2147483647", "2147483648", "-2147483649", "0000000000000000000000000001",
    "1e5", " -0", "- 1", "+-1", "0x-1", "  0x7FFFFFFFFFFFFFFF", "0xFFFFFFFFFFFFFFFF",
    "0x10000000000000000", "zzzzzzzzzzzzz", "1z", "-zz", "1.5", "12345678901234567890"};
static const int bases[] = {0, 2, 8, 10, 16, 36, 1, -1, 37, 3};

/* strtod is exact for <= 15 significant digits and |exponent| <= 22;
 * otherwise it may be off by a few ulp (documented deviation). */
static int close_ulp(double a, double b, const char *in)
{
    long long x, y;
    int simple = strlen(in) <= 16 && !strchr(in, 'e');
    if (a == b)
        return 1;
    if (simple || (a < 0) != (b < 0))
        return 0;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return (x > y ? x - y : y - x) <= 4;
}

static int icmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int atexit_log[8], atexit_n;
static void ae1(void) { atexit_log[atexit_n++] = 1; }
static void ae2(void) { atexit_log[atexit_n++] = 2; }
static void ae3(void) { atexit_log[atexit_n++] = 3; }

void test_stdlib(void)
{
    size_t i, j;
    for (i = 0; i < sizeof num_inputs / sizeof num_inputs[0]; i++) {
        const char *s = num_inputs[i];
        for (j = 0; j < sizeof bases / sizeof bases[0]; j++) {
            int b = bases[j], me, ge;
            char *mend = (char *)1, *gend = (char *)1;
            long mv, gv;
            unsigned long long mu, gu;
            errno = 0; mv = model_strtol(s, &mend, b); me = errno;
            errno = 0; gv = strtol(s, &gend, b); ge = errno;
            CHECK(mv == gv && me == ge && mend == gend,
                  "strtol('%s',%d): %ld/%d/%td vs %ld/%d/%td", s, b, mv, me,
                  mend == (char *)1 ? -99 : mend - s, gv, ge, gend == (char *)1 ? -99 : gend - s);
            mend = gend = (char *)1;
            errno = 0; mu = model_strtoul(s, &mend, b); me = errno;
            errno = 0; gu = strtoul(s, &gend, b); ge = errno;
            CHECK(mu == gu && me == ge && mend == gend, "strtoul('%s',%d)", s, b);
            errno = 0; mv = model_strtoll(s, &mend, b); me = errno;
            errno = 0; gv = strtoll(s, &gend, b); ge = errno;
            CHECK(mv == gv && me == ge && mend == gend, "strtoll('%s',%d)", s, b);
            errno = 0; mu = model_strtoull(s, &mend, b); me = errno;
            errno = 0; gu = strtoull(s, &gend, b); ge = errno;
            CHECK(mu == gu && me == ge && mend == gend, "strtoull('%s',%d)", s, b);
            CHECK(model_strtol(s, NULL, 10) == strtol(s, NULL, 10), "strtol NULL end");
        }
        CHECK(model_atoi(s) == atoi(s) && model_atol(s) == atol(s) && model_atoll(s) == atoll(s),
              "atoi('%s')", s);
    }
    /* strtod */
    {
        static const char *fin[] = {"0", "1", "-1.5", "3.14159", "1e10", "1E-5", "  .5", "5.",
                                    ".", "e5", "1e", "1e+", "1e-x", "inf", "-Infinity", "nan",
                                    "NAN(123)", "0x1p4", "0x1.8p1", "0x", "0xg", "1.7976931348623157e308",
                                    "2.2250738585072014e-308", "4.9e-324", "1e400", "1e-400",
                                    "123456789012345678901234567890", "0.000001234", "100", "0.1",
                                    "0.2", "0.3", "2.5", "1234.5678", "-0", "+7.25e2", "abc", "1.5x"};
        for (i = 0; i < sizeof fin / sizeof fin[0]; i++) {
            char *me, *ge;
            double mv, gv;
            int mer, ger;
            errno = 0; mv = model_strtod(fin[i], &me); mer = errno;
            errno = 0; gv = strtod(fin[i], &ge); ger = errno;
            CHECK(((close_ulp(mv, gv, fin[i]) && (mv != 0 || (1 / mv == 1 / gv))) || (mv != mv && gv != gv)) &&
                      me == ge && mer == ger,
                  "strtod('%s'): %.17g %td %d vs %.17g %td %d", fin[i], mv, me - fin[i], mer, gv,
                  ge - fin[i], ger);
        }
        CHECK(model_atof("2.5") == 2.5, "atof");
    }
    /* strtold: bit-exact (x87 long double) within its exact range, the double
     * path's value beyond it */
    {
        static const char *exact[] = {"0", "-0", "1", "0.1", "-0.1", "0.2", "0.3", "1.5", "10",
                                      "2.5e3", "1e19", "1e38", "12345678901234567890e-19",
                                      "1234567890123456789", "9999999999999999999e19",
                                      "0.0000000000000000001",                                       "0x1p4", "0x1.8p-3", "-0x123456789abcdefp7", "1e-19",
                                      "7.5e-5", "  +42", "1.", ".5e1", "inf", "-INFINITY",
                                      "12abc", "1e", "0x", "", "-"};
        static const char *wide[] = {"1e300", "1e-300", "123456789012345678901234567890",
                                     "3.14159265358979323846", "0.30000000000000000004"};
        for (i = 0; i < sizeof exact / sizeof exact[0]; i++) {
            char *me, *ge;
            long double mv, gv;
            int mer, ger;
            errno = 0; mv = model_strtold(exact[i], &me); mer = errno;
            errno = 0; gv = strtold(exact[i], &ge); ger = errno;
            CHECK(memcmp(&mv, &gv, 10) == 0 && me == ge && mer == ger,
                  "strtold('%s'): %La %td %d vs %La %td %d", exact[i], mv, me - exact[i], mer, gv,
                  ge - exact[i], ger);
        }
        for (i = 0; i < sizeof wide / sizeof wide[0]; i++) {
            long double mv = model_strtold(wide[i], NULL);
            double d = model_strtod(wide[i], NULL);
            CHECK(mv == (long double)d, "strtold('%s') is the double path's", wide[i]);
        }
        {
            long double nan = model_strtold("nan", NULL);
            CHECK(nan != nan, "strtold('nan')");
        }
    }
    /* abs/div */
    CHECK(model_abs(-5) == 5 && model_labs(-5L) == 5 && model_llabs(-7LL) == 7 && model_abs(3) == 3, "abs");
    {
        mdiv_t d = model_div(-7, 2);
        mldiv_t l = model_ldiv(7L, -2L);
        CHECK(d.quot == -3 && d.rem == -1 && l.quot == -3 && l.rem == 1, "div");
    }
    /* qsort / bsearch */
    {
        int a[50], b[50], k;
        unsigned seed = 1;
        for (k = 0; k < 50; k++) {
            seed = seed * 1103515245 + 12345;
            a[k] = b[k] = (int)(seed >> 16) % 100 - 50;
        }
        model_qsort(a, 50, sizeof a[0], icmp);
        qsort(b, 50, sizeof b[0], icmp);
        CHECK(memcmp(a, b, sizeof a) == 0, "qsort");
        model_qsort(a, 0, sizeof a[0], icmp);
        for (k = -60; k < 60; k++) {
            int *m = model_bsearch(&k, a, 50, sizeof a[0], icmp);
            int *g = bsearch(&k, a, 50, sizeof a[0], icmp);
            CHECK((m == NULL) == (g == NULL) && (m == NULL || *m == *g), "bsearch %d", k);
        }
    }
    /* environment */
    CHECK(model_getenv("HOME") == NULL, "getenv initially empty");
    CHECK(model_setenv("A", "1", 0) == 0 && strcmp(model_getenv("A"), "1") == 0, "setenv");
    CHECK(model_setenv("A", "2", 0) == 0 && strcmp(model_getenv("A"), "1") == 0, "setenv no overwrite");
    CHECK(model_setenv("A", "3", 1) == 0 && strcmp(model_getenv("A"), "3") == 0, "setenv overwrite");
    errno = 0;
    CHECK(model_setenv("B=C", "1", 1) == -1 && errno == EINVAL, "setenv EINVAL");
    errno = 0;
    CHECK(model_setenv("", "1", 1) == -1 && errno == EINVAL, "setenv empty EINVAL");
    CHECK(model_unsetenv("A") == 0 && model_getenv("A") == NULL, "unsetenv");
    CHECK(model_unsetenv("nonexistent") == 0, "unsetenv missing");
    CHECK(model___environ != NULL && model___environ[0] == NULL, "environ empty again");
    {
        static char put[] = "P=x";
        static char *own[] = {"O=1", "Q=2", "O=3", NULL};
        CHECK(model_setenv("A", "1", 1) == 0 && model_setenv("B", "2", 1) == 0 &&
                  model_putenv(put) == 0,
              "setenv, putenv");
        CHECK(strcmp(model___environ[0], "A=1") == 0 && strcmp(model___environ[1], "B=2") == 0 &&
                  model___environ[2] == put && model___environ[3] == NULL,
              "environ in order, putenv's own string");
        put[2] = 'y';
        CHECK(strcmp(model_getenv("P"), "y") == 0, "putenv's string is the variable");
        CHECK(model_putenv("A") == 0 && model_getenv("A") == NULL && strcmp(model___environ[0], "B=2") == 0,
              "putenv without '=' removes");
        CHECK(model_getenv("B=2") == NULL && model_getenv("") == NULL, "getenv of a bad name");
        model___environ = own;
        CHECK(strcmp(model_getenv("Q"), "2") == 0, "getenv reads a program's environ");
        CHECK(model_unsetenv("O") == 0 && strcmp(own[0], "Q=2") == 0 && own[1] == NULL,
              "unsetenv removes every entry");
        CHECK(model_setenv("R", "3", 0) == 0 && model___environ != own &&
                  strcmp(model___environ[0], "Q=2") == 0 && strcmp(model_getenv("R"), "3") == 0,
              "setenv copies a program's environ");
        CHECK(model_clearenv() == 0 && model___environ == NULL && model_getenv("Q") == NULL &&
                  model_setenv("S", "4", 1) == 0 && strcmp(model___environ[0], "S=4") == 0,
              "clearenv, then setenv");
    }
    /* atexit order */
    CHECK(model_atexit(ae1) == 0 && model_atexit(ae2) == 0 && model_atexit(ae3) == 0, "atexit");
    model_augur_run_atexit();
    CHECK(atexit_n == 3 && atexit_log[0] == 3 && atexit_log[1] == 2 && atexit_log[2] == 1,
          "atexit order");
    model_augur_run_atexit();
    CHECK(atexit_n == 3, "atexit handlers run once");
    CHECK(model___errno_location() == &errno, "errno location");
}
