/*
 * libc_internal.h - private declarations shared by the augur libc models.
 *
 * The models are freestanding: they include only clang's freestanding
 * headers (stddef.h, stdarg.h, stdint.h, limits.h) and this file.
 *
 * Native test build (-DAUGUR_NATIVE_TEST): every public name is renamed to
 * model_<name> so the models can be linked next to the host glibc and
 * compared against it (see tests/).
 */
#ifndef AUGUR_LIBC_INTERNAL_H
#define AUGUR_LIBC_INTERNAL_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <limits.h>
#include "augur_sys.h"

#ifdef AUGUR_NATIVE_TEST
/* string.c */
#define memcpy model_memcpy
#define memmove model_memmove
#define memset model_memset
#define memcmp model_memcmp
#define bcmp model_bcmp
#define memchr model_memchr
#define strlen model_strlen
#define strnlen model_strnlen
#define strcpy model_strcpy
#define strncpy model_strncpy
#define strcat model_strcat
#define strncat model_strncat
#define strcmp model_strcmp
#define strncmp model_strncmp
#define strcoll model_strcoll
#define strxfrm model_strxfrm
#define strchr model_strchr
#define strrchr model_strrchr
/* glibc.c */
#define basename model_basename
#define dirname model_dirname
#define __xpg_basename model___xpg_basename
#define mallopt model_mallopt
#define malloc_trim model_malloc_trim
#define srandom model_srandom
#define random model_random
#define srand model_srand
#define rand model_rand
#define rand_r model_rand_r
#define strverscmp model_strverscmp
#define __cmsg_nxthdr model___cmsg_nxthdr
#define strstr model_strstr
#define strspn model_strspn
#define strcspn model_strcspn
#define strpbrk model_strpbrk
#define strtok model_strtok
#define strtok_r model_strtok_r
#define strdup model_strdup
#define strndup model_strndup
#define strcasecmp model_strcasecmp
#define strncasecmp model_strncasecmp
#define bzero model_bzero
#define explicit_bzero model_explicit_bzero
/* ctype.c */
#define isalnum model_isalnum
#define isalpha model_isalpha
#define isdigit model_isdigit
#define isxdigit model_isxdigit
#define islower model_islower
#define isupper model_isupper
#define isspace model_isspace
#define ispunct model_ispunct
#define isprint model_isprint
#define isgraph model_isgraph
#define iscntrl model_iscntrl
#define isblank model_isblank
#define isascii model_isascii
#define tolower model_tolower
#define toupper model_toupper
#define __ctype_b_loc model___ctype_b_loc
#define __ctype_tolower_loc model___ctype_tolower_loc
#define __ctype_toupper_loc model___ctype_toupper_loc
/* stdlib.c */
#define __errno_location model___errno_location
#define strtol model_strtol
#define strtoul model_strtoul
#define strtoll model_strtoll
#define strtoull model_strtoull
#define __isoc23_strtol model___isoc23_strtol
#define __isoc23_strtoul model___isoc23_strtoul
#define __isoc23_strtoll model___isoc23_strtoll
#define __isoc23_strtoull model___isoc23_strtoull
#define strtod model_strtod
#define strtof model_strtof
/* ldouble.c */
#define strtold model_strtold
/* dir.c */
#define opendir model_opendir
#define readdir model_readdir
#define readdir64 model_readdir64
#define closedir model_closedir
#define rewinddir model_rewinddir
#define dirfd model_dirfd
#define statx model_statx
/* fnmatch.c */
#define fnmatch model_fnmatch
#define gnu_dev_major model_gnu_dev_major
#define gnu_dev_minor model_gnu_dev_minor
#define gnu_dev_makedev model_gnu_dev_makedev
#define readlink model_readlink
#define readlinkat model_readlinkat
#define faccessat model_faccessat
#define euidaccess model_euidaccess
#define eaccess model_eaccess
#define atof model_atof
#define atoi model_atoi
#define atol model_atol
#define atoll model_atoll
#define abs model_abs
#define labs model_labs
#define llabs model_llabs
#define div model_div
#define ldiv model_ldiv
#define lldiv model_lldiv
#define qsort model_qsort
#define bsearch model_bsearch
#define getenv model_getenv
#define setenv model_setenv
#define unsetenv model_unsetenv
#define putenv model_putenv
#define clearenv model_clearenv
#define __environ model___environ
#define atexit model_atexit
#define augur_run_atexit model_augur_run_atexit
/* stdio.c */
#define stdin model_stdin
#define stdout model_stdout
#define stderr model_stderr
#define fopen model_fopen
#define fclose model_fclose
#define fread model_fread
#define fwrite model_fwrite
#define fgetc model_fgetc
#define getc model_getc
#define _IO_getc model__IO_getc
#define getc_unlocked model_getc_unlocked
#define getchar model_getchar
#define getchar_unlocked model_getchar_unlocked
#define fgets model_fgets
#define ungetc model_ungetc
#define feof model_feof
#define ferror model_ferror
#define clearerr model_clearerr
#define fflush model_fflush
#define fileno model_fileno
#define fputc model_fputc
#define putc model_putc
#define _IO_putc model__IO_putc
#define putc_unlocked model_putc_unlocked
#define putchar model_putchar
#define putchar_unlocked model_putchar_unlocked
#define fputs model_fputs
#define puts model_puts
#define setvbuf model_setvbuf
#define setbuf model_setbuf
/* printf.c */
#define printf model_printf
#define fprintf model_fprintf
#define sprintf model_sprintf
#define snprintf model_snprintf
#define dprintf model_dprintf
#define vprintf model_vprintf
#define vfprintf model_vfprintf
#define vsprintf model_vsprintf
#define vsnprintf model_vsnprintf
#define vasprintf model_vasprintf
#define asprintf model_asprintf
#define vdprintf model_vdprintf
#define __printf_chk model___printf_chk
#define __fprintf_chk model___fprintf_chk
#define __sprintf_chk model___sprintf_chk
#define __snprintf_chk model___snprintf_chk
#define __vprintf_chk model___vprintf_chk
#define __vfprintf_chk model___vfprintf_chk
#define __vsprintf_chk model___vsprintf_chk
#define __vsnprintf_chk model___vsnprintf_chk
/* scanf.c */
#define scanf model_scanf
#define fscanf model_fscanf
#define sscanf model_sscanf
#define vscanf model_vscanf
#define vfscanf model_vfscanf
#define vsscanf model_vsscanf
#define __isoc99_scanf model___isoc99_scanf
#define __isoc99_fscanf model___isoc99_fscanf
#define __isoc99_sscanf model___isoc99_sscanf
#define __isoc99_vscanf model___isoc99_vscanf
#define __isoc99_vfscanf model___isoc99_vfscanf
#define __isoc99_vsscanf model___isoc99_vsscanf
/* fd.c, unistd.c */
#define read model_read
#define write model_write
#define close model_close
#define open model_open
#define pipe model_pipe
#define pipe2 model_pipe2
#define getopt model_getopt
#define getopt_long model_getopt_long
#define getopt_long_only model_getopt_long_only
#define optarg model_optarg
#define optind model_optind
#define opterr model_opterr
#define optopt model_optopt
/* locale.c */
#define setlocale model_setlocale
#define newlocale model_newlocale
#define uselocale model_uselocale
#define duplocale model_duplocale
#define freelocale model_freelocale
#define nl_langinfo model_nl_langinfo
#define localeconv model_localeconv
#define gettext model_gettext
#define dgettext model_dgettext
#define dcgettext model_dcgettext
#define ngettext model_ngettext
#define dngettext model_dngettext
#define dcngettext model_dcngettext
#define textdomain model_textdomain
#define bindtextdomain model_bindtextdomain
#define bind_textdomain_codeset model_bind_textdomain_codeset
#define __ctype_get_mb_cur_max model___ctype_get_mb_cur_max
#define mbrtowc model_mbrtowc
#define mbrlen model_mbrlen
#define mbtowc model_mbtowc
#define mblen model_mblen
#define mbsinit model_mbsinit
#define btowc model_btowc
#define wctob model_wctob
#define wcrtomb model_wcrtomb
#define wctomb model_wctomb
#define mbsrtowcs model_mbsrtowcs
#define mbstowcs model_mbstowcs
#define wcsrtombs model_wcsrtombs
#define wcstombs model_wcstombs
#define iswalnum model_iswalnum
#define iswalpha model_iswalpha
#define iswblank model_iswblank
#define iswcntrl model_iswcntrl
#define iswdigit model_iswdigit
#define iswgraph model_iswgraph
#define iswlower model_iswlower
#define iswprint model_iswprint
#define iswpunct model_iswpunct
#define iswspace model_iswspace
#define iswupper model_iswupper
#define iswxdigit model_iswxdigit
#define towlower model_towlower
#define towupper model_towupper
#define wctype model_wctype
#define iswctype model_iswctype
#define wcwidth model_wcwidth
#define wcswidth model_wcswidth
/* error.c */
#define program_invocation_name model_program_invocation_name
#define program_invocation_short_name model_program_invocation_short_name
#define error_print_progname model_error_print_progname
#define error_message_count model_error_message_count
#define error_one_per_line model_error_one_per_line
#define strerror model_strerror
#define strsignal model_strsignal
#define __libc_current_sigrtmin model___libc_current_sigrtmin
#define __libc_current_sigrtmax model___libc_current_sigrtmax
#define strerror_r model_strerror_r
#define __xpg_strerror_r model___xpg_strerror_r
#define perror model_perror
#define error model_error
#define error_at_line model_error_at_line
/* process.c */
#define getuid model_getuid
#define geteuid model_geteuid
#define getgid model_getgid
#define getegid model_getegid
#define getpid model_getpid
#define gethostname model_gethostname
#define getppid model_getppid
#define getpwuid model_getpwuid
#define getpwnam model_getpwnam
#define getgrgid model_getgrgid
#define getgrnam model_getgrnam
#define getgrouplist model_getgrouplist
#define getpagesize model_getpagesize
#define sysconf model_sysconf
#define posix_memalign model_posix_memalign
#define reallocarray model_reallocarray
#define sigemptyset model_sigemptyset
#define sigfillset model_sigfillset
#define sigaddset model_sigaddset
#define sigdelset model_sigdelset
#define sigismember model_sigismember
#define sigprocmask model_sigprocmask
#define pthread_sigmask model_pthread_sigmask
#define sigaction model_sigaction
#define signal model_signal
#define raise model_raise
/* time.c */
#define time model_time
#define clock_gettime model_clock_gettime
#define gettimeofday model_gettimeofday
#define gmtime_r model_gmtime_r
#define localtime_r model_localtime_r
#define gmtime model_gmtime
#define tzset model_tzset
#define localtime model_localtime
#define timegm model_timegm
#define mktime model_mktime
#define strftime model_strftime
/* fd.c */
#define open64 model_open64
#define creat model_creat
#define openat model_openat
#define openat64 model_openat64
#define lseek model_lseek
#define lseek64 model_lseek64
#define fstat model_fstat
#define stat model_stat
#define lstat model_lstat
#define fstatat model_fstatat
#define fstat64 model_fstat64
#define stat64 model_stat64
#define lstat64 model_lstat64
#define fstatat64 model_fstatat64
#define __fxstat model___fxstat
#define __xstat model___xstat
#define __lxstat model___lxstat
#define access model_access
#define dup model_dup
#define dup2 model_dup2
#define dup3 model_dup3
#define fcntl model_fcntl
#define fcntl64 model_fcntl64
#define ioctl model_ioctl
#define isatty model_isatty
#define posix_fadvise model_posix_fadvise
#define posix_fadvise64 model_posix_fadvise64
#define copy_file_range model_copy_file_range
#define pread model_pread
#define pread64 model_pread64
#define pwrite model_pwrite
#define pwrite64 model_pwrite64
#define unlink model_unlink
#define unlinkat model_unlinkat
#define ftruncate model_ftruncate
#define ftruncate64 model_ftruncate64
#define fsync model_fsync
#define fdatasync model_fdatasync
#define mkostemps model_mkostemps
#define mkstemp model_mkstemp
#define mkostemp model_mkostemp
#define mkstemps model_mkstemps
#define mkstemp64 model_mkstemp64
#define mkostemp64 model_mkostemp64
#define nanosleep model_nanosleep
#define sleep model_sleep
#define usleep model_usleep
#define remove model_remove
#define freopen model_freopen
#define freopen64 model_freopen64
/* stdio.c (more) */
#define fdopen model_fdopen
#define fopen64 model_fopen64
#define __fpurge model___fpurge
#define fpurge model_fpurge
#define fflush_unlocked model_fflush_unlocked
#define fileno_unlocked model_fileno_unlocked
#define feof_unlocked model_feof_unlocked
#define ferror_unlocked model_ferror_unlocked
#define clearerr_unlocked model_clearerr_unlocked
#define __fpending model___fpending
#define __freading model___freading
#define __fwriting model___fwriting
#define __freadable model___freadable
#define __fwritable model___fwritable
#define __flbf model___flbf
#define __fbufsize model___fbufsize
#define __freadahead model___freadahead
#define __fsetlocking model___fsetlocking
#define ftello model_ftello
#define fseeko model_fseeko
#define ftell model_ftell
#define ftello64 model_ftello64
#define fseek model_fseek
#define fseeko64 model_fseeko64
#define rewind model_rewind
#define fgetpos model_fgetpos
#define fsetpos model_fsetpos
#define fgetpos64 model_fgetpos64
#define fsetpos64 model_fsetpos64
#define fgetc_unlocked model_fgetc_unlocked
#define fread_unlocked model_fread_unlocked
#define fgets_unlocked model_fgets_unlocked
#define getdelim model_getdelim
#define getline model_getline
#define fwrite_unlocked model_fwrite_unlocked
#define fputc_unlocked model_fputc_unlocked
#define fputs_unlocked model_fputs_unlocked
/* string.c (more) */
#define stpcpy model_stpcpy
#define stpncpy model_stpncpy
#define memrchr model_memrchr
#define rawmemchr model_rawmemchr
#define strchrnul model_strchrnul
#define mempcpy model_mempcpy
#define strtoumax model_strtoumax
#define strtoimax model_strtoimax
/* thread.c */
#define pthread_mutex_init model_pthread_mutex_init
#define pthread_mutex_lock model_pthread_mutex_lock
#define pthread_mutex_trylock model_pthread_mutex_trylock
#define pthread_mutex_unlock model_pthread_mutex_unlock
#define pthread_mutex_destroy model_pthread_mutex_destroy
#define pthread_cond_init model_pthread_cond_init
#define pthread_cond_signal model_pthread_cond_signal
#define pthread_cond_broadcast model_pthread_cond_broadcast
#define pthread_cond_destroy model_pthread_cond_destroy
#define pthread_cond_wait model_pthread_cond_wait
#define pthread_self model_pthread_self
#define pthread_create model_pthread_create
#define pthread_join model_pthread_join
#define pthread_once model_pthread_once
#define sched_getaffinity model_sched_getaffinity
#define __sched_cpucount model___sched_cpucount
#define getrlimit model_getrlimit
#define setrlimit model_setrlimit
#define getrlimit64 model_getrlimit64
#define setrlimit64 model_setrlimit64
/* math.c */
#define fabs model_fabs
#define floor model_floor
#define ceil model_ceil
#define sqrt model_sqrt
#define pow model_pow
#define exp model_exp
#define log model_log
#define sin model_sin
#define cos model_cos
#define fmod model_fmod
#define round model_round
#define trunc model_trunc
#endif /* AUGUR_NATIVE_TEST */

