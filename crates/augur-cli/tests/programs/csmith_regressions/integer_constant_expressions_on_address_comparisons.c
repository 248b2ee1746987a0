
#include <stdio.h>
static long g[2][10];
static int *p[3];
int main(void) {
    int a = ~(&g[1][6] == &g[0][6]);
    long b = ((char *)p + 16 != (char *)0) | 16L;
    int c = (&g[1][2] != &g[0][2]) * 6;
    int d = (&g[1][2] != &g[0][2]) << 4;
    int e = (&g[1][2] != &g[0][2]) & 7;
    int f = (-8 - (&g[0][1] != &g[0][3])) >> 1;
    unsigned u = (unsigned)(-9 - (&g[0][1] != &g[0][3])) / 3u;
    int q = (-9 - (&g[0][1] != &g[0][3])) % 4;
    printf("%d %ld %d %d %d %d %u %d\n", a, b, c, d, e, f, u, q);
    return 0;
}
