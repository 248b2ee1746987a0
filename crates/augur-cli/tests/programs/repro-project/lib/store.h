#include <stddef.h>

/* Read the input (at most cap - 1 bytes) into buf, trailing newlines and carriage
 * returns dropped; returns its length. */
size_t read_record(char *buf, size_t cap);
/* A 64-bit digest of the n bytes at s. */
unsigned long digest(const char *s, size_t n);
/* Keep the value of an administrator's key. */
void store_admin(const char *value, size_t n);
/* Keep the comma-separated fields of a user's value; returns how many. */
int store_fields(const char *value, size_t n);
