/* augur explain fault benchmark: a job scheduler, the golden version (a second suite,
 * written after the ranking's weights were set and not used to adjust them).
 *
 * Input: the policy (0 priority, 1 shortest job, 2 earliest deadline) and four jobs of
 * three integers each (class 0-3, length, deadline) as arguments.
 * Output: the order the jobs run in, each one's finish time, and the deadlines missed. */
#include <stdio.h>
#include <stdlib.h>

#define NJOBS 4
#define NCLASSES 4
#define SLICE 5
#define SWITCH_COST 1
#define URGENT_WINDOW 8
#define MAX_LENGTH 40

enum policy { BY_PRIORITY, SHORTEST, EARLIEST };

struct job {
    int cls;
    int length;
    int deadline;
    int finish;
    int done;
};

static struct job jobs[NJOBS];
static int class_priority[NCLASSES];
static int class_boost[NCLASSES];
static int policy;
static int clock_now;

static void init_classes(void)
{
    class_priority[0] = 10;
    class_priority[1] = 20;
    class_priority[2] = 30;
    class_priority[3] = 5;
    class_boost[0] = 0;
    class_boost[1] = 2;
    class_boost[2] = 4;
    class_boost[3] = 1;
}

static int read_jobs(int argc, char **argv)
{
    if (argc != 2 + 3 * NJOBS)
        return 0;
    policy = atoi(argv[1]);
    if (policy < BY_PRIORITY || policy > EARLIEST)
        return 0;
    for (int i = 0; i < NJOBS; i++) {
        jobs[i].cls = atoi(argv[2 + 3 * i]);
        jobs[i].length = atoi(argv[3 + 3 * i]);
        jobs[i].deadline = atoi(argv[4 + 3 * i]);
        jobs[i].done = 0;
        if (jobs[i].cls < 0 || jobs[i].cls >= NCLASSES)
            return 0;
        if (jobs[i].length <= 0 || jobs[i].length > MAX_LENGTH)
            return 0;
    }
    return 1;
}

/* Is job `j` close to its deadline? */
static int urgent(int j)
{
    return jobs[j].deadline - clock_now <= URGENT_WINDOW && jobs[j].deadline > clock_now;
}

/* The job's effective priority: its class, boosted when urgent or long waiting. */
static int priority(int j)
{
    int p = class_priority[jobs[j].cls];
    if (urgent(j))
        p = p + class_boost[jobs[j].cls] * 3;
    if (clock_now > 2 * SLICE && jobs[j].length <= SLICE)
        p = p + 1;
    return p;
}

/* Does job `a` go before job `b` under the policy? */
static int before(int a, int b)
{
    if (policy == SHORTEST)
        return jobs[a].length < jobs[b].length ||
               (jobs[a].length == jobs[b].length && a < b);
    if (policy == EARLIEST)
        return jobs[a].deadline < jobs[b].deadline;
    return priority(a) > priority(b);
}

/* The next job to run, or -1. */
static int pick(void)
{
    int best = -1;
    for (int j = 0; j < NJOBS; j++) {
        if (jobs[j].done)
            continue;
        if (best < 0 || before(j, best))
            best = j;
    }
    return best;
}

/* Run job `j` to completion (switching to it costs a little). */
static void run(int j, int first)
{
    if (!first)
        clock_now = clock_now + SWITCH_COST;
    clock_now = clock_now + jobs[j].length;
    jobs[j].finish = clock_now;
    jobs[j].done = 1;
}

int main(int argc, char **argv)
{
    if (!read_jobs(argc, argv)) {
        printf("usage: sched policy (class length deadline) x 4\n");
        return 2;
    }
    init_classes();
    int missed = 0;
    for (int k = 0; k < NJOBS; k++) {
        int j = pick();
        run(j, k == 0);
        printf("job %d finishes at %d\n", j, jobs[j].finish);
        if (jobs[j].finish > jobs[j].deadline)
            missed++;
    }
    printf("missed %d\n", missed);
    return 0;
}
