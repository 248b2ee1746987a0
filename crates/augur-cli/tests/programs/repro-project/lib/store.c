#include "store.h"

static char admin[16];
static const char *fields[4];

void store_admin(const char *value, size_t n)
{
    if (n > 24) /* the bug: the slot holds 16 */
        n = 24;
    for (size_t i = 0; i < n; i++)
        admin[i] = value[i];
}

int store_fields(const char *value, size_t n)
{
    int count = 0;
    fields[count++] = value;
    for (size_t i = 0; i < n; i++)
        if (value[i] == ',' && i + 1 < n)
            fields[count++] = value + i + 1; /* the bug: no check of count */
    return count;
}
