#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned long n = strtoul(argv[1], 0, 10);
    unsigned long item = strtoul(argv[2], 0, 10);
    unsigned long bytes = n * item;
    unsigned long overhead = n * 16; /* OVERHEAD */
    printf("%s: %lu bytes\n", argv[1], bytes + overhead);
    return 0;
}
