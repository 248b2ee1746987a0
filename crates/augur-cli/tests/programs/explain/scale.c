#include <stdio.h>

int main(int argc, char **argv)
{
    int x = argv[1][0] - '0';
    int y = x * 2; /* ASSIGN */
    printf("%d\n", y);
    return 0;
}
