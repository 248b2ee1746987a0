#include <stdio.h>
#include <stdlib.h>

static int allowed(int guest, int invited)
{
    return !guest || (guest && invited); /* CHECK */
}

int main(int argc, char **argv)
{
    int guest = atoi(argv[1]);
    int invited = atoi(argv[2]);
    printf(allowed(guest, invited) ? "welcome\n" : "denied\n");
    return 0;
}
