/* tr SET1 SET2, written the way BusyBox writes such tools: no tables. Each input byte
   is looked up by walking SET1 (its position there), and SET2 is walked to that
   position. */
#include <stdio.h>

/* The next character of a set at *p, an escape sequence decoded; *p moves past it. */
static int next_char(const char **p)
{
    int c = (unsigned char)*(*p)++;
    if (c == '\\' && **p != 0) {
        c = (unsigned char)*(*p)++;
        if (c == 'n')
            c = '\n';
    }
    return c;
}

/* The position of c in set, or -1. */
static int position(const char *set, int c)
{
    int k = 0;
    while (*set) {
        int lo = next_char(&set);
        if (set[0] == '-' && set[1] != 0) {
            set++;
            int hi = next_char(&set);
            if (c >= lo && c <= hi) /* RANGE */
                return k + (c - lo);
            k += hi - lo + 1;
        } else {
            if (c == lo)
                return k;
            k++;
        }
    }
    return -1;
}

/* The character at position k of set (its last one past the end). */
static int at_position(const char *set, int k)
{
    int last = 0;
    while (*set) {
        int lo = next_char(&set);
        int hi = lo;
        if (set[0] == '-' && set[1] != 0) {
            set++;
            hi = next_char(&set);
        }
        if (k <= hi - lo)
            return lo + k;
        k -= hi - lo + 1;
        last = hi;
    }
    return last;
}

int main(int argc, char **argv)
{
    if (argc != 3 || argv[2][0] == 0) {
        fputs("usage: tr SET1 SET2\n", stderr);
        return 1;
    }
    int c;
    while ((c = getchar()) != EOF) {
        int k = position(argv[1], c);
        putchar(k < 0 ? c : at_position(argv[2], k));
    }
    return 0;
}
