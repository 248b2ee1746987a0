/* wc -lw, written the way GNU coreutils writes it: a character-class table decides
   what separates words, and the counts are printed in columns seven wide. */
#include <stdio.h>

static const unsigned char separates[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
};

int main(void)
{
    long lines = 0, words = 0;
    int in_word = 0, c;
    while ((c = getchar()) != EOF) {
        lines += c == '\n';
        if (separates[c]) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    printf("%7ld %7ld\n", lines, words); /* PRINT */
    return 0;
}
