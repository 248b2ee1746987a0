/* wc -lw, written the way BusyBox writes such tools: one loop comparing characters, the
   counts printed without padding. */
#include <stdio.h>

static int is_space(int c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; /* SPACE */
}

int main(void)
{
    unsigned count[2] = {0, 0};
    int c, prev = ' ';
    while ((c = getchar()) != EOF) {
        if (c == '\n')
            count[0]++;
        if (!is_space(c) && is_space(prev))
            count[1]++;
        prev = c;
    }
    printf("%u %u\n", count[0], count[1]); /* PRINT */
    return 0;
}
