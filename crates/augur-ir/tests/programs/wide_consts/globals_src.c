
#include <stdio.h>
struct operand { long double v; long w; int p; };
static const struct operand first = { 1.0L, 7, -2 };
long double table[3] = { 2.5L, -0.1L, 1e4000L };
struct mix { char c; long double x; __int128 y; short s; } mixed[2] = {
    { 'a', 3.25L, (__int128)-3 << 70, 9 }, { 'b', 0.0L, 1, -1 } };
long double *tp = &table[1];
int main(void) {
    printf("%Lg %ld %d\n", first.v, first.w, first.p);
    for (int i = 0; i < 3; i++) printf("%La\n", table[i]);
    for (int i = 0; i < 2; i++)
        printf("%c %La %016llx %d\n", mixed[i].c, mixed[i].x,
               (unsigned long long)(mixed[i].y >> 64), mixed[i].s);
    printf("%La\n", *tp);
    return 0;
}
