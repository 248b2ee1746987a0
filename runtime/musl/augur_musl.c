/* augur: the one thread's descriptor, which the thread pointer (arch/pthread_arch.h)
 * points at: musl reads its errno cell, locale and cancellation state there. musl's
 * start-up (__libc_start_main, __init_tls), which fills it natively, is not linked. */
#include "pthread_impl.h"
#include <stdlib.h>
#include <string.h>

struct pthread __augur_thread = {
	.self = &__augur_thread,
	.tid = 4242,
	.detach_state = DT_JOINABLE,
	.locale = &libc.global_locale,
	.robust_list.head = &__augur_thread.robust_list.head,
};

/* musl's own calls of its allocator go to the engine's. */
void *__libc_malloc(size_t n)
{
	return malloc(n);
}

void *__libc_calloc(size_t m, size_t n)
{
	return calloc(m, n);
}

void __libc_free(void *p)
{
	free(p);
}

char *__musl_realpath(const char *restrict filename, char *restrict resolved);

/* glibc's realpath: musl's (src/misc/realpath.c, under another name), but a name that
 * starts with exactly two slashes, which musl keeps ("//", "//a"), starts with one, as
 * glibc makes every name it resolves (POSIX leaves "//" to the implementation; the
 * native replay runs glibc's). */
char *realpath(const char *restrict filename, char *restrict resolved)
{
	char *out = __musl_realpath(filename, resolved);
	if (out && out[0] == '/' && out[1] == '/' && out[2] != '/')
		memmove(out, out + 1, strlen(out));
	return out;
}

/* glibc's canonicalize_file_name, which musl lacks: realpath with a buffer of its own. */
char *canonicalize_file_name(const char *path)
{
	return realpath(path, 0);
}
