
#include <stdio.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
#pragma pack(pop)
struct S g = {1, 2, 3, 4, 5, 6};
int main(void) { g.f2 = -7; g.f4 += g.f1; printf("%d %u %d\n", g.f2, g.f1, g.f4); return 0; }
