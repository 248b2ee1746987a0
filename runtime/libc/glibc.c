/*
 * glibc.c - glibc's own interfaces that musl (runtime/musl) lacks or defines
 * otherwise, for programs built against glibc's headers: GNU basename (musl's
 * is POSIX's, which glibc's <libgen.h> names __xpg_basename), and the malloc
 * tuning calls (mallopt, malloc_trim), which have nothing to tune in the
 * engine's allocator.
 */
#include "libc_internal.h"

/* GNU basename (<string.h>): what follows the last '/', "" when the path ends
 * with one; the path is not changed. */
char *basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return (char *)(slash != NULL ? slash + 1 : path);
}

/* POSIX basename (<libgen.h>), as glibc's: the last component, trailing
 * slashes cut off in place; its last slash for a path of slashes only; "."
 * for NULL or "". */
char *__xpg_basename(char *path)
{
    char *p;
    if (path == NULL || path[0] == '\0')
        return ".";
    p = strrchr(path, '/');
    if (p == NULL)
        return path;
    if (p[1] != '\0')
        return p + 1;
    while (p > path && p[-1] == '/')
        p--;
    if (p == path)
        return path + strlen(path) - 1;
    *p = '\0';
    while (p > path && p[-1] != '/')
        p--;
    return p;
}

/* mallopt(param, value): accepted (1), as glibc accepts its known parameters. */
int mallopt(int param, int value)
{
    (void)param;
    (void)value;
    return 1;
}

/* malloc_trim(pad): no memory was given back (0). */
int malloc_trim(size_t pad)
{
    (void)pad;
    return 0;
}
