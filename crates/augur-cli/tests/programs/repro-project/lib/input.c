#include <stdio.h>
#include "store.h"

size_t read_record(char *buf, size_t cap)
{
    size_t n = fread(buf, 1, cap - 1, stdin);
    for (;;) {
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        else if (n > 0 && buf[n - 1] == '\r')
            n--;
        else
            break;
    }
    buf[n] = 0;
    return n;
}
