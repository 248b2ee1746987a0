/* fixed_random.h: the random bytes of augur's fixed world (getrandom, getentropy), shared
 * by the libc models and the native replay runtime, so that a program reading them gets
 * the same bytes under analysis and in replay: a splitmix64 stream from a fixed seed,
 * one step per byte, continued across calls. */
#ifndef AUGUR_FIXED_RANDOM_H
#define AUGUR_FIXED_RANDOM_H
#include <stddef.h>
#include <stdint.h>

static uint64_t augur_random_state = 0x2024010100000000u;

static void augur_fixed_random(void *buf, size_t len) {
  unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) {
    uint64_t z = (augur_random_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    p[i] = (unsigned char)(z ^ (z >> 31));
  }
}

/* getrandom(2)'s and getentropy(3)'s semantics over that stream (Linux hands out at most
 * 32 MiB - 1 bytes per getrandom call; getentropy takes at most 256 and otherwise fails,
 * -1, with errno EIO, which the caller sets: the models have their own errno). */
static long augur_fixed_getrandom(void *buf, size_t len) {
  if (len > 33554431)
    len = 33554431;
  augur_fixed_random(buf, len);
  return (long)len;
}

static int augur_fixed_getentropy(void *buf, size_t len) {
  if (len > 256)
    return -1;
  augur_fixed_random(buf, len);
  return 0;
}

#endif
