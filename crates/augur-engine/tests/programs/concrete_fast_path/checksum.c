
typedef unsigned long long u64;
typedef unsigned __int128 u128;
static u64 h = 1469598103934665603ull;
static void mix(u64 v) { h = (h ^ v) * 1099511628211ull; }
static unsigned char buf[600];
static int compute(void) {
  signed char sc = -7; short ss = -300; int si = -100000; long long sl = -5000000000LL;
  unsigned char uc = 250; unsigned short us = 65000; unsigned ui = 4000000000u;
  u64 ul = 18000000000000000000ull;
  __int128 big = (__int128)sl * 1000000007 - 12345;
  u128 ubig = ((u128)ul << 64) | ui;
  for (int i = 1; i < 40; i++) {
    mix(sc / i); mix(sc % i); mix(ss / -i); mix(si % -i); mix(sl / i); mix(sl % i);
    mix(uc / i); mix(us % i); mix(ui / i); mix(ul % i);
    mix((u64)(big / i)); mix((u64)(big % i)); mix((u64)(ubig >> i)); mix((u64)(ubig / i));
    mix((u64)(ubig >> (64 + i))); mix((u64)(ubig << i)); mix((u64)(big >> i));
    mix(si >> (i % 32)); mix(sl >> i); mix(ui >> (i % 32)); mix(ul << i);
    mix(sc * i); mix((unsigned char)(uc + i * 3)); mix((short)(ss * i));
    mix(si < i); mix(ui > (unsigned)i); mix(sl <= -i); mix(ul >= (u64)i); mix(big < i);
    mix((signed char)(si + i)); mix((unsigned short)sl); mix((long long)sc * i);
    buf[(i * 37) % 600] = (unsigned char)(i * 11);
    *(unsigned short *)(buf + 254 + i % 4) = (unsigned short)(ss * i);
    *(unsigned *)(buf + 253 + i % 5) ^= ui + i;
    *(u64 *)(buf + 250 + i % 8) += ul ^ i;
    mix(*(u64 *)(buf + 250 + (i * 3) % 8));
    mix(*(unsigned *)(buf + 252 + (i * 5) % 6));
    *(u128 *)(buf + 240 + i % 16) = ubig + i;
    mix((u64)(*(u128 *)(buf + 248 + i % 8) >> 3));
    mix(*(short *)(buf + 511 + i % 3));
    unsigned char *p = buf + 599;
    mix(p[-i * 7]);
    _Bool odd = i & 1;
    mix(odd ? *(int *)(buf + 4 * i) : -*(int *)(buf + 600 - 4 * i));
  }
  u64 s = 0;
  for (int i = 0; i < 600; i++) s = s * 31 + buf[i];
  mix(s);
  return (int)(h ^ (h >> 32));
}
#ifdef NATIVE
#include <stdio.h>
int main(void) { printf("%d\n", compute()); return 0; }
#else
int main(void) { return compute(); }
#endif
