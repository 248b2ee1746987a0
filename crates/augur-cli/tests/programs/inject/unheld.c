/* The input is only ever compared as getchar() returns it: no variable of the program
   holds a value that depends on it, so no line of any path is a transition point. */
#include <stdio.h>

int main(void) {
    if (getchar() == 'a')
        puts("a");
    else
        puts("not a");
    return 0;
}
