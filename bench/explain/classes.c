/* augur explain benchmark: character classes of standard input, the golden version;
 * bench/explain.sh makes the buggy one (digits stop at 8) and feeds inputs of growing size. */
#include <stdio.h>

int main(void)
{
    char buf[512];
    int n = 0, c, upper = 0, digits = 0, sum = 0;
    while ((c = getchar()) != EOF && n < 511)
        buf[n++] = c;
    for (int i = 0; i < n; i++) {
        if (buf[i] >= 'A' && buf[i] <= 'Z')
            upper++;
        if (buf[i] >= '0' && buf[i] <= '9') /* DIGIT */
            digits++;
        sum = (sum * 31 + buf[i]) & 0xffff;
    }
    printf("%d upper, %d digits, checksum %d\n", upper, digits, sum);
    return 0;
}
