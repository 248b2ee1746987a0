#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model.h"
#include "shim.h"

/* Run glibc getopt_long and the model on the same argv, comparing every
 * step, optarg, optind, optopt, longindex, flag effects, the diagnostic text
 * and the permuted argv. */
static int flagvar_g, flagvar_m;

static void run(const char *optstring, int nargs, const char **args, int use_long)
{
    struct option lo_g[] = {{"verbose", no_argument, NULL, 'v'},
                            {"output", required_argument, NULL, 'o'},
                            {"color", optional_argument, NULL, 'C'},
                            {"flag", no_argument, &flagvar_g, 42},
                            {"verify", no_argument, NULL, 'V'},
                            {NULL, 0, NULL, 0}};
    struct option lo_m[6];
    char *ga[16], *ma[16];
    int i, step;
    char errbuf[4096];
    memcpy(lo_m, lo_g, sizeof lo_g);
    lo_m[3].flag = &flagvar_m;
    for (i = 0; i < nargs; i++) {
        ga[i] = strdup(args[i]);
        ma[i] = strdup(args[i]);
    }
    ga[nargs] = ma[nargs] = NULL;
    optind = 0; /* full reinitialisation in glibc */
    model_optind = 0;
    opterr = model_opterr = 1;
    flagvar_g = flagvar_m = 0;
    for (step = 0; step < 20; step++) {
        int gi = -1, mi = -1, gr, mr, saved, pipefd[2];
        ssize_t n;
        fflush(stderr);
        if (pipe(pipefd) != 0)
            abort();
        saved = dup(2);
        dup2(pipefd[1], 2);
        gr = use_long == 2 ? getopt_long_only(nargs, ga, optstring, lo_g, &gi)
             : use_long  ? getopt_long(nargs, ga, optstring, lo_g, &gi)
                         : getopt(nargs, ga, optstring);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        close(pipefd[1]);
        n = read(pipefd[0], errbuf, sizeof errbuf - 1);
        errbuf[n > 0 ? n : 0] = 0;
        close(pipefd[0]);
        shim_reset_out();
        mr = use_long == 2
                 ? model_getopt_long_only(nargs, ma, optstring, (const struct option *)lo_m, &mi)
             : use_long ? model_getopt_long(nargs, ma, optstring, (const struct option *)lo_m, &mi)
                        : model_getopt(nargs, ma, optstring);
        CHECK(gr == mr && optind == model_optind &&
                  ((optarg == NULL && model_optarg == NULL) ||
                   (optarg && model_optarg && strcmp(optarg, model_optarg) == 0)) &&
                  (gr != '?' && gr != ':' ? 1 : optopt == model_optopt) && gi == mi &&
                  flagvar_g == flagvar_m && strcmp(errbuf, shim_out) == 0,
              "getopt%s('%s', %s ...) step %d: glibc %d optind %d optarg %s optopt %d li %d err [%s]; "
              "model %d optind %d optarg %s optopt %d li %d err [%s]",
              use_long == 2 ? "_long_only" : use_long ? "_long" : "", optstring, args[1] ? args[1] : "", step, gr, optind,
              optarg ? optarg : "(null)", optopt, gi, errbuf, mr, model_optind,
              model_optarg ? model_optarg : "(null)", model_optopt, mi, shim_out);
        if (gr == -1 || mr == -1)
            break;
    }
    for (i = 0; i < nargs; i++)
        CHECK(strcmp(ga[i], ma[i]) == 0, "getopt('%s', %s ...) argv[%d] after: %s vs %s",
              optstring, args[1] ? args[1] : "", i, ga[i], ma[i]);
    for (i = 0; i < nargs; i++) {
        free(ga[i]);
        free(ma[i]);
    }
}

#define RUN(os, lng, ...)                                                   \
    do {                                                                    \
        const char *a_[] = {__VA_ARGS__};                                   \
        run(os, (int)(sizeof a_ / sizeof a_[0]), a_, lng);                  \
    } while (0)

void test_unistd(void)
{
    int l;
    for (l = 0; l < 2; l++) {
        RUN("ab:c::", l, "prog", "-a", "-b", "val", "-cx", "-c", "file");
        RUN("ab:c::", l, "prog", "-abval", "-ac", "--", "-a");
        RUN("ab:c::", l, "prog", "-x", "-b");
        RUN(":ab:", l, "prog", "-x", "-b");
        RUN("ab:", l, "prog", "file", "-a");
        RUN("ab:", l, "prog", "-", "-a");
        RUN("ab:", l, "prog");
        RUN("-ab:", l, "prog", "x", "-a", "y", "-bz");
        RUN("+ab", l, "prog", "-ab", "-ba", "z");
        RUN("a:", l, "prog", "-a", "-a", "-a");
        RUN("ab", l, "prog", "-a:", "-;");
        RUN("ab:", l, "prog", "x", "y", "-a", "z", "-b", "v", "w", "-a");
        RUN("ab:", l, "prog", "x", "-a", "--", "-b", "y");
        RUN("ab:", l, "prog", "x", "y", "--");
        RUN("ab:", l, "prog", "-", "x", "-ab", "q", "r");
    }
    RUN("vo:", 1, "prog", "--verbose", "--output=x", "--output", "y", "--color", "--color=red", "-v");
    RUN("vo:", 1, "prog", "--flag", "--verb", "--out=z", "--co");
    RUN("vo:", 1, "prog", "--ver");
    RUN("vo:", 1, "prog", "--bogus", "--verbose=1", "--output");
    RUN(":vo:", 1, "prog", "--output");
    RUN("vo:", 1, "prog", "--verbose", "--", "--output");
    RUN("vo:", 1, "prog", "--unknown=3", "-v");
    RUN("vo:", 1, "prog", "f1", "--output", "x", "f2", "--verbose", "f3");
    /* getopt_long_only: a single dash also starts a long option */
    RUN("vo:", 2, "prog", "-verbose", "-output=x", "-o", "y", "-color", "--flag", "f");
    RUN("vo:", 2, "prog", "-vo", "z", "-v", "-ver", "-out", "w");
    RUN("vo:", 2, "prog", "-bogus", "-x", "-verbose=1", "-output");
    RUN("vo:x", 2, "prog", "-xv", "-x", "-co", "-c");
    RUN(":vo:", 2, "prog", "-output");

    /* read/write/close on the shim */
    {
        char buf[8];
        shim_reset_out();
        CHECK(write(1, "", 0) == 0, "sanity");
        shim_set_stdin("xyz");
        shim_stdin_chunk = 100;
        {
            extern long model_read(int, void *, size_t);
            extern long model_write(int, const void *, size_t);
            extern int model_close(int);
            extern int model_open(const char *, int, ...);
            CHECK(model_read(0, buf, 8) == 3 && memcmp(buf, "xyz", 3) == 0, "read");
            CHECK(model_read(0, buf, 8) == 0, "read EOF");
            CHECK(model_write(1, "hi", 2) == 2 && strcmp(shim_out, "hi") == 0, "write");
            CHECK(model_open("/nonexistent/x", O_RDONLY) == -1, "open missing");
            {
                int fd = model_open("/dev/null", O_RDONLY);
                CHECK(fd >= 3 && model_close(fd) == 0, "open/close");
            }
        }
    }
}
