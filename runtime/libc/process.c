/*
 * process.c - the process's fixed world: identity (one user "user", uid and
 * gid 1000, beside root; host "localhost"), limits (sysconf, getpagesize), random bytes
 * (a fixed stream, the same in native replay), memory helpers
 * over the engine's allocator, and signals (registration and masks work; only
 * raise() delivers one: its handler, or its default action).
 */
#include "libc_internal.h"
#include "../fixed_machine.h"
#include "../fixed_random.h"
#include "../fixed_user.h"

/* ---- identity -------------------------------------------------------- */

#define USER_ID AUGUR_USER_ID
#define PROCESS_ID 4242
#define PARENT_ID 4241

unsigned int getuid(void) { return USER_ID; }
unsigned int geteuid(void) { return USER_ID; }
unsigned int getgid(void) { return USER_ID; }
unsigned int getegid(void) { return USER_ID; }
int getpid(void) { return PROCESS_ID; }
int getppid(void) { return PARENT_ID; }

#define ENAMETOOLONG 36

int gethostname(char *name, size_t len)
{
    if (augur_fixed_hostname(name, len) == 0)
        return 0;
    errno = ENAMETOOLONG;
    return -1;
}

/* glibc's struct passwd and struct group. */
struct passwd {
    char *pw_name, *pw_passwd;
    unsigned int pw_uid, pw_gid;
    char *pw_gecos, *pw_dir, *pw_shell;
};

struct group {
    char *gr_name, *gr_passwd;
    unsigned int gr_gid;
    char **gr_mem;
};

static char root_name[] = "root", user_name[] = AUGUR_USER_NAME, x_pw[] = "x";
static char root_dir[] = AUGUR_ROOT_HOME, user_dir[] = AUGUR_USER_HOME, shell[] = AUGUR_SHELL;
static char *no_members[] = {NULL};
static char *user_members[] = {user_name, NULL};

static struct passwd users[] = {
    {root_name, x_pw, 0, 0, root_name, root_dir, shell},
    {user_name, x_pw, USER_ID, USER_ID, user_name, user_dir, shell},
};
static struct group groups[] = {
    {root_name, x_pw, 0, no_members},
    {user_name, x_pw, USER_ID, user_members},
};

#define N_ENTRIES 2

/* Users and groups are paired: entry i of each has the same name and number. The index
 * of the entry named `name` (when not NULL) or numbered `id`; -1 if none. */
static int entry_of(const char *name, unsigned int id)
{
    int i;
    for (i = 0; i < N_ENTRIES; i++)
        if (name != NULL ? strcmp(users[i].pw_name, name) == 0 : users[i].pw_uid == id)
            return i;
    return -1;
}

struct passwd *getpwuid(unsigned int uid)
{
    int i = entry_of(NULL, uid);
    return i < 0 ? NULL : &users[i];
}

struct passwd *getpwnam(const char *name)
{
    int i = entry_of(name, 0);
    return i < 0 ? NULL : &users[i];
}

struct group *getgrgid(unsigned int gid)
{
    int i = entry_of(NULL, gid);
    return i < 0 ? NULL : &groups[i];
}

struct group *getgrnam(const char *name)
{
    int i = entry_of(name, 0);
    return i < 0 ? NULL : &groups[i];
}

/* musl's getgrouplist asks nscd first, whose socket is refused here (EACCES): `id
 * root` and `groups root` failed under analysis where glibc finds the groups. */
int getgrouplist(const char *user, unsigned int group, unsigned int *list, int *ngroups)
{
    return augur_fixed_getgrouplist(user, group, list, ngroups);
}

/* ---- limits ------------------------------------------------------------ */

int getpagesize(void) { return (int)AUGUR_PAGE_SIZE; }

/* ---- random bytes ---------------------------------------------------- */

long getrandom(void *buf, size_t len, unsigned int flags)
{
    (void)flags;
    return augur_fixed_getrandom(buf, len);
}

int getentropy(void *buf, size_t len)
{
    int r = augur_fixed_getentropy(buf, len);
    if (r < 0)
        errno = EIO;
    return r;
}

/* sysconf: this world's answers (../fixed_machine.h). */
long sysconf(int name)
{
    long v = augur_fixed_sysconf(name);
    if (v == AUGUR_SYSCONF_UNKNOWN) {
        errno = EINVAL;
        return -1;
    }
    return v;
}

/* ---- memory helpers ---------------------------------------------------- */


