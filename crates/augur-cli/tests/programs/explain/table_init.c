#include <stdio.h>
#include <stdlib.h>

static int limits[3];

static void setup(void)
{
    limits[0] = 400;
    limits[1] = 500; /* ENTRY */
    limits[2] = 600;
}

static int over(int level, int v)
{
    return v > limits[level];
}

int main(int argc, char **argv)
{
    setup();
    int level = atoi(argv[1]);
    int v = atoi(argv[2]);
    for (int i = 0; i < 3; i++)
        printf("step %d\n", i);
    if (over(level, v))
        printf("alarm\n");
    else
        printf("ok\n");
    return 0;
}
