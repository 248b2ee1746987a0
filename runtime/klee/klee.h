/* klee/klee.h: KLEE-compatible intrinsics, provided by augur so that programs written
 * for KLEE run unmodified. */
#ifndef AUGUR_KLEE_H
#define AUGUR_KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void klee_make_symbolic(void *addr, size_t nbytes, const char *name);
void klee_assume(uintptr_t condition);
int klee_range(int begin, int end, const char *name);
int klee_int(const char *name);
void klee_silent_exit(int status) __attribute__((noreturn));
void klee_abort(void) __attribute__((noreturn));
void klee_report_error(const char *file, int line, const char *message, const char *suffix)
    __attribute__((noreturn));
unsigned klee_is_symbolic(uintptr_t n);
void klee_warning(const char *message);
void klee_warning_once(const char *message);
void klee_prefer_cex(void *object, uintptr_t condition);
void klee_print_expr(const char *msg, ...);

/* As in KLEE, klee_assert is the C assert with the same report. */
void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) __attribute__((noreturn));
#define klee_assert(expr)                                                      \
  ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))

#ifdef __cplusplus
}
#endif

#endif
