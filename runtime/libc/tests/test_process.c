/* test_process.c - error messages, error(), the fixed process world, signal
 * sets, and the UTC calendar and strftime against glibc. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "model.h"
#include "shim.h"

char *model_strerror(int);
char *model_strsignal(int);
int model___libc_current_sigrtmin(void);
int model___libc_current_sigrtmax(void);
int model___xpg_strerror_r(int, char *, size_t);
void model_perror(const char *);
void model_error(int, int, const char *, ...);
void model_error_at_line(int, int, const char *, unsigned, const char *, ...);
extern char *model_program_invocation_name;
extern int model_error_one_per_line;
extern unsigned model_error_message_count;
long model_sysconf(int);
int model_getpagesize(void);
int model_posix_memalign(void **, size_t, size_t);
void *model_reallocarray(void *, size_t, size_t);
int model_sigemptyset(sigset_t *); int model_sigfillset(sigset_t *);
int model_sigaddset(sigset_t *, int); int model_sigdelset(sigset_t *, int);
int model_sigismember(const sigset_t *, int);
int model_sigprocmask(int, const sigset_t *, sigset_t *);
int model_sigaction(int, const struct sigaction *, struct sigaction *);
sighandler_t model_signal(int, sighandler_t);
int model_raise(int);
#include <grp.h>
#include <pwd.h>
struct passwd *model_getpwuid(uid_t);
struct passwd *model_getpwnam(const char *);
struct group *model_getgrgid(gid_t);
struct group *model_getgrnam(const char *);
uid_t model_getuid(void);
struct tm *model_gmtime_r(const time_t *, struct tm *);
time_t model_timegm(struct tm *);
size_t model_strftime(char *, size_t, const char *, const struct tm *);

void *aligned_alloc(size_t, size_t);

static void test_strerror(void)
{
    int e;
    char g[64], m[64];
    CHECK(model___libc_current_sigrtmin() == SIGRTMIN && model___libc_current_sigrtmax() == SIGRTMAX,
          "SIGRTMIN %d, SIGRTMAX %d", SIGRTMIN, SIGRTMAX);
    for (e = -2; e < 70; e++) {
        char want[64];
        snprintf(want, sizeof want, "%s", strsignal(e));
        CHECK(strcmp(want, model_strsignal(e)) == 0, "strsignal(%d): %s vs %s", e, want,
              model_strsignal(e));
    }
    for (e = -2; e < 140; e++) {
        CHECK(strcmp(strerror(e), model_strerror(e)) == 0, "strerror(%d): %s vs %s", e,
              strerror(e), model_strerror(e));
        {
            extern int __xpg_strerror_r(int, char *, size_t);
            int rg = __xpg_strerror_r(e, g, sizeof g), rm = model___xpg_strerror_r(e, m, sizeof m);
            CHECK(rg == rm && strcmp(g, m) == 0, "xpg_strerror_r(%d)", e);
            rg = __xpg_strerror_r(e, g, 8);
            rm = model___xpg_strerror_r(e, m, 8);
            CHECK(rg == rm && strcmp(g, m) == 0, "xpg_strerror_r(%d) short: %d %s vs %d %s", e,
                  rg, g, rm, m);
        }
    }
}

static void test_error(void)
{
    model_program_invocation_name = "prog";
    shim_reset_out();
    errno = ENOENT;
    model_perror("open");
    model_error(0, ENOENT, "cannot open %s", "'x'");
    model_error(0, 0, "plain");
    model_error_at_line(0, EACCES, "f.c", 12, "bad %d", 3);
    model_error_one_per_line = 1;
    model_error_at_line(0, 0, "f.c", 13, "once");
    model_error_at_line(0, 0, "f.c", 13, "twice");
    CHECK(strcmp(shim_out, "open: No such file or directory\n"
                           "prog: cannot open 'x': No such file or directory\n"
                           "prog: plain\n"
                           "prog:f.c:12: bad 3: Permission denied\n"
                           "prog:f.c:13: once\n") == 0,
          "error output: %s", shim_out);
    CHECK(model_error_message_count == 4, "error_message_count %u", model_error_message_count);
}

static void handler(int sig) { (void)sig; }
static int raised;
static void count_handler(int sig) { raised += sig; }

static void test_process_world(void)
{
    void *p = NULL;
    int sig, i;
    sigset_t g, m, og, om;
    struct sigaction a, old;
    CHECK(model_sysconf(_SC_PAGESIZE) == sysconf(_SC_PAGESIZE), "pagesize");
    CHECK(strcmp(model_getpwuid(model_getuid())->pw_name, "user") == 0, "getpwuid(getuid())");
    CHECK(model_getpwnam("root")->pw_uid == 0 && model_getpwnam("nobody") == NULL, "getpwnam");
    CHECK(strcmp(model_getgrgid(1000)->gr_mem[0], "user") == 0 && model_getgrgid(5) == NULL,
          "getgrgid");
    CHECK(model_getgrnam("root")->gr_gid == 0, "getgrnam");
    CHECK(model_getpagesize() == getpagesize(), "getpagesize");
    CHECK(model_sysconf(_SC_CLK_TCK) == sysconf(_SC_CLK_TCK), "clk_tck");
    errno = 0;
    CHECK(model_sysconf(-1) == -1 && errno == EINVAL, "sysconf bad");
    CHECK(model_posix_memalign(&p, 3, 8) == EINVAL && p == NULL, "memalign bad");
    CHECK(model_posix_memalign(&p, 64, 8) == 0 && ((unsigned long)p & 63) == 0, "memalign");
    free(p);
    errno = 0;
    CHECK(model_reallocarray(NULL, (size_t)1 << 40, (size_t)1 << 40) == NULL && errno == ENOMEM,
          "reallocarray overflow");
    p = model_reallocarray(NULL, 4, 4);
    CHECK(p != NULL, "reallocarray");
    free(p);
    sigemptyset(&g);
    model_sigemptyset(&m);
    CHECK(memcmp(&g, &m, 8) == 0, "sigemptyset"); /* glibc uses signals 1..64 */
    sigfillset(&g);
    model_sigfillset(&m);
    CHECK(memcmp(&g, &m, 8) == 0, "sigfillset");
    for (sig = -1; sig < 70; sig++) {
        int rg, rm, eg, em;
        errno = 0;
        rg = sigaddset(&g, sig);
        eg = errno;
        errno = 0;
        rm = model_sigaddset(&m, sig);
        em = errno;
        CHECK(rg == rm && eg == em, "sigaddset(%d)", sig);
        CHECK(sigismember(&g, sig) == model_sigismember(&m, sig), "sigismember(%d)", sig);
        if (sig % 3 == 0)
            CHECK(sigdelset(&g, sig) == model_sigdelset(&m, sig), "sigdelset(%d)", sig);
        CHECK(memcmp(&g, &m, 8) == 0, "set after %d", sig);
        errno = 0;
        rg = sigaction(sig, NULL, NULL);
        eg = errno;
        errno = 0;
        rm = model_sigaction(sig, NULL, NULL);
        em = errno;
        CHECK(rg == rm && eg == em, "sigaction query(%d)", sig);
    }
    memset(&a, 0, sizeof a);
    a.sa_handler = handler;
    CHECK(model_sigaction(SIGKILL, &a, NULL) == -1 && errno == EINVAL, "sigaction SIGKILL");
    CHECK(model_sigaction(SIGINT, &a, NULL) == 0, "sigaction SIGINT");
    CHECK(model_sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == handler, "old action");
    CHECK(model_signal(SIGINT, SIG_IGN) == handler, "signal returns old");
    CHECK(model_signal(SIGKILL, SIG_IGN) == SIG_ERR, "signal SIGKILL");
    CHECK(model_signal(SIGUSR1, count_handler) == SIG_DFL, "signal default");
    CHECK(model_raise(SIGUSR1) == 0 && raised == SIGUSR1, "raise calls the handler");
    CHECK(model_raise(SIGINT) == 0 && raised == SIGUSR1, "raise of an ignored signal");
    sigemptyset(&g);
    sigaddset(&g, SIGINT);
    sigaddset(&g, SIGKILL);
    sigprocmask(SIG_BLOCK, &g, &og);
    model_sigprocmask(SIG_BLOCK, &g, &om);
    sigprocmask(SIG_SETMASK, NULL, &og);
    model_sigprocmask(SIG_SETMASK, NULL, &om);
    for (i = 1; i < 65; i++)
        if (i != 32 && i != 33)
            CHECK(sigismember(&og, i) == model_sigismember(&om, i), "mask %d", i);
    sigprocmask(SIG_UNBLOCK, &g, NULL);
    CHECK(model_sigprocmask(7, &g, NULL) == -1 && errno == EINVAL, "sigprocmask bad how");
}

