#include <math.h>
#include "util.h"

/* The bound past which a value is large: libm's square root of a variable, so that the
 * program links -lm. */
double area = 8100.0;

/* 1 for small values, 2 for large ones, -1 for negative ones. */
int classify(int v)
{
    if (v < 0)
        return -1;
    return v > (int)sqrt(area) ? 2 : 1;
}
