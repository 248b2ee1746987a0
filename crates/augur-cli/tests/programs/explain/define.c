#include <stdio.h>
#include <stdlib.h>

#define LIMIT 10 /* DEFINE */
#define ABOVE(n) ((n) > LIMIT)

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    const char *size = "small";
    if (ABOVE(n))
        size = "big";
    printf("%d is %s\n", n, size);
    return 0;
}