/* Every conversion byte after every combination of flags, width and modifier, and
 * formats ending inside a conversion, against glibc's strftime (BusyBox's `date` and
 * `ts` hand the user's format to it: `%-d`, `%_5H`, `%^a`, `%O`). */
static void test_strftime_flags(void)
{
    static const char *const prefixes[] = {"", "_", "-", "0", "^", "#", "^#", "_^", "-#", "0^",
                                           "3", "10", "_5", "-4", "05", "^8", "#9", "1"};
    static const char *const modifiers[] = {"", "E", "O", "EO"};
    static const time_t times[] = {1704373507, 951782400, -2208988800L, 0, 1735603200};
    size_t t, i, k;
    int c;
    char f[32], g[256], m[256];
    struct tm tg, tm;
    for (t = 0; t < sizeof times / sizeof times[0]; t++) {
        gmtime_r(&times[t], &tg);
        model_gmtime_r(&times[t], &tm);
        for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            size_t rg, rm;
            for (k = 0; k < sizeof modifiers / sizeof modifiers[0]; k++)
                for (c = ' '; c <= '~'; c++) {
                    snprintf(f, sizeof f, "<%%%s%s%c>", prefixes[i], modifiers[k], c);
                    rg = strftime(g, sizeof g, f, &tg);
                    rm = model_strftime(m, sizeof m, f, &tm);
                    CHECK(rg == rm && strcmp(g, m) == 0, "strftime(\"%s\", %ld): \"%s\" vs \"%s\"",
                          f, (long)times[t], g, m);
                }
            snprintf(f, sizeof f, "x%%%sO", prefixes[i]);
            rg = strftime(g, sizeof g, f, &tg);
            rm = model_strftime(m, sizeof m, f, &tm);
            CHECK(rg == rm && strcmp(g, m) == 0, "strftime(\"%s\"): \"%s\" vs \"%s\"", f, g, m);
            snprintf(f, sizeof f, "x%%%s", prefixes[i]);
            rg = strftime(g, sizeof g, f, &tg);
            rm = model_strftime(m, sizeof m, f, &tm);
            CHECK(rg == rm && strcmp(g, m) == 0, "strftime(\"%s\"): \"%s\" vs \"%s\"", f, g, m);
        }
    }
}

