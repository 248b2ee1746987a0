#include <stdarg.h>
#include <stdio.h>
#include "model.h"

int t_pass, t_fail;

void t_check(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        t_pass++;
        return;
    }
    t_fail++;
    if (t_fail > 200)
        return;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void test_string(void);
void test_ctype(void);
void test_stdlib(void);
void test_printf(void);
void test_scanf(void);
void test_stdio(void);
void test_unistd(void);
void test_math(void);
void test_locale(void);
void test_process(void);
void test_files(void);
void test_dir(void);
void test_thread(void);

int main(void)
{
    test_string();
    test_ctype();
    test_stdlib();
    test_printf();
    test_scanf();
    test_stdio();
    test_unistd();
    test_math();
    test_locale();
    test_process();
    test_files();
    test_dir();
    test_thread();
    printf("%d passed, %d failed\n", t_pass, t_fail);
    return t_fail != 0;
}
