#include <stdio.h>
#include "store.h"

size_t read_record(char *buf, size_t cap)
{
    size_t n = 0;
    int c;
    while (n + 1 < cap && (c = getchar()) != EOF && c != '\n')
        if (c != '\r')
            buf[n++] = (char)c;
    buf[n] = 0;
    return n;
}
