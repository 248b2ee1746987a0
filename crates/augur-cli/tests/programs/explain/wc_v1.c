#include <stdio.h>

int main(void)
{
    int c, words = 0, in_word = 0;
    while ((c = getchar()) != EOF) {
        if (c == ' ' || c == '\t' || c == '\n') /* BLANK */
            in_word = 0;
        else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    printf("%d words\n", words);
    return 0;
}