static void test_calendar(void)
{
    static const char *const fmts[] = {
        "%a %A %b %B %h", "%c", "%C %d %D %e %F", "%G %g %V", "%H %I %j %k %l",
        "%m %M %n %p %P %r %R", "%s %S %t %T %u %U %w %W", "%x %X %y %Y %z %Z %%",
        "%Ey %Od %q", "plain", "%"};
    static const time_t times[] = {0, 1, 59, 86399, 86400, -1, -86401, 951782400, 951868800,
                                   1704067200, 1735603200, 1230681600, 1262217600,
                                   4102444799L, -2208988800L, 253402300799L, 1609459200,
                                   1640995200, 1104537600};
    size_t i, k;
    char g[256], m[256];
    struct tm tg, tm;
    for (i = 0; i < sizeof times / sizeof times[0]; i++) {
        time_t back;
        gmtime_r(&times[i], &tg);
        model_gmtime_r(&times[i], &tm);
        CHECK(tg.tm_year == tm.tm_year && tg.tm_mon == tm.tm_mon && tg.tm_mday == tm.tm_mday
                  && tg.tm_hour == tm.tm_hour && tg.tm_min == tm.tm_min
                  && tg.tm_sec == tm.tm_sec && tg.tm_wday == tm.tm_wday
                  && tg.tm_yday == tm.tm_yday,
              "gmtime_r(%ld)", (long)times[i]);
        back = model_timegm(&tm);
        CHECK(back == times[i], "timegm(gmtime(%ld)) = %ld", (long)times[i], (long)back);
        for (k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
            size_t rg = strftime(g, sizeof g, fmts[k], &tg);
            size_t rm = model_strftime(m, sizeof m, fmts[k], &tm);
            CHECK(rg == rm && strcmp(g, m) == 0, "strftime(\"%s\", %ld): \"%s\" vs \"%s\"",
                  fmts[k], (long)times[i], g, m);
        }
        CHECK(strftime(g, 4, "%Y-%m", &tg) == model_strftime(m, 4, "%Y-%m", &tm),
              "strftime too small");
    }    test_strftime_flags();
}

int model_gethostname(char *, size_t);

/* The host name is fixed ("localhost"); too small a buffer fails as glibc's. */
static void test_hostname(void)
{
    char m[64], g[64];
    int mr, gr, me, ge;
    CHECK(model_gethostname(m, sizeof m) == 0 && strcmp(m, "localhost") == 0, "gethostname");
    errno = 0; mr = model_gethostname(m, 1); me = errno;
    errno = 0; gr = gethostname(g, 1); ge = errno;
    CHECK(mr == gr && me == ge && mr == -1, "gethostname(1): %d %d vs %d %d", mr, me, gr, ge);
}

void test_process(void)
{
    test_hostname();
    test_strerror();
    test_error();
    test_process_world();
    test_calendar();
}