/* ---- errno ---------------------------------------------------------- */
int *__errno_location(void);
#define errno (*__errno_location())
#define EBADF 9
#define ENOMEM 12
#define EINVAL 22
#define ERANGE 34
#define EDOM 33
#define ENOENT 2
#define EIO 5

#define EOF (-1)

/* Linux open(2) flags, as passed to augur_sys_open. */
#define AUGUR_O_RDONLY 0
#define AUGUR_O_WRONLY 01
#define AUGUR_O_RDWR 02
#define AUGUR_O_CREAT 0100
#define AUGUR_O_TRUNC 01000
#define AUGUR_O_APPEND 02000

/* ---- wide characters (glibc's types) ------------------------------- */
typedef unsigned int wint_t;
typedef unsigned long wctype_t;
typedef struct {
    int count;
    unsigned int value;
} mbstate_t;
#define WEOF 0xffffffffu

/* ---- string.c / ctype.c (used by other models) ---------------------- */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
int isalnum(int c);
int isalpha(int c);
int isblank(int c);
int iscntrl(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isdigit(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);
unsigned long long strtoull(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
char *getenv(const char *name);
int unsetenv(const char *name);

/* ---- stdio (stdio.c) ------------------------------------------------- */
typedef struct _IO_FILE FILE;
extern FILE *stdin, *stdout, *stderr;
int fgetc(FILE *f);
int ungetc(int c, FILE *f);
int fputc(int c, FILE *f);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
/* Write n bytes to f; returns the number written (short on error). */
size_t __augur_fwrite_bytes(FILE *f, const char *p, size_t n);
int fseeko(FILE *f, long off, int whence);
int fclose(FILE *f);

/* ---- descriptors (fd.c) ---------------------------------------------- */
int open(const char *path, int flags, ...);
long read(int fd, void *buf, size_t n);
long write(int fd, const void *buf, size_t n);
int close(int fd);
long lseek(int fd, long off, int whence);
int fcntl(int fd, int cmd, ...);
int dup2(int old, int new);
int unlink(const char *path);
int fprintf(FILE *f, const char *fmt, ...);
int fflush(FILE *f);
int snprintf(char *buf, size_t n, const char *fmt, ...);

/* ---- number parsing shared by the strto* family and scanf (stdlib.c) - */
/* Parse an integer like strtoull: leading white space, optional sign,
 * base prefix.  Stores the magnitude in *mag, the sign in *neg, sets
 * *ovf if the magnitude does not fit an unsigned long long, and *end to the
 * first unparsed character (s itself if no digits).  Returns 0, or -1 for
 * an invalid base (nothing stored). */
int __augur_parse_uint(const char *s, char **end, int base,
                       unsigned long long *mag, int *neg, int *ovf);
/* Value of a digit character in bases up to 36, or 99. */
int __augur_digit_value(int c);
/* glibc's struct stat on x86-64 (fd.c fills it). */
struct stat {
    unsigned long st_dev, st_ino, st_nlink;
    unsigned int st_mode, st_uid, st_gid, pad0;
    unsigned long st_rdev;
    long st_size, st_blksize, st_blocks;
    long st_atime_sec, st_atime_nsec, st_mtime_sec, st_mtime_nsec, st_ctime_sec,
        st_ctime_nsec;
    long reserved[3];
};
#define S_IFDIR 0040000
int fstat(int fd, struct stat *st);
int rmdir(const char *path);
long random(void);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstatat(int dirfd, const char *path, struct stat *st, int flag);
/* dir.c: is path one of the modelled directories (the working directory, its
 * parent, or a directory holding modelled files)?  If so, info = {links,
 * inode number, permission bits}. */
int __augur_directory(const char *path, unsigned long info[3]);
/* fd.c: the name the *at functions use for path relative to the directory
 * descriptor dirfd: path itself for AT_FDCWD, an absolute or an empty path;
 * else the directory's absolute name, '/' and path, in buf (AUGUR_PATH_MAX
 * bytes).  NULL with errno: EBADF (dirfd not open), ENOTDIR (not a
 * directory's descriptor), ENAMETOOLONG. */
#define AUGUR_PATH_MAX 4096
const char *__augur_at(int dirfd, const char *path, char *buf);

/* strtod core. */
double __augur_strtod(const char *s, char **end);
long double strtold(const char *s, char **end);

/* A floating-point number as written (strtod's and strtold's shared scanner):
 * m * 10^exp, or m * 2^exp for a hex float; inexact when nonzero digits beyond
 * what m holds were dropped. */
enum { AUGUR_FLOAT_NONE, AUGUR_FLOAT_FINITE, AUGUR_FLOAT_INF, AUGUR_FLOAT_NAN };
struct augur_float {
    int neg, kind, hex, inexact;
    unsigned long long m;
    long exp;
};
/* Scan a number at s (leading space, sign, inf/nan, hex or decimal); returns its
 * end (s when kind is AUGUR_FLOAT_NONE). */
const char *__augur_scan_float(const char *s, struct augur_float *f);
/* The double nearest a scanned number (within a few ulp); sets errno on range errors. */
double __augur_float_to_double(const struct augur_float *f);

/* ---- formatting (printf.c), used by getopt's diagnostics ------------- */
int vfprintf(FILE *f, const char *fmt, va_list ap);

#endif /* AUGUR_LIBC_INTERNAL_H */
