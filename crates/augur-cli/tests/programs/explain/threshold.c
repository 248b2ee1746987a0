#include <stdio.h>
#include "augur.h"

int main(void)
{
    int x;
    augur_make_symbolic(&x, sizeof x, "x");
    if (x > 10) /* THRESHOLD */
        printf("big\n");
    else
        printf("small\n");
    return 0;
}
