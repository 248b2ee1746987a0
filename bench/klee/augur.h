/* augur's API on top of KLEE's, so that bench/run.sh builds the bench programs for KLEE
 * unchanged (-I bench/klee puts this header before augur's). */
#ifndef AUGUR_KLEE_SHIM_H
#define AUGUR_KLEE_SHIM_H
#include <klee/klee.h>
#define augur_make_symbolic(addr, size, name) klee_make_symbolic(addr, size, name)
#define augur_assume(cond) klee_assume(cond)
#define augur_assert(cond) klee_assert(cond)
#endif
