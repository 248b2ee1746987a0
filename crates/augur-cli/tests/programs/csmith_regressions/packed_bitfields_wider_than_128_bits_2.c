
#include <stdio.h>
#pragma pack(push)
#pragma pack(1)
struct S { signed f0 : 30; unsigned f1 : 31; signed f2 : 27; unsigned f3 : 29; signed f4: 20; unsigned f5 : 15; };
struct T { unsigned a : 31; signed b : 31; unsigned c : 31; signed d : 31; unsigned e : 31; signed f : 31; unsigned g : 31; signed h : 31; char tail; };
#pragma pack(pop)
struct S s1 = {-1, 2147483647u, -67108864, 536870911u, -524288, 32767u};
struct T t1 = {1, -2, 3, -4, 5, -6, 7, -8, 'x'};
static void show_s(const struct S *p) {
    printf("S %d %u %d %u %d %u\n", p->f0, p->f1, p->f2, p->f3, p->f4, p->f5);
}
static void show_t(struct T t) {
    printf("T %u %d %u %d %u %d %u %d %c\n", t.a, t.b, t.c, t.d, t.e, t.f, t.g, t.h, t.tail);
}
int main(void) {
    struct S l = s1;
    int i;
    show_s(&s1);
    show_t(t1);
    l.f0 = -536870912; l.f1 = 12345; l.f2 = 67108863; l.f3 = 7; l.f4 = 524287; l.f5 = 1;
    show_s(&l);
    for (i = 0; i < 5; i++) {
        l.f0 -= 3; l.f1 *= 3; l.f2 ^= i; l.f3 += l.f1; l.f4 = -l.f4 + i; l.f5 -= 2;
        show_s(&l);
    }
    t1.a = 0x7fffffff; t1.b = -1073741824; t1.c ^= t1.a; t1.d = t1.b >> 3; t1.e = t1.c + 9;
    t1.f = -t1.f; t1.g = t1.g << 20; t1.h = t1.h * 1000;
    show_t(t1);
    s1 = l;
    show_s(&s1);
    return (s1.f4 < 0) + 2 * (t1.h > 0) + 4 * (l.f0 == s1.f0);
}
