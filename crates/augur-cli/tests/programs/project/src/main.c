/* A small project in two directories: a static library and a program linking it, libm and
 * libcrypt. */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include "util.h"

int main(int argc, char **argv)
{
    char buf[4];
    int n, c;
    if (argc < 2) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    if (argv[1][0] == '-') {
        puts(crypt("augur", "ab"));
        return 0;
    }
    n = atoi(argv[1]);
    c = classify(n);
    if (c == 2 && argv[1][0] == '9')
        buf[n - 90] = 'x'; /* out of bounds from 94 */
    printf("%s %d %c\n", GREETING, c, c == 2 ? buf[0] : '-');
    return c == -1;
}