int posix_memalign(void **out, size_t align, size_t n)
{
    void *p;
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    p = aligned_alloc(align, n);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

void *reallocarray(void *p, size_t n, size_t size)
{
    if (size != 0 && n > (size_t)-1 / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n * size);
}

/* ---- signals ----------------------------------------------------------- */

#define NSIG 65
#define SIGKILL 9
#define SIGSTOP 19
#define SIG_BYTES 8 /* the signals glibc's sigset_t functions use: 1..64 */

typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

/* glibc's sigset_t and struct sigaction (x86-64). */
typedef struct {
    unsigned long val[16];
} sigset_t;

struct sigaction {
    sighandler_t sa_handler; /* or sa_sigaction: same slot */
    sigset_t sa_mask;
    int sa_flags;
    void (*sa_restorer)(void);
};

static struct sigaction actions[NSIG];
static sigset_t blocked;

/* glibc reserves 32 and 33 for its threads: sigaddset and friends refuse them. */
static int valid_signal(int sig) { return sig > 0 && sig < NSIG && sig != 32 && sig != 33; }

int sigemptyset(sigset_t *s)
{
    memset(s, 0, sizeof *s);
    return 0;
}

int sigfillset(sigset_t *s)
{
    memset(s, 0, sizeof *s);
    memset(s, 0xff, SIG_BYTES);
    s->val[0] &= ~(3UL << 31); /* 32 and 33 */
    return 0;
}

/* The word and bit of sig in a sigset_t; -1 (EINVAL) for a signal the caller may not
 * name: internal ones are refused unless `internal_ok` (sigismember accepts them). */
static int signal_bit(int sig, int internal_ok, unsigned long *word, unsigned long *bit)
{
    if (internal_ok ? sig <= 0 || sig >= NSIG : !valid_signal(sig)) {
        errno = EINVAL;
        return -1;
    }
    *word = (unsigned long)(sig - 1) / 64;
    *bit = 1UL << ((sig - 1) % 64);
    return 0;
}

int sigaddset(sigset_t *s, int sig)
{
    unsigned long w, b;
    if (signal_bit(sig, 0, &w, &b) < 0)
        return -1;
    s->val[w] |= b;
    return 0;
}

int sigdelset(sigset_t *s, int sig)
{
    unsigned long w, b;
    if (signal_bit(sig, 0, &w, &b) < 0)
        return -1;
    s->val[w] &= ~b;
    return 0;
}

int sigismember(const sigset_t *s, int sig)
{
    unsigned long w, b;
    if (signal_bit(sig, 1, &w, &b) < 0)
        return -1;
    return (s->val[w] & b) != 0;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    int i;
    if (how < 0 || how > 2) { /* SIG_BLOCK, SIG_UNBLOCK, SIG_SETMASK */
        errno = EINVAL;
        return -1;
    }
    if (old != NULL)
        *old = blocked;
    if (set == NULL)
        return 0;
    for (i = 0; i < 16; i++) {
        if (how == 0)
            blocked.val[i] |= set->val[i];
        else if (how == 1)
            blocked.val[i] &= ~set->val[i];
        else
            blocked.val[i] = set->val[i];
    }
    blocked.val[0] &= ~((1UL << (SIGKILL - 1)) | (1UL << (SIGSTOP - 1)));
    return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    return sigprocmask(how, set, old) == 0 ? 0 : errno;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig <= 0 || sig >= NSIG || sig == 32 || sig == 33
        || (act != NULL && (sig == SIGKILL || sig == SIGSTOP))) {
        errno = EINVAL;
        return -1;
    }
    if (old != NULL)
        *old = actions[sig];
    if (act != NULL)
        actions[sig] = *act;
    return 0;
}

sighandler_t signal(int sig, sighandler_t handler)
{
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    act.sa_flags = 0x10000000; /* SA_RESTART, as glibc's signal() */
    if (sigaction(sig, &act, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

/* Linux's default action of `sig`: 0 ends the process, 1 ignores the signal (SIGCHLD,
 * SIGCONT, SIGURG, SIGWINCH), 2 stops the process (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU). */
static int default_action(int sig)
{
    switch (sig) {
    case 17: case 18: case 23: case 28:
        return 1;
    case SIGSTOP: case 20: case 21: case 22:
        return 2;
    default:
        return 0;
    }
}

/* A blocked signal stays pending (and is never delivered here); a handler runs; a signal
 * whose action is the default one ends the process (augur's signal outcome, which
 * `augur replay` checks natively), is ignored, or would stop it. */
int raise(int sig)
{
    sighandler_t h;
    if (sig <= 0 || sig >= NSIG) {
        errno = EINVAL;
        return -1;
    }
    if (sig != SIGKILL && sig != SIGSTOP && sigismember(&blocked, sig) == 1)
        return 0;
    h = actions[sig].sa_handler;
    if (h == SIG_IGN)
        return 0;
    if (h != SIG_DFL) {
        h(sig);
        return 0;
    }
    if (default_action(sig) == 1)
        return 0;
    if (default_action(sig) == 2)
        augur_sys_unsupported("a stop signal: the process would wait for another to continue it");
    augur_sys_signalled(sig);
}
