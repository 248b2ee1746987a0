
#include <stdio.h>
#include <stdint.h>
struct S { int64_t f0; int16_t f1; uint64_t f2; int8_t f3; };
static struct S g = {1, 2, 3, 4};
static int64_t f(struct S p) {
    p.f0 = -251;
    p.f3 = 9;
    return p.f0 + p.f3;
}
int main(void) {
    int64_t r = f(g);
    printf("%lld %lld %d\n", (long long)r, (long long)g.f0, g.f3);
    return g.f0 == 1 ? 0 : 1;
}
