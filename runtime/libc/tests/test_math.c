#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include "model.h"

static double ulps(double a, double b)
{
    int64_t x, y;
    if (a == b || (a != a && b != b))
        return 0;
    if ((a < 0) != (b < 0))
        return 1e9;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return (double)(x > y ? x - y : y - x);
}

static double maxu[8];

static void chk1(const char *name, double (*m)(double), double (*g)(double), double x, double tol,
                 int k)
{
    double a = m(x), b = g(x), u = ulps(a, b);
    if (u > maxu[k])
        maxu[k] = u;
    CHECK(u <= tol, "%s(%.17g): model %.17g glibc %.17g (%g ulp)", name, x, a, b, u);
}

void test_math(void)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                                      0.49999999999999994, 1e-310, 4.9e-324, 1e300, -1e300,
                                      1.7976931348623157e308, 2.0, 3.0, 10.0, 0.1, 100.25,
                                      4503599627370495.5, 9007199254740993.0, INFINITY,
                                      -INFINITY, NAN};
    size_t i;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        double x = specials[i];
        chk1("fabs", model_fabs, fabs, x, 0, 0);
        chk1("floor", model_floor, floor, x, 0, 0);
        chk1("ceil", model_ceil, ceil, x, 0, 0);
        chk1("trunc", model_trunc, trunc, x, 0, 0);
        chk1("round", model_round, round, x, 0, 0);
        chk1("sqrt", model_sqrt, sqrt, x, 0, 0);
        chk1("exp", model_exp, exp, x, 2, 1);
        chk1("log", model_log, log, x, 2, 2);
        if (fabs(x) < 1e6 || x != x || isinf(x)) {
            chk1("sin", model_sin, sin, x, 2, 3);
            chk1("cos", model_cos, cos, x, 2, 4);
        }
    }
    for (i = 0; i < 20000; i++) {
        union { double d; uint64_t u; } b;
        double x, y;
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
        b.u = seed;
        x = b.d;
        if (x != x)
            continue;
        chk1("sqrt", model_sqrt, sqrt, fabs(x), 0, 0);
        chk1("floor", model_floor, floor, x, 0, 0);
        chk1("round", model_round, round, x / 1e300 * 1e300, 0, 0);
        y = (double)(int64_t)(seed % 2000000) / 1000.0 - 1000.0; /* [-1000, 1000) */
        chk1("exp", model_exp, exp, y / 1.4, 2, 1);
        chk1("log", model_log, log, fabs(x), 2, 2);
        chk1("sin", model_sin, sin, y * 10, 2, 3);
        chk1("cos", model_cos, cos, y * 10, 2, 4);
        {
            double a = model_fmod(x, y), g = fmod(x, y);
            CHECK(ulps(a, g) == 0, "fmod(%.17g, %.17g): %.17g vs %.17g", x, y, a, g);
            a = model_fmod(y, (double)(seed >> 50) / 7.0 + 0.001);
            g = fmod(y, (double)(seed >> 50) / 7.0 + 0.001);
            CHECK(ulps(a, g) == 0, "fmod2 %.17g vs %.17g", a, g);
        }
        {
            double px = fabs(y) / 37.0, py = (double)(int64_t)(seed >> 40) / 100000.0 - 80.0;
            double a = model_pow(px, py), g = pow(px, py), u = ulps(a, g);
            if (u > maxu[5]) maxu[5] = u;
            CHECK(u <= 1024, "pow(%.17g, %.17g): %.17g vs %.17g", px, py, a, g);
        }
    }
    {
        static const double pv[][2] = {{2, 10}, {10, 3}, {2, -1}, {-2, 3}, {-2, 0.5}, {0, -1},
                                       {-0.0, -3}, {0, 0}, {1, NAN}, {NAN, 0}, {2, INFINITY},
                                       {0.5, INFINITY}, {-1, INFINITY}, {INFINITY, -1},
                                       {-INFINITY, 3}, {-INFINITY, 2}, {1e300, 2}, {3, 0.5},
                                       {10, -2}, {2, 0.5}, {1.0000001, 1e6}, {-8, 1.0 / 3}};
        for (i = 0; i < sizeof pv / sizeof pv[0]; i++) {
            double a = model_pow(pv[i][0], pv[i][1]), g = pow(pv[i][0], pv[i][1]);
            CHECK(ulps(a, g) <= 2 || (a != a && g != g), "pow(%g, %g): %.17g vs %.17g", pv[i][0],
                  pv[i][1], a, g);
        }
    }
    CHECK(isnan(model_fmod(1, 0)) && isnan(model_fmod(INFINITY, 1)) && model_fmod(5, INFINITY) == 5,
          "fmod specials");
    fprintf(stdout, "math: max ulp exp %g log %g sin %g cos %g pow %g\n", maxu[1], maxu[2],
            maxu[3], maxu[4], maxu[5]);
}
