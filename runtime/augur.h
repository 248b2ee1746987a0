/* augur.h: intrinsics of the augur symbolic execution workbench.
 * Programs include this header to mark inputs symbolic and state properties. */
#ifndef AUGUR_H
#define AUGUR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make the `size` bytes at `addr` a fresh symbolic input called `name`. */
void augur_make_symbolic(void *addr, size_t size, const char *name);
/* Continue only on inputs where `cond` holds (a false assumption is an `invalid-assume`). */
void augur_assume(long cond);
/* Report an `assertion` error on every input where `cond` can be false. */
void augur_assert(long cond);
/* A named output of the program, compared across revisions by `augur diff`. */
void augur_output(const char *name, const void *addr, size_t size);
/* In a hand-written meta program for `augur diff`: the revision (0 = base) whose code
 * runs at meta site `site`. Natively, the revision given by AUGUR_REVISION. */
int augur_meta(int site);
/* A fresh symbolic int called `name`. */
int augur_int(const char *name);
/* A fresh symbolic int in [lo, hi) called `name`. */
int augur_range(int lo, int hi, const char *name);

#ifdef __cplusplus
}
#endif

#endif
