#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    for (int i = 1; i <= n; i++) /* LOOP */
        printf("%d\n", i);
    return 0;
}
