/* model.h - prototypes of the model functions as renamed by
 * -DAUGUR_NATIVE_TEST (model_<name>). */
#ifndef MODEL_H
#define MODEL_H
#include <stdarg.h>
#include <stddef.h>

typedef struct model_file MFILE;
extern MFILE *model_stdin, *model_stdout, *model_stderr;

void *model_memcpy(void *, const void *, size_t);
void *model_memmove(void *, const void *, size_t);
void *model_memset(void *, int, size_t);
int model_memcmp(const void *, const void *, size_t);
void *model_memchr(const void *, int, size_t);
size_t model_strlen(const char *);
size_t model_strnlen(const char *, size_t);
char *model_strcpy(char *, const char *);
char *model_strncpy(char *, const char *, size_t);
char *model_strcat(char *, const char *);
char *model_strncat(char *, const char *, size_t);
int model_strcmp(const char *, const char *);
int model_strncmp(const char *, const char *, size_t);
char *model_strchr(const char *, int);
char *model_strrchr(const char *, int);
char *model_basename(const char *);
char *model_dirname(char *);
char *model___xpg_basename(char *);
char *model_strstr(const char *, const char *);
size_t model_strspn(const char *, const char *);
size_t model_strcspn(const char *, const char *);
char *model_strpbrk(const char *, const char *);
char *model_strtok(char *, const char *);
char *model_strtok_r(char *, const char *, char **);
char *model_strdup(const char *);
char *model_strndup(const char *, size_t);
int model_strcasecmp(const char *, const char *);
int model_strncasecmp(const char *, const char *, size_t);
void model_bzero(void *, size_t);

int model_isalnum(int); int model_isalpha(int); int model_isdigit(int);
int model_isxdigit(int); int model_islower(int); int model_isupper(int);
int model_isspace(int); int model_ispunct(int); int model_isprint(int);
int model_isgraph(int); int model_iscntrl(int); int model_isblank(int);
int model_isascii(int); int model_tolower(int); int model_toupper(int);
const unsigned short **model___ctype_b_loc(void);
const int **model___ctype_tolower_loc(void);
const int **model___ctype_toupper_loc(void);

int *model___errno_location(void);
long model_strtol(const char *, char **, int);
unsigned long model_strtoul(const char *, char **, int);
long long model_strtoll(const char *, char **, int);
unsigned long long model_strtoull(const char *, char **, int);
double model_strtod(const char *, char **);
long double model_strtold(const char *, char **);
double model_atof(const char *);
int model_atoi(const char *); long model_atol(const char *);
long long model_atoll(const char *);
int model_abs(int); long model_labs(long); long long model_llabs(long long);
typedef struct { int quot; int rem; } mdiv_t;
typedef struct { long quot; long rem; } mldiv_t;
mdiv_t model_div(int, int); mldiv_t model_ldiv(long, long);
void model_qsort(void *, size_t, size_t, int (*)(const void *, const void *));
void *model_bsearch(const void *, const void *, size_t, size_t,
                    int (*)(const void *, const void *));
char *model_getenv(const char *);
int model_setenv(const char *, const char *, int);
int model_putenv(char *);
int model_clearenv(void);
extern char **model___environ;
int model_unsetenv(const char *);
int model_atexit(void (*)(void));
void model_augur_run_atexit(void);

MFILE *model_fopen(const char *, const char *);
int model_fclose(MFILE *);
size_t model_fread(void *, size_t, size_t, MFILE *);
size_t model_fwrite(const void *, size_t, size_t, MFILE *);
int model_fgetc(MFILE *); int model_getc(MFILE *); int model_getchar(void);
char *model_fgets(char *, int, MFILE *);
int model_ungetc(int, MFILE *);
int model_feof(MFILE *); int model_ferror(MFILE *); void model_clearerr(MFILE *);
int model_fflush(MFILE *); int model_fileno(MFILE *);
int model_fputc(int, MFILE *); int model_putc(int, MFILE *);
int model_putchar(int); int model_fputs(const char *, MFILE *);
int model_puts(const char *);

int model_printf(const char *, ...);
int model_fprintf(MFILE *, const char *, ...);
int model_sprintf(char *, const char *, ...);
int model_snprintf(char *, size_t, const char *, ...);
int model_dprintf(int, const char *, ...);
int model_vsnprintf(char *, size_t, const char *, va_list);

int model_scanf(const char *, ...);
int model_fscanf(MFILE *, const char *, ...);
int model_sscanf(const char *, const char *, ...);

extern char *model_optarg;
extern int model_optind, model_opterr, model_optopt;
struct option;
int model_getopt(int, char *const[], const char *);
int model_getopt_long(int, char *const[], const char *, const struct option *, int *);
int model_getopt_long_only(int, char *const[], const char *, const struct option *, int *);

double model_fabs(double); double model_floor(double); double model_ceil(double);
double model_sqrt(double); double model_pow(double, double);
double model_exp(double); double model_log(double); double model_sin(double);
double model_cos(double); double model_fmod(double, double);
double model_round(double); double model_trunc(double);

/* test framework */
extern int t_pass, t_fail;
void t_check(int ok, const char *file, int line, const char *fmt, ...);
#define CHECK(ok, ...) t_check((ok), __FILE__, __LINE__, __VA_ARGS__)
#endif
