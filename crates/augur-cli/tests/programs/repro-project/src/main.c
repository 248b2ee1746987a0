/* keystore: reads `key=value` on standard input. An administrator's key (one whose digest
 * is that of a secret: "root-of-trust") stores its value in a fixed slot; any other key's
 * value is split into fields. `-v` prints the version's crypt(3) hash. */
#include <crypt.h>
#include <stdio.h>
#include <string.h>
#include "store.h"

#define ADMIN_DIGEST 0xb71925beb0ac000cUL

int main(int argc, char **argv)
{
    char line[64];
    size_t n, key;
    const char *eq;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        puts(crypt("keystore-1", "ks"));
        return 0;
    }
    n = read_record(line, sizeof line);
    eq = memchr(line, '=', n);
    if (!eq)
        return 1;
    key = (size_t)(eq - line);
    if (digest(line, key) == ADMIN_DIGEST)
        store_admin(eq + 1, n - key - 1);
    else
        printf("%d field(s)\n", store_fields(eq + 1, n - key - 1));
    return 0;
}
