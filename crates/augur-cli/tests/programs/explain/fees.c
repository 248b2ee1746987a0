#include <stdio.h>
#include <stdlib.h>

static int total;

static void charge(int v, int first)
{
    if (!first)
        total = total + 1;
    total = total + v;
}

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    for (int k = 0; k < 3; k++) {
        charge(n, k == 0); /* FIRST */
        printf("%d\n", total);
    }
    return 0;
}
