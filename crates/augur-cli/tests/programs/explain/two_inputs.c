#include <stdio.h>

int main(int argc, char **argv)
{
    int inp1 = argv[1][0] - '0', inp2 = argv[2][0] - '0';
    int x, y;
    if (inp1 > 0)
        x = inp1 * 3; /* X */
    else
        x = -inp1;
    if (inp2 > 0)
        y = inp2 * 2;
    else
        y = 0;
    printf("%d %d\n", x, y);
    return 0;
}
