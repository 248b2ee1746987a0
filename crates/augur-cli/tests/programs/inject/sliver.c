/* A value that a sliver of the inputs sets: v is 1 only when stdin is the bytes 7, 9, 3
   (one input in 2^24), and no branch looks at it, so the path is the same for every
   input and uniform samples of it all have v = 0. Nothing is printed and the exit
   status is 0: printing r would branch on it, exiting with it would fix it. */
#include <stdio.h>

int sink;

static int stage(int v) {
    int w = v + 1;
    w = w * 2;
    return w;
}

int main(void) {
    int v = (getchar() == 7) & (getchar() == 9) & (getchar() == 3);
    int r = stage(v);
    r = r + v;
    sink = r;
    return 0;
}
