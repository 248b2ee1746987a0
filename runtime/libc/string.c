/*
 * string.c - <string.h> / <strings.h> models.
 *
 * Everything works one byte at a time so that symbolic bytes fork in a
 * simple, predictable way.
 */
#include "libc_internal.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i;
    for (i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t i;
    if (d == s || n == 0)
        return dst;
    if (d < s) {
        for (i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        for (i = n; i > 0; i--)
            d[i - 1] = s[i - 1];
    }
    return dst;
}

void *memset(void *s, int c, size_t n)
{
    unsigned char *p = s;
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = (unsigned char)c;
    return s;
}

void bzero(void *s, size_t n)
{
    memset(s, 0, n);
}

void explicit_bzero(void *s, size_t n)
{
    memset(s, 0, n);
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != q[i])
            return (int)p[i] - (int)q[i];
    }
    return 0;
}

int bcmp(const void *a, const void *b, size_t n)
{
    return memcmp(a, b, n);
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] == (unsigned char)c)
            return (void *)(p + i);
    }
    return NULL;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0')
        n++;
    return n;
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n] != '\0')
        n++;
    return n;
}

char *strcpy(char *dst, const char *src)
{
    size_t i = 0;
    while ((dst[i] = src[i]) != '\0')
        i++;
    return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
    size_t i = 0;
    for (; i < n && src[i] != '\0'; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = '\0';
    return dst;
}

char *strcat(char *dst, const char *src)
{
    strcpy(dst + strlen(dst), src);
    return dst;
}

char *strncat(char *dst, const char *src, size_t n)
{
    char *d = dst + strlen(dst);
    size_t i;
    for (i = 0; i < n && src[i] != '\0'; i++)
        d[i] = src[i];
    d[i] = '\0';
    return dst;
}

int strcmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    size_t i = 0;
    while (p[i] != '\0' && p[i] == q[i])
        i++;
    return (int)p[i] - (int)q[i];
}

int strncmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != q[i])
            return (int)p[i] - (int)q[i];
        if (p[i] == '\0')
            return 0;
    }
    return 0;
}

/* The C locale collates by byte value. */
int strcoll(const char *a, const char *b)
{
    return strcmp(a, b);
}

/* In the C locale collation is byte order: the transformed string is the string. */
size_t strxfrm(char *dst, const char *src, size_t n)
{
    size_t len = strlen(src);
    if (len < n)
        memcpy(dst, src, len + 1);
    return len;
}

char *strchr(const char *s, int c)
{
    char ch = (char)c;
    for (;; s++) {
        if (*s == ch)
            return (char *)s;
        if (*s == '\0')
            return NULL;
    }
}

char *strrchr(const char *s, int c)
{
    char ch = (char)c;
    const char *last = NULL;
    for (;; s++) {
        if (*s == ch)
            last = s;
        if (*s == '\0')
            return (char *)last;
    }
}

char *strstr(const char *hay, const char *needle)
{
    size_t i, j;
    if (needle[0] == '\0')
        return (char *)hay;
    for (i = 0; hay[i] != '\0'; i++) {
        for (j = 0; needle[j] != '\0' && hay[i + j] == needle[j]; j++)
            ;
        if (needle[j] == '\0')
            return (char *)(hay + i);
    }
    return NULL;
}

/* Is byte c one of the bytes of set? (the terminating NUL never is) */
static int in_set(char c, const char *set)
{
    size_t i;
    for (i = 0; set[i] != '\0'; i++) {
        if (set[i] == c)
            return 1;
    }
    return 0;
}

size_t strspn(const char *s, const char *accept)
{
    size_t n = 0;
    while (s[n] != '\0' && in_set(s[n], accept))
        n++;
    return n;
}

size_t strcspn(const char *s, const char *reject)
{
    size_t n = 0;
    while (s[n] != '\0' && !in_set(s[n], reject))
        n++;
    return n;
}

char *strpbrk(const char *s, const char *accept)
{
    s += strcspn(s, accept);
    return *s != '\0' ? (char *)s : NULL;
}

char *strtok_r(char *s, const char *delim, char **save)
{
    char *tok;
    if (s == NULL)
        s = *save;
    s += strspn(s, delim);
    if (*s == '\0') {
        *save = s;
        return NULL;
    }
    tok = s;
    s += strcspn(s, delim);
    if (*s == '\0') {
        *save = s;
    } else {
        *s = '\0';
        *save = s + 1;
    }
    return tok;
}

char *strtok(char *s, const char *delim)
{
    static char *save;
    return strtok_r(s, delim, &save);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    return memcpy(p, s, n);
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = malloc(n + 1);
    if (p == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *p = (const unsigned char *)a;
    const unsigned char *q = (const unsigned char *)b;
    size_t i;
    for (i = 0; i < n; i++) {
        int x = tolower(p[i]), y = tolower(q[i]);
        if (x != y)
            return x - y;
        if (x == '\0')
            return 0;
    }
    return 0;
}

int strcasecmp(const char *a, const char *b)
{
    return strncasecmp(a, b, (size_t)-1);
}

/* ---- GNU and POSIX.1-2008 variants ----------------------------------- */

char *stpcpy(char *dst, const char *src)
{
    size_t n = strlen(src);
    memcpy(dst, src, n + 1);
    return dst + n;
}

char *stpncpy(char *dst, const char *src, size_t n)
{
    size_t k = strnlen(src, n);
    memcpy(dst, src, k);
    memset(dst + k, 0, n - k);
    return dst + k;
}

void *mempcpy(void *dst, const void *src, size_t n)
{
    return (char *)memcpy(dst, src, n) + n;
}

void *memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = (const unsigned char *)s + n;
    while (n-- > 0)
        if (*--p == (unsigned char)c)
            return (void *)p;
    return NULL;
}

void *rawmemchr(const void *s, int c)
{
    const unsigned char *p = s;
    while (*p != (unsigned char)c)
        p++;
    return (void *)p;
}

char *strchrnul(const char *s, int c)
{
    while (*s != '\0' && *s != (char)c)
        s++;
    return (char *)s;
}
