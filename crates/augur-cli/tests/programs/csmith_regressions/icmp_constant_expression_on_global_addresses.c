
#include <stdio.h>
static long g[7];
static int h;
int main(void) {
    int a = (&g[1] != &g[5]);
    int b = (&g[1] == &g[5]);
    int c = (&g[2] == &g[2]);
    int d = ((void *)&g[1] == (void *)&h);
    int e = ((void *)&g[1] != (void *)0);
    int f = (&g[6] > &g[2]);
    printf("%d %d %d %d %d %d\n", a, b, c, d, e, f);
    return a + b + c + d + e + f;
}
