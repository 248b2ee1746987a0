
#include <stdio.h>
__int128 f(__int128 x) { return x + ((__int128)1 << 100); }
unsigned __int128 g(unsigned __int128 x) { return x * ((unsigned __int128)-1 / 5); }
__int128 h(__int128 x) { return x - (-((__int128)3 << 90)); }
int s(unsigned __int128 x) {
    switch (x) {
    case ((unsigned __int128)7 << 70): return 1;
    case 0: return 2;
    case 1: return 3;
    case ((unsigned __int128)-1): return 5;
    default: return 4;
    }
}
__int128 sel(int c) { return c ? ((__int128)1 << 100) : 5; }
__int128 gl = (__int128)1 << 100;
static void pr(unsigned __int128 v) {
    printf("%016llx%016llx\n", (unsigned long long)(v >> 64), (unsigned long long)v);
}
int main(void) {
    unsigned __int128 keys[] = { (unsigned __int128)7 << 70, 0, 1, 2, 3,
                                 (unsigned __int128)-1, (unsigned __int128)-2 };
    for (int i = 0; i < 7; i++) printf("%d\n", s(keys[i]));
    pr(f(3)); pr(g(7)); pr(h(-1)); pr(sel(1)); pr(sel(0));
    return 0;
}
