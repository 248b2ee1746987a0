#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int table[8] = {0};
    int i = atoi(argv[1]);
    if (i >= 0 && i < 8) /* GUARD */
        table[i] = 1;
    printf("%d\n", table[0]);
    return 0;
}
