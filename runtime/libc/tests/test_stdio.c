#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"
#include "shim.h"

void test_stdio(void)
{
    char path[] = "/tmp/augur_libc_test_XXXXXX";
    int fd = mkstemp(path);
    MFILE *m;
    FILE *g;
    char mb[64], gb[64];
    int i;
    close(fd);

    m = model_fopen(path, "w");
    CHECK(m != NULL, "fopen w");
    CHECK(model_fprintf(m, "line one\nline %d\n", 2) == 16, "fprintf to file");
    CHECK(model_fwrite("abc", 1, 3, m) == 3, "fwrite");
    CHECK(model_fputs("\nlast", m) == 1, "fputs file");
    CHECK(model_fflush(m) == 0 && model_fclose(m) == 0, "fclose");

    m = model_fopen(path, "r");
    g = fopen(path, "r");
    CHECK(m && g, "fopen r");
    for (i = 0; i < 5; i++) {
        char *mr = model_fgets(mb, 6, m), *gr = fgets(gb, 6, g);
        CHECK((mr == NULL) == (gr == NULL) && (mr == NULL || strcmp(mb, gb) == 0), "fgets %d", i);
    }
    CHECK(model_fgetc(m) == fgetc(g), "fgetc");
    CHECK(model_ungetc('Q', m) == 'Q' && ungetc('Q', g) == 'Q', "ungetc");
    CHECK(model_getc(m) == 'Q', "getc after ungetc");
    getc(g);
    {
        size_t mn = model_fread(mb, 1, 64, m), gn = fread(gb, 1, 64, g);
        CHECK(mn == gn && memcmp(mb, gb, mn) == 0, "fread rest %zu %zu", mn, gn);
    }
    CHECK(model_feof(m) != 0 && feof(g) != 0, "feof");
    CHECK(model_fgetc(m) == EOF && model_ferror(m) == 0, "fgetc at EOF");
    CHECK(model_fgets(mb, 10, m) == NULL, "fgets at EOF");
    model_clearerr(m);
    CHECK(model_feof(m) == 0, "clearerr");
    CHECK(model_fwrite("x", 1, 1, m) == 0 && model_ferror(m), "write to read-only stream");
    CHECK(model_fileno(m) >= 3, "fileno");
    model_fclose(m);
    fclose(g);

    m = model_fopen(path, "a");
    model_fputc('Z', m);
    model_fclose(m);
    m = model_fopen(path, "r");
    {
        size_t n = model_fread(mb, 2, 32, m);
        CHECK(n == 12 && mb[24] == 'Z', "append + fread items %zu", n);
    }
    model_fclose(m);
    CHECK(model_fopen("/nonexistent/dir/file", "r") == NULL, "fopen missing");
    CHECK(model_fopen(path, "q") == NULL, "fopen bad mode");
    unlink(path);

    /* stdin through the shim (drain what earlier tests left behind) */
    model_clearerr(model_stdin);
    while (model_getchar() != EOF)
        ;
    shim_set_stdin("ab\ncd");
    shim_stdin_chunk = 2;
    model_clearerr(model_stdin);
    CHECK(model_getchar() == 'a' && model_getchar() == 'b', "getchar");
    CHECK(model_fgets(mb, sizeof mb, model_stdin) && strcmp(mb, "\n") == 0, "fgets stdin");
    CHECK(model_fgets(mb, sizeof mb, model_stdin) && strcmp(mb, "cd") == 0, "fgets stdin no newline");
    CHECK(model_getchar() == EOF && model_feof(model_stdin), "stdin EOF");
    model_clearerr(model_stdin);
}
