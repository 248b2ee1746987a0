#include <stdio.h>

int main(int argc, char **argv)
{
    int v = 42;
    int *p;
    int n = argv[1][0] - '0';
    if (n >= 0 && n <= 9) /* BOUND */
        p = &v;
    else
        p = NULL;
    printf("%d\n", *p + n);
    return 0;
}
