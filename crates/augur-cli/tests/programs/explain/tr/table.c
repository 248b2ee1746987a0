/* tr SET1 SET2, written the way GNU coreutils writes it: both sets are expanded into
   arrays first (escapes decoded, ranges listed), then one 256-entry translation table
   maps every input byte. SET2 is padded with its last character. */
#include <stdio.h>

/* The character at spec[*i], an escape sequence decoded; *i is left on its last byte. */
static int unescape(const char *spec, int *i)
{
    int c = (unsigned char)spec[*i];
    if (c != '\\' || spec[*i + 1] == 0)
        return c;
    *i += 1;
    switch (spec[*i]) {
    case 'n':
        return '\n';
    case 't':
        return '\t';
    default:
        return (unsigned char)spec[*i];
    }
}

/* Expand spec into out: its characters in order, ranges `a-z` listed. */
static int expand(const char *spec, unsigned char *out)
{
    int n = 0;
    for (int i = 0; spec[i] != 0 && n < 256; i++) {
        int lo = unescape(spec, &i);
        if (spec[i + 1] == '-' && spec[i + 2] != 0) {
            i += 2;
            int hi = unescape(spec, &i);
            for (int c = lo; c <= hi && n < 256; c++)
                out[n++] = (unsigned char)c;
        } else {
            out[n++] = (unsigned char)lo;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    unsigned char set1[256], set2[256], map[256];
    if (argc != 3 || argv[2][0] == 0) {
        fprintf(stderr, "tr: missing operand\n");
        return 1;
    }
    int n1 = expand(argv[1], set1);
    int n2 = expand(argv[2], set2);
    for (int c = 0; c < 256; c++)
        map[c] = (unsigned char)c;
    for (int k = 0; k < n1; k++)
        map[set1[k]] = set2[k < n2 ? k : n2 - 1];
    int c;
    while ((c = getchar()) != EOF)
        putchar(map[c]);
    return 0;
}
