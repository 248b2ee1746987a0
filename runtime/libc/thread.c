/*
 * thread.c - one thread: mutexes and condition variables that never block,
 * pthread_once, no thread creation (EAGAIN), one CPU (sched_getaffinity),
 * and resource limits.
 *
 * A mutex records whether it is held in its first int (glibc's __lock, zero
 * in PTHREAD_MUTEX_INITIALIZER): locking a held mutex, which would block the
 * only thread for ever, is EDEADLK as for an error-checking mutex.
 * pthread_cond_wait returns at once (a spurious wake-up, which POSIX allows).
 */
#include "libc_internal.h"

#define EAGAIN 11
#define EBUSY 16
#define EDEADLK 35
#define EPERM 1
#define ESRCH 3

typedef struct {
    int lock;
    int rest[9]; /* glibc's pthread_mutex_t is 40 bytes */
} mutex_t;

int pthread_mutex_init(mutex_t *m, const void *attr)
{
    (void)attr;
    memset(m, 0, sizeof *m);
    return 0;
}

int pthread_mutex_lock(mutex_t *m)
{
    if (m->lock)
        return EDEADLK;
    m->lock = 1;
    return 0;
}

int pthread_mutex_trylock(mutex_t *m) { return m->lock ? EBUSY : pthread_mutex_lock(m); }

int pthread_mutex_unlock(mutex_t *m)
{
    if (!m->lock)
        return EPERM;
    m->lock = 0;
    return 0;
}

int pthread_mutex_destroy(mutex_t *m) { return m->lock ? EBUSY : 0; }

int pthread_cond_init(void *c, const void *attr)
{
    (void)c;
    (void)attr;
    return 0;
}

int pthread_cond_signal(void *c)
{
    (void)c;
    return 0;
}

int pthread_cond_broadcast(void *c) { return pthread_cond_signal(c); }
int pthread_cond_destroy(void *c) { return pthread_cond_signal(c); }

int pthread_cond_wait(void *c, mutex_t *m)
{
    (void)c;
    return m->lock ? 0 : EPERM;
}

unsigned long pthread_self(void) { return 1; }

int pthread_create(unsigned long *t, const void *attr, void *(*fn)(void *), void *arg)
{
    (void)t;
    (void)attr;
    (void)fn;
    (void)arg;
    return EAGAIN; /* no second thread */
}

int pthread_join(unsigned long t, void **ret)
{
    (void)ret;
    return t == 1 ? EDEADLK : ESRCH;
}

int pthread_once(int *once, void (*fn)(void))
{
    if (*once == 0) {
        *once = 1;
        fn();
    }
    return 0;
}

/* ---- CPUs and limits ------------------------------------------------------ */

int sched_getaffinity(int pid, size_t size, unsigned long *mask)
{
    (void)pid;
    if (size < sizeof(unsigned long)) {
        errno = EINVAL;
        return -1;
    }
    memset(mask, 0, size);
    mask[0] = 1; /* CPU 0 only */
    return 0;
}

int __sched_cpucount(size_t size, const unsigned long *mask)
{
    size_t i;
    int n = 0;
    unsigned long w;
    for (i = 0; i < size / sizeof(unsigned long); i++)
        for (w = mask[i]; w != 0; w &= w - 1)
            n++;
    return n;
}

struct rlimit {
    unsigned long cur, max;
};

#define RLIM_INFINITY (~0UL)
#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIMIT_NLIMITS 16

static struct rlimit limits[RLIMIT_NLIMITS];
static int limits_set;

static void default_limits(void)
{
    int i;
    if (limits_set)
        return;
    limits_set = 1;
    for (i = 0; i < RLIMIT_NLIMITS; i++)
        limits[i].cur = limits[i].max = RLIM_INFINITY;
    limits[RLIMIT_STACK].cur = 8UL << 20;
    limits[RLIMIT_NOFILE].cur = 1024;
    limits[RLIMIT_NOFILE].max = 1024;
}

int getrlimit(int resource, struct rlimit *r)
{
    if (resource < 0 || resource >= RLIMIT_NLIMITS) {
        errno = EINVAL;
        return -1;
    }
    default_limits();
    *r = limits[resource];
    return 0;
}

int setrlimit(int resource, const struct rlimit *r)
{
    if (resource < 0 || resource >= RLIMIT_NLIMITS || r->cur > r->max) {
        errno = EINVAL;
        return -1;
    }
    default_limits();
    if (r->max > limits[resource].max) {
        errno = EPERM; /* raising the hard limit needs privilege */
        return -1;
    }
    limits[resource] = *r;
    return 0;
}

int getrlimit64(int resource, struct rlimit *r) { return getrlimit(resource, r); }
int setrlimit64(int resource, const struct rlimit *r) { return setrlimit(resource, r); }
