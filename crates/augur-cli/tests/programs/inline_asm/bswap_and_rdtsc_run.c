#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <x86intrin.h>
static uint32_t swap32(uint32_t x) {
  asm("bswap %0" : "+r"(x));
  return x;
}
static uint64_t swap64(uint64_t x) {
  asm("bswapq %0" : "=r"(x) : "0"(x));
  return x;
}
static uint64_t ticks(void) {
  uint32_t lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (uint64_t)hi << 32 | lo;
}
static uint64_t ticks_aux(unsigned *aux) {
  uint32_t lo, hi;
  asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*aux));
  return (uint64_t)hi << 32 | lo;
}
int main(void) {
  uint32_t v = 0;
  if (read(0, &v, 4) != 4) return 3;
  uint64_t t0 = ticks();
  uint32_t s = swap32(v);
  uint64_t t1 = __rdtsc();
  unsigned aux;
  uint64_t t2 = ticks_aux(&aux);
  uint64_t t3 = __rdtscp(&aux);
  printf("%016llx %d\n", (unsigned long long)swap64(0x0102030405060708ull),
         t0 < t1 && t1 < t2 && t2 < t3);
  if (s == 0x11223344) {
    puts("match");
    return 1;
  }
  puts("other");
  return 0;
}
