/* Symbolic-index memory under chained reads and writes: a table read and written at
 * input-dependent indices inside a hash-like loop, then an assertion on the hash.
 * The defaults are the workload itself (a 64-byte table, 6 rounds over 8 input bytes);
 * bench/run.sh builds its variations with -D: ROUNDS, TABLE (a power of two), IN_BYTES,
 * INDEX_BYTES (2: each index is made of two input bytes), HASH_MASK/TARGET (the failing
 * value of the hash) and INIT_MUL/INIT_ADD (the table's initial contents). */
#include <augur.h>
#ifndef ROUNDS
#define ROUNDS 6
#endif
#ifndef TABLE
#define TABLE 64
#endif
#ifndef IN_BYTES
#define IN_BYTES 8
#endif
#ifndef INDEX_BYTES
#define INDEX_BYTES 1
#endif
#ifndef HASH_MASK
#define HASH_MASK 0xffff
#endif
#ifndef TARGET
#define TARGET 0xbeef
#endif
#ifndef INIT_MUL
#define INIT_MUL 37
#endif
#ifndef INIT_ADD
#define INIT_ADD 11
#endif
int main(void) {
  unsigned char in[IN_BYTES];
  augur_make_symbolic(in, sizeof in, "in");
  unsigned char t[TABLE];
  for (int i = 0; i < TABLE; i++)
    t[i] = (unsigned char)(i * INIT_MUL + INIT_ADD);
  unsigned h = 0;
  for (int r = 0; r < ROUNDS; r++)
    for (int k = 0; k < IN_BYTES; k += INDEX_BYTES) {
      unsigned index = in[k];
#if INDEX_BYTES == 2
      index |= (unsigned)in[k + 1] << 8;
#endif
      unsigned j = (index ^ h) & (TABLE - 1);
      unsigned char v = t[j];
      t[(j + r) & (TABLE - 1)] = (unsigned char)(v + in[k]);
      h = h * 31 + v;
    }
  augur_assert((h & HASH_MASK) != TARGET);
  return 0;
}
