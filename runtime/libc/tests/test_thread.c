/* test_thread.c - the one-thread world: mutexes, pthread_once, CPU sets and
 * resource limits, against glibc where a single thread sees the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include "model.h"

int model_pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
int model_pthread_mutex_lock(pthread_mutex_t *);
int model_pthread_mutex_trylock(pthread_mutex_t *);
int model_pthread_mutex_unlock(pthread_mutex_t *);
int model_pthread_mutex_destroy(pthread_mutex_t *);
int model_pthread_once(pthread_once_t *, void (*)(void));
int model_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int model_sched_getaffinity(pid_t, size_t, cpu_set_t *);
int model___sched_cpucount(size_t, const cpu_set_t *);
int model_getrlimit(int, struct rlimit *);
int model_setrlimit(int, const struct rlimit *);

static int once_calls;
static void once_fn(void) { once_calls++; }
static void *no_thread(void *p) { return p; }

void test_thread(void)
{
    pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER, m = PTHREAD_MUTEX_INITIALIZER;
    pthread_once_t once = PTHREAD_ONCE_INIT;
    cpu_set_t set;
    struct rlimit r;
    pthread_t t;
    int i;
    CHECK(pthread_mutex_lock(&g) == model_pthread_mutex_lock(&m), "lock");
    CHECK(pthread_mutex_trylock(&g) == model_pthread_mutex_trylock(&m), "trylock held");
    CHECK(pthread_mutex_unlock(&g) == model_pthread_mutex_unlock(&m), "unlock");
    CHECK(pthread_mutex_trylock(&g) == model_pthread_mutex_trylock(&m), "trylock free");
    CHECK(pthread_mutex_unlock(&g) == model_pthread_mutex_unlock(&m), "unlock again");
    CHECK(pthread_mutex_destroy(&g) == model_pthread_mutex_destroy(&m), "destroy");
    CHECK(model_pthread_mutex_init(&m, NULL) == 0 && model_pthread_mutex_lock(&m) == 0
              && model_pthread_mutex_lock(&m) == EDEADLK,
          "relocking the only thread's mutex");
    model_pthread_once(&once, once_fn);
    model_pthread_once(&once, once_fn);
    CHECK(once_calls == 1, "pthread_once");
    CHECK(model_pthread_create(&t, NULL, no_thread, NULL) == EAGAIN, "no threads");
    for (i = 0; i < 200; i += 37) {
        CPU_ZERO(&set);
        CPU_SET(i, &set);
        CPU_SET(i / 2, &set);
        CHECK(CPU_COUNT(&set) == model___sched_cpucount(sizeof set, &set), "cpucount %d", i);
    }
    CHECK(model_sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1
              && CPU_ISSET(0, &set),
          "one CPU");
    CHECK(model_getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur == 1024, "RLIMIT_NOFILE");
    CHECK(model_getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur == RLIM_INFINITY, "RLIMIT_AS");
    errno = 0;
    CHECK(getrlimit(99, &r) == model_getrlimit(99, &r) && errno == EINVAL, "bad resource");
    model_getrlimit(RLIMIT_NOFILE, &r);
    r.rlim_max = 4096;
    CHECK(model_setrlimit(RLIMIT_NOFILE, &r) == -1 && errno == EPERM, "raise hard limit");
    r.rlim_cur = r.rlim_max = 64;
    CHECK(model_setrlimit(RLIMIT_NOFILE, &r) == 0 && model_getrlimit(RLIMIT_NOFILE, &r) == 0
              && r.rlim_max == 64,
          "lower the limit");
}
