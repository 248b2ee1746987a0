#include <stddef.h>

/* A 64-bit digest of the n bytes at s. */
unsigned long digest(const char *s, size_t n);
/* Keep the value of an administrator's key. */
void store_admin(const char *value, size_t n);
/* Keep the comma-separated fields of a user's value; returns how many. */
int store_fields(const char *value, size_t n);
